package org.ftlab.auction.api;

import java.io.Serializable;

/** One entry of an auction's bid history. */
public record BidRecord(long bidId, String bidder, long amountCents, long placedAtEpochMillis)
        implements Serializable {
}
