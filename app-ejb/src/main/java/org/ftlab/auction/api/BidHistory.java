package org.ftlab.auction.api;

import java.io.Serializable;
import java.util.List;

/** An auction's bids, highest first. */
public record BidHistory(long auctionId, List<BidRecord> bids) implements Serializable {
    public BidHistory {
        bids = List.copyOf(bids);
    }
}
