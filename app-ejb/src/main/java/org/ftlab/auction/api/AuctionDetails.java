package org.ftlab.auction.api;

import java.io.Serializable;

/**
 * One auction as viewed (the seeds' AuctionView reply).
 *
 * @param highestBidCents the current highest bid in cents, or 0 when nobody has bid
 */
public record AuctionDetails(long auctionId, String seller, String title, String description,
        long startingPriceCents, long highestBidCents, int bidCount, long closesAtEpochMillis, boolean open)
        implements Serializable {
}
