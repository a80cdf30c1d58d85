package org.ftlab.auction.api;

/** The login token is missing, unknown or expired. */
public class NotLoggedInException extends AuctionException {
    private static final long serialVersionUID = 1L;

    public NotLoggedInException(String message) {
        super(message);
    }
}
