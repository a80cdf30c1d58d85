package org.ftlab.auction.api;

/** The request itself is malformed (client id, sequence number or an argument out of range). */
public class InvalidRequestException extends AuctionException {
    private static final long serialVersionUID = 1L;

    public InvalidRequestException(String message) {
        super(message);
    }
}
