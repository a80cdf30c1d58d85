package org.ftlab.harness.workload.bids;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.ftlab.harness.history.HistoryEvent;
import org.ftlab.harness.history.check.Model;

/**
 * The bids workload's auction as a sequential object, one per key (auction): posted once with a starting price; an
 * offer is accepted iff it beats the amount to beat (the highest accepted bid, or the starting price less a cent
 * before any), and its reply says whether, and the leader, price and bid count after it; a view says the leader,
 * price and bid count. The history's values it reads: {@code post} {@code {start_cents}}; {@code offer}
 * {@code {bidder, amount_cents}} → {@code {accepted, leader, price_cents, count}}; {@code view} → {@code {leader,
 * price_cents, count}}; {@code read} → {@code {bids: [{bid, bidder, amount_cents}]}}.
 */
public final class AuctionRaceModel implements Model<AuctionRaceModel.State> {
    public static final String POST = "post";
    public static final String OFFER = "offer";
    public static final String VIEW = "view";
    public static final String READ = "read";

    /**
     * An auction: absent until posted; its leader and price mean something once it has bids; {@code bids} its accepted
     * bids, newest first, shared with the states before it (a state costs a few words whatever its length), and
     * {@code digest} a hash of them, by which states compare.
     */
    public static final class State {
        static final State ABSENT = new State(false, 0, null, 0, 0, null, 0);
        final boolean posted;
        final long startCents;
        final String leader;
        final long priceCents;
        final int count;
        final Chain bids;
        final long digest;

        State(boolean posted, long startCents, String leader, long priceCents, int count, Chain bids, long digest) {
            this.posted = posted;
            this.startCents = startCents;
            this.leader = leader;
            this.priceCents = priceCents;
            this.count = count;
            this.bids = bids;
            this.digest = digest;
        }

        boolean posted() {
            return posted;
        }

        long toBeat() {
            return count == 0 ? startCents - 1 : priceCents;
        }

        /** This state with {@code bidder}'s {@code amount} accepted as bid {@code bidId} (0: its id unknown). */
        State accept(long bidId, String bidder, long amount) {
            long d = digest * 1_000_003L + bidId;
            d = d * 1_000_003L + bidder.hashCode();
            d = d * 1_000_003L + amount;
            return new State(true, startCents, bidder, amount, count + 1, new Chain(new Accepted(bidId, bidder,
                    amount), bids), d);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof State s && s.posted == posted && s.startCents == startCents && s.count == count
                    && s.priceCents == priceCents && s.digest == digest && Objects.equals(s.leader, leader);
        }

        @Override
        public int hashCode() {
            return Long.hashCode(digest) * 31 + count;
        }
    }

    /** An accepted bid: its id (0 when the offer's reply never came), bidder and amount. */
    record Accepted(long bidId, String bidder, long amountCents) {
        boolean matches(Accepted read) {
            return (bidId == 0 || bidId == read.bidId()) && bidder.equals(read.bidder())
                    && amountCents == read.amountCents();
        }

        @Override
        public String toString() {
            return amountCents + " by " + bidder + (bidId == 0 ? "" : " (bid " + bidId + ")");
        }
    }

    /** Accepted bids, newest first. */
    record Chain(Accepted head, Chain rest) {
        /** Oldest first. */
        List<Accepted> inOrder() {
            List<Accepted> out = new ArrayList<>();
            for (Chain c = this; c != null; c = c.rest()) {
                out.add(c.head());
            }
            Collections.reverse(out);
            return out;
        }
    }

    record Read() {
    }

    record Post(long startCents) {
    }

    record Offer(String bidder, long amountCents) {
    }

    record View() {
    }

    /** What a reply says of the auction after it ({@code accepted}: offers only). */
    record Seen(boolean accepted, String leader, long priceCents, int count, long bid) {
    }

    @Override
    public String name() {
        return "auction race (bids)";
    }

    @Override
    public State init() {
        return State.ABSENT;
    }

    @Override
    public Object input(HistoryEvent invoke) {
        JsonNode v = invoke.value();
        return switch (invoke.f()) {
            case POST -> new Post(v.path("start_cents").asLong());
            case OFFER -> new Offer(v.path("bidder").asText(), v.path("amount_cents").asLong());
            case VIEW -> new View();
            case READ -> new Read();
            default -> null;
        };
    }

    @Override
    public Object output(Object input, HistoryEvent ok) {
        if (input instanceof Post) {
            return Boolean.TRUE;
        }
        JsonNode v = ok.value();
        if (input instanceof Read) {
            List<Accepted> bids = new ArrayList<>();
            for (JsonNode b : v.path("bids")) {
                bids.add(new Accepted(b.path("bid").asLong(), b.path("bidder").asText(), b.path("amount_cents")
                        .asLong()));
            }
            return List.copyOf(bids);
        }
        return new Seen(v.path("accepted").asBoolean(), v.hasNonNull("leader") ? v.get("leader").asText() : null,
                v.path("price_cents").asLong(), v.path("count").asInt(), v.path("bid").asLong());
    }

