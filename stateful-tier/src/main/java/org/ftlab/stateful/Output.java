package org.ftlab.stateful;

import java.io.Serializable;

/** What the auction engine answers an input: the tier's external output, kept for retries. */
public sealed interface Output extends Serializable permits Output.BidResult, Output.Opened, Output.Refused {
    /**
     * A bid's outcome and the auction as the bid left it (the stateless tier's {@code BidOutcome}).
     *
     * @param bidId the accepted bid's number within the engine; 0 when outbid
     */
    record BidResult(long auctionId, long amountCents, boolean accepted, long bidId, String leadingBidder,
            long highestBidCents, int bidCount) implements Output {
    }

    /** A new auction's id. */
    record Opened(long auctionId) implements Output {
    }

    /** An input the engine refused, and why (an unknown auction). */
    record Refused(String reason) implements Output {
    }
}
