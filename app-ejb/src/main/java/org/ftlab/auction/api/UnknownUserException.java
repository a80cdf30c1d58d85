package org.ftlab.auction.api;

/** No account matches the given username and password. */
public class UnknownUserException extends AuctionException {
    private static final long serialVersionUID = 1L;

    public UnknownUserException(String message) {
        super(message);
    }
}
