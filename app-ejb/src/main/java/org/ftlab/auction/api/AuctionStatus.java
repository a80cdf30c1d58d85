package org.ftlab.auction.api;

import java.io.Serializable;

/**
 * The short state of an auction.
 *
 * @param leadingBidder username of the highest bidder, or {@code null} when there is no bid
 */
public record AuctionStatus(long auctionId, boolean open, long highestBidCents, String leadingBidder, int bidCount,
        long closesAtEpochMillis) implements Serializable {
}
