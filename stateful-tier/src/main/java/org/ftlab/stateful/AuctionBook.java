package org.ftlab.stateful;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The auction engine's state, which lives in memory only (checkpoints and the input log recover it): the auctions,
 * their accepted bids, and the reply to every input handled, so that a retried request gets the same answer. Handling
 * is a pure function of the state and the step: the same steps in the same order make the same book.
 */
public final class AuctionBook implements Serializable {
    private static final long serialVersionUID = 1L;
    private final TreeMap<Long, Auction> auctions = new TreeMap<>();
    /** The replies kept for retries: each client's newest {@value #REPLIES_KEPT}, by seq. */
    private final TreeMap<String, TreeMap<Long, Output>> replies = new TreeMap<>();
    /** Below which seq a client's replies are no longer kept. */
    private final TreeMap<String, Long> forgottenBelow = new TreeMap<>();
    /** Replies kept per client: far more than a client ever has in flight, so a retry always finds its own. */
    public static final int REPLIES_KEPT = 256;
    private long nextAuctionId = 1;
    private long nextBidId = 1;
    private long handled;
    /** A digest of every gateway's checks, so that their work is part of the state. */
    private long checks;

    /** One accepted bid. */
    public record AcceptedBid(long bidId, String bidder, long amountCents) implements Serializable {
    }

    /** One auction: who opened it, its starting price and its accepted bids, in the order accepted. */
    public static final class Auction implements Serializable {
        private static final long serialVersionUID = 1L;
        final long id;
        final String seller;
        final String title;
        final long startingPriceCents;
        final List<AcceptedBid> bids = new ArrayList<>();

        Auction(long id, String seller, String title, long startingPriceCents) {
            this.id = id;
            this.seller = seller;
            this.title = title;
            this.startingPriceCents = startingPriceCents;
        }

        long amountToBeat() {
            return bids.isEmpty() ? startingPriceCents - 1 : bids.get(bids.size() - 1).amountCents();
        }

        public long id() {
            return id;
        }

        public List<AcceptedBid> bids() {
            return List.copyOf(bids);
        }

        public long highestBidCents() {
            return bids.isEmpty() ? 0 : bids.get(bids.size() - 1).amountCents();
        }

        public String leadingBidder() {
            return bids.isEmpty() ? null : bids.get(bids.size() - 1).bidder();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Auction a && id == a.id && seller.equals(a.seller) && title.equals(a.title)
                    && startingPriceCents == a.startingPriceCents && bids.equals(a.bids);
        }

        @Override
        public int hashCode() {
            return Objects.hash(id, seller, title, startingPriceCents, bids);
        }
    }

    /** Handles one step; returns the output, which is also kept for the input's retries. */
    public Output handle(Step step) {
        Input in = step.input();
        Output known = replyTo(in.clientId(), in.seq());
        if (known != null) {
            return known; // an input is handled once; its retries get this
        }
        if (forgotten(in.clientId(), in.seq())) {
            return new Output.Refused("request " + in.key() + " is too old to be answered again");
        }
        handled++;
        checks = checks * 31 + step.score();
        Output out;
        if (in instanceof Input.Open o) {
            long id = nextAuctionId++;
            auctions.put(id, new Auction(id, o.seller(), o.title(), o.startingPriceCents()));
            out = new Output.Opened(id);
        } else {
            out = bid((Input.Bid) in);
        }
        TreeMap<Long, Output> mine = replies.computeIfAbsent(in.clientId(), c -> new TreeMap<>());
        mine.put(in.seq(), out);
        while (mine.size() > REPLIES_KEPT) {
            long oldest = mine.pollFirstEntry().getKey();
            forgottenBelow.merge(in.clientId(), oldest + 1, Math::max);
        }
        return out;
    }

    private Output bid(Input.Bid b) {
        Auction a = auctions.get(b.auctionId());
        if (a == null) {
            return new Output.Refused("no auction " + b.auctionId());
        }
        if (b.amountCents() <= a.amountToBeat()) {
            return new Output.BidResult(a.id, b.amountCents(), false, 0, a.leadingBidder(), a.highestBidCents(),
                    a.bids.size());
        }
        long bidId = nextBidId++;
        a.bids.add(new AcceptedBid(bidId, b.bidder(), b.amountCents()));
        return new Output.BidResult(a.id, b.amountCents(), true, bidId, b.bidder(), b.amountCents(), a.bids.size());
    }

    /**
     * Whether request {@code (clientId, seq)} is older than the replies kept for its client: handled long ago (its
     * client has had {@value #REPLIES_KEPT} replies since), so a copy of it now is a stale duplicate.
     */
    public boolean forgotten(String clientId, long seq) {
        return seq < forgottenBelow.getOrDefault(clientId, Long.MIN_VALUE);
    }

    /** The reply already given to request {@code (clientId, seq)}, or null (never handled, or too old to keep). */
    public Output replyTo(String clientId, long seq) {
        TreeMap<Long, Output> mine = replies.get(clientId);
        return mine == null ? null : mine.get(seq);
    }

    public Map<Long, Auction> auctions() {
        return Collections.unmodifiableMap(auctions);
    }

    /** Inputs handled (not their retries). */
    public long handled() {
        return handled;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AuctionBook b && auctions.equals(b.auctions) && replies.equals(b.replies)
                && forgottenBelow.equals(b.forgottenBelow)
                && nextAuctionId == b.nextAuctionId && nextBidId == b.nextBidId && handled == b.handled
                && checks == b.checks;
    }

    @Override
    public int hashCode() {
        return Objects.hash(auctions, replies, nextAuctionId, nextBidId, handled, checks);
    }
}