    @Override
    public State step(State s, Object input, Object output) {
        if (input instanceof Post p) {
            return s.posted() ? null : new State(true, p.startCents(), null, 0, 0, null, 0);
        }
        if (!s.posted()) {
            return null;
        }
        if (input instanceof Read) {
            return output == null || readAgrees(s, (List<?>) output) ? s : null;
        }
        State after = input instanceof Offer o && o.amountCents() > s.toBeat()
                ? s.accept(output instanceof Seen seen ? seen.bid() : 0, o.bidder(), o.amountCents()) : s;
        if (output == null) {
            return after;
        }
        Seen seen = (Seen) output;
        if (input instanceof Offer && seen.accepted() != (after != s)) {
            return null;
        }
        return agrees(after, seen) ? after : null;
    }

    /** Whether a reply describes the auction as {@code s} has it (leader and price only once it has bids). */
    private static boolean agrees(State s, Seen seen) {
        return seen.count() == s.count && (s.count == 0
                || seen.priceCents() == s.priceCents && Objects.equals(seen.leader(), s.leader));
    }

    /** Whether a final read lists the accepted bids of {@code s}, in order. */
    private static boolean readAgrees(State s, List<?> read) {
        if (read.size() != s.count) {
            return false;
        }
        int i = read.size() - 1;
        for (Chain c = s.bids; c != null; c = c.rest(), i--) {
            if (!c.head().matches((Accepted) read.get(i))) {
                return false;
            }
        }
        return true;
    }

    /** Why a final read does not list the accepted bids of {@code s}: the first difference, named. */
    private static String whyRead(State s, List<?> read) {
        List<Accepted> expected = s.bids == null ? List.of() : s.bids.inOrder();
        for (int i = 0; i < Math.max(expected.size(), read.size()); i++) {
            Accepted want = i < expected.size() ? expected.get(i) : null;
            Accepted got = i < read.size() ? (Accepted) read.get(i) : null;
            if (want != null && got != null && want.matches(got)) {
                continue;
            }
            if (want != null && read.stream().noneMatch(r -> want.matches((Accepted) r))) {
                return "lost write: the acknowledged bid " + want + " is not among the " + read.size()
                        + " bids the final read lists (" + expected.size() + " acknowledged)";
            }
            if (got != null && read.stream().filter(r -> ((Accepted) r).bidder().equals(got.bidder())
                    && ((Accepted) r).amountCents() == got.amountCents()).count() > 1) {
                return "duplicated effect: the final read lists " + got.amountCents() + " by " + got.bidder()
                        + " more than once";
            }
            return "the final read's bid " + (i + 1) + " is " + (got == null ? "missing" : got.toString())
                    + " where the acknowledged offers put " + (want == null ? "none" : want.toString()) + " ("
                    + read.size() + " read, " + expected.size() + " acknowledged)";
        }
        return "the final read agrees with the acknowledged bids";
    }

    @Override
    public String why(State s, Object input, Object output) {
        if (input instanceof Post) {
            return "the auction was posted twice";
        }
        if (!s.posted()) {
            return "it acts on an auction not posted yet";
        }
        if (output == null) {
            return "no order of the operations before it leaves a state it can follow";
        }
        if (input instanceof Read) {
            return whyRead(s, (List<?>) output);
        }
        Seen seen = (Seen) output;
        if (input instanceof Offer o) {
            if (!seen.accepted() && o.bidder().equals(seen.leader()) && seen.priceCents() == o.amountCents()) {
                return "duplicated effect: the offer was outbid by itself (leader " + seen.leader() + " at "
                        + o.amountCents() + ", its own amount), so it took effect before this reply";
            }
            int most = s.count + (o.amountCents() > s.toBeat() ? 1 : 0);
            if (seen.count() > most) {
                return "an effect no operation explains: the reply counts " + seen.count() + " bids where at most "
                        + most + " can be (a duplicated write, or a state the acknowledged operations do not make)";
            }
        }
        if (seen.count() < s.count) {
            return (input instanceof View ? "stale read" : "a reply from the past") + ": it saw " + seen.count()
                    + " bids after " + s.count + " were acknowledged (the auction as it was "
                    + (s.count - seen.count()) + " accepted bid" + (s.count - seen.count() == 1 ? "" : "s")
                    + " earlier)";
        }
        return "the reply (" + show(input, output) + ") matches no order of the operations before it; the state was "
                + show(s);
    }

    @Override
    public String show(Object input, Object output) {
        String in = input instanceof Post p ? "post at " + p.startCents()
                : input instanceof Offer o ? "offer " + o.amountCents() + " by " + o.bidder()
                : input instanceof View ? "view" : input instanceof Read ? "final read" : String.valueOf(input);
        if (output == null) {
            return in + " -> ?";
        }
        if (output instanceof List<?> read) {
            return in + " -> " + read.size() + " accepted bids";
        }
        if (!(output instanceof Seen seen)) {
            return in + " -> posted";
        }
        String verdict = input instanceof Offer ? (seen.accepted() ? "accepted, " : "outbid, ") : "";
        return in + " -> " + verdict + describe(seen.leader(), seen.priceCents(), seen.count());
    }

    @Override
    public String show(State s) {
        return s.posted ? describe(s.leader, s.priceCents, s.count) + " (starting price " + s.startCents + ")"
                : "not posted";
    }

    private static String describe(String leader, long price, int count) {
        return count == 0 ? "no bids" : String.format(Locale.ROOT, "%s leads at %d, %d bid%s", leader, price, count,
                count == 1 ? "" : "s");
    }
}
