package org.ftlab.auction.api;

/** The username or password of a new account is invalid, or the username is taken. */
public class InvalidAccountInfoException extends AuctionException {
    private static final long serialVersionUID = 1L;

    public InvalidAccountInfoException(String message) {
        super(message);
    }
}
