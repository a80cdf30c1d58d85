package org.ftlab.harness.workload.bids;

import com.fasterxml.jackson.databind.JsonNode;
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
 * price_cents, count}}.
 */
public final class AuctionRaceModel implements Model<AuctionRaceModel.State> {
    public static final String POST = "post";
    public static final String OFFER = "offer";
    public static final String VIEW = "view";

    /** An auction: absent until posted; its leader and price mean something once it has bids. */
    public record State(boolean posted, long startCents, String leader, long priceCents, int count) {
        static final State ABSENT = new State(false, 0, null, 0, 0);

        long toBeat() {
            return count == 0 ? startCents - 1 : priceCents;
        }
    }

    record Post(long startCents) {
    }

    record Offer(String bidder, long amountCents) {
    }

    record View() {
    }

    /** What a reply says of the auction after it ({@code accepted}: offers only). */
    record Seen(boolean accepted, String leader, long priceCents, int count) {
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
            default -> null;
        };
    }

    @Override
    public Object output(Object input, HistoryEvent ok) {
        if (input instanceof Post) {
            return Boolean.TRUE;
        }
        JsonNode v = ok.value();
        return new Seen(v.path("accepted").asBoolean(), v.hasNonNull("leader") ? v.get("leader").asText() : null,
                v.path("price_cents").asLong(), v.path("count").asInt());
    }

    @Override
    public State step(State s, Object input, Object output) {
        if (input instanceof Post p) {
            return s.posted() ? null : new State(true, p.startCents(), null, 0, 0);
        }
        if (!s.posted()) {
            return null;
        }
        State after = input instanceof Offer o && o.amountCents() > s.toBeat()
                ? new State(true, s.startCents(), o.bidder(), o.amountCents(), s.count() + 1) : s;
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
        return seen.count() == s.count() && (s.count() == 0
                || seen.priceCents() == s.priceCents() && Objects.equals(seen.leader(), s.leader()));
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
        Seen seen = (Seen) output;
        if (input instanceof Offer o) {
            if (!seen.accepted() && o.bidder().equals(seen.leader()) && seen.priceCents() == o.amountCents()) {
                return "duplicated effect: the offer was outbid by itself (leader " + seen.leader() + " at "
                        + o.amountCents() + ", its own amount), so it took effect before this reply";
            }
            if (seen.count() > s.count() + (o.amountCents() > s.toBeat() ? 1 : 0)) {
                return "an effect no operation explains: the reply counts " + seen.count() + " bids where at most "
                        + (s.count() + 1) + " can be (a duplicated or lost write)";
            }
        }
        if (seen.count() < s.count()) {
            return (input instanceof View ? "stale read" : "a reply from the past") + ": it saw " + seen.count()
                    + " bids after " + s.count() + " were acknowledged (the auction as it was "
                    + (s.count() - seen.count()) + " accepted bids earlier)";
        }
        return "the reply (" + show(input, output) + ") matches no order of the operations before it; the state was "
                + show(s);
    }

    @Override
    public String show(Object input, Object output) {
        String in = input instanceof Post p ? "post at " + p.startCents()
                : input instanceof Offer o ? "offer " + o.amountCents() + " by " + o.bidder()
                : input instanceof View ? "view" : String.valueOf(input);
        if (output == null) {
            return in + " -> ?";
        }
        if (!(output instanceof Seen seen)) {
            return in + " -> posted";
        }
        String verdict = input instanceof Offer ? (seen.accepted() ? "accepted, " : "outbid, ") : "";
        return in + " -> " + verdict + describe(seen.leader(), seen.priceCents(), seen.count());
    }

    @Override
    public String show(State s) {
        return s.posted() ? describe(s.leader(), s.priceCents(), s.count()) + " (starting price " + s.startCents()
                + ")" : "not posted";
    }

    private static String describe(String leader, long price, int count) {
        return count == 0 ? "no bids" : String.format(Locale.ROOT, "%s leads at %d, %d bid%s", leader, price, count,
                count == 1 ? "" : "s");
    }
}
