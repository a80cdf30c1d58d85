package org.ftlab.auction.api;

import java.io.Serializable;

/** The reply to posting an auction: the id the service gave it. */
public record AuctionPosted(long auctionId, long closesAtEpochMillis) implements Serializable {
}
