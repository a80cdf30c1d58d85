package org.ftlab.auction.api;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

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

    /**
     * The reply's digest: the first 8 bytes of the SHA-256 of its fields in order ({@code |}-separated, the leader
     * empty when none), as 16 lower-case hex digits. Equal replies have equal digests; a client records it with the
     * reply, and a replay's reply is held to it.
     */
    public String digest() {
        String text = auctionId + "|" + amountCents + "|" + accepted + "|" + bidId + "|"
                + (leadingBidder == null ? "" : leadingBidder) + "|" + highestBidCents + "|" + bidCount;
        try {
            byte[] h = MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(h, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
