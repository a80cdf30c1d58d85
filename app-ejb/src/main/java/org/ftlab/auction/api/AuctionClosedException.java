package org.ftlab.auction.api;

/** The auction has closed; it takes no more bids. */
public class AuctionClosedException extends AuctionException {
    private static final long serialVersionUID = 1L;

    public AuctionClosedException(String message) {
        super(message);
    }
}
