package org.ftlab.auction.api;

import java.io.Serializable;

/**
 * What a seller fills in to post an auction (the seeds' AuctionPost argument).
 *
 * @param startingPriceCents the lowest acceptable first bid, in cents
 * @param durationSeconds how long the auction stays open after posting
 */
public record AuctionDraft(String title, String description, long startingPriceCents, long durationSeconds)
        implements Serializable {

    public static final int MAX_TITLE_LENGTH = 100;
    public static final int MAX_DESCRIPTION_LENGTH = 1000;
    /** One year: longer auctions are a typo, not a lab scenario. */
    public static final long MAX_DURATION_SECONDS = 365L * 24 * 3600;
    /** A billion dollars, in cents. */
    public static final long MAX_PRICE_CENTS = 100_000_000_000L;
}
