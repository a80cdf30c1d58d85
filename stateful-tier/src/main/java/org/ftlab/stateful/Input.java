package org.ftlab.stateful;

import java.io.Serializable;

/**
 * An external input of the stateful tier: what a client's request asks, identified as every request of ftlab is by
 * {@code (clientId, seq)}. The only thing besides estimator changes that the tier logs: everything else is recomputed
 * by replaying these in the order their virtual times give.
 */
public sealed interface Input extends Serializable permits Input.Bid, Input.Open {
    String clientId();

    long seq();

    /** The request's identity: a retry carries the same. */
    default String key() {
        return clientId() + "#" + seq();
    }

    /** A bid of {@code bidder} (a username the tier's door has authenticated) on an auction. */
    record Bid(String clientId, long seq, String bidder, long auctionId, long amountCents) implements Input {
    }

    /** A new auction of {@code seller}, bids from {@code startingPriceCents} on. */
    record Open(String clientId, long seq, String seller, String title, long startingPriceCents) implements Input {
    }
}
