package org.ftlab.auction.api;

/** The auction's title, description, price or duration is invalid. */
public class InvalidAuctionInfoException extends AuctionException {
    private static final long serialVersionUID = 1L;

    public InvalidAuctionInfoException(String message) {
        super(message);
    }
}
