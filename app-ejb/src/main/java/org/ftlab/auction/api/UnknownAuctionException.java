package org.ftlab.auction.api;

/** No auction has the given id. */
public class UnknownAuctionException extends AuctionException {
    private static final long serialVersionUID = 1L;

    public UnknownAuctionException(String message) {
        super(message);
    }
}
