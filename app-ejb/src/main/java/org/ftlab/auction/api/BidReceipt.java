package org.ftlab.auction.api;

import java.io.Serializable;

/** The reply to an accepted bid. */
public record BidReceipt(long bidId, long auctionId, long amountCents, long placedAtEpochMillis)
        implements Serializable {
}
