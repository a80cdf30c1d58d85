package org.ftlab.auction.api;

import java.io.Serializable;

/**
 * The reply to an offered bid ({@link AuctionService#offerBid}): whether it was accepted, and the auction as the bid
 * left it. Which bids win depends on the order the service handled them in, so these replies are what a replay of the
 * same inputs in the same order must reproduce.
 *
 * @param bidId the accepted bid's id; 0 when it was outbid
 * @param leadingBidder username of the highest bidder after this bid, or {@code null} when there is no bid yet
 * @param highestBidCents the highest bid after this one (this one's amount when accepted)
 * @param bidCount accepted bids of the auction after this one
 */
public record BidOutcome(long auctionId, long amountCents, boolean accepted, long bidId, String leadingBidder,
        long highestBidCents, int bidCount) implements Serializable {
}
