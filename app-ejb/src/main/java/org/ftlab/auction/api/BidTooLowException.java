package org.ftlab.auction.api;

/** The bid does not beat the current highest bid (or the starting price). */
public class BidTooLowException extends AuctionException {
    private static final long serialVersionUID = 1L;

    public BidTooLowException(String message) {
        super(message);
    }
}
