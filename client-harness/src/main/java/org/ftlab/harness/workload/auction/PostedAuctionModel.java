package org.ftlab.harness.workload.auction;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.Map;
import org.ftlab.auction.api.AuctionDetails;
import org.ftlab.auction.api.AuctionDraft;
import org.ftlab.auction.api.AuctionPosted;
import org.ftlab.harness.history.HistoryEvent;
import org.ftlab.harness.history.Invocation;
import org.ftlab.harness.history.check.Model;

/**
 * The auction workload's auctions as sequential objects, one per key (auction): posted once, by its seller, with its
 * title, description and starting price; a view sees the auction as it was posted, or — for a view invoked before
 * any post of it completed — only if the post has taken effect. A post taking effect twice under one key, or a view of
 * an auction not posted, has no order. The history's values: {@code post} {@code {seller, title, description,
 * start_cents}} → {@code {auction}}; {@code view} → {@code {seller, title, description, start_cents, bids}}.
 */
public final class PostedAuctionModel implements Model<PostedAuctionModel.State> {
    public static final String POST = "post";
    public static final String VIEW = "view";

    /** An auction: absent until posted, then what its post said. */
    public record State(Posted posted) {
        static final State ABSENT = new State(null);
    }

    /** What a post says, and what a view of the auction must see. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Posted(String seller, String title, String description, long startCents) {
    }

    /** A view's reply: the auction's posted fields (bids: how many it has, which no client of this workload makes). */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Viewed(String seller, String title, String description, long startCents, int bids) {
    }

    /** A view whose reply carried no fields (a sized reply): it says the auction exists, nothing more. */
    private static final Object UNSEEN = new Object() {
        @Override
        public String toString() {
            return "a sized reply";
        }
    };

    private record View() {
    }

    /** The history's invocation of a post of {@code draft} by {@code seller}. */
    public static Invocation post(String seller, AuctionDraft draft) {
        return new Invocation(POST, null, new Posted(seller, draft.title(), draft.description(),
                draft.startingPriceCents()));
    }

    /** What the history keeps of a post's reply: the auction it made. */
    public static Object posted(AuctionPosted p) {
        return Map.of("auction", p.auctionId());
    }

    /** What the history keeps of a view's reply. */
    public static Viewed viewed(AuctionDetails d) {
        return new Viewed(d.seller(), d.title(), d.description(), d.startingPriceCents(), d.bidCount());
    }

    @Override
    public String name() {
        return "posted auctions (auction)";
    }

    @Override
    public State init() {
        return State.ABSENT;
    }

    @Override
    public Object input(HistoryEvent invoke) {
        return switch (invoke.f()) {
            case POST -> fields(invoke.value());
            case VIEW -> new View();
            default -> null;
        };
    }

    private static Posted fields(JsonNode v) {
        return new Posted(v.path("seller").asText(), v.path("title").asText(), v.path("description").asText(),
                v.path("start_cents").asLong());
    }

    @Override
    public Object output(Object input, HistoryEvent ok) {
        if (input instanceof Posted) {
            return Boolean.TRUE;
        }
        JsonNode v = ok.value();
        if (v == null || !v.has("title")) {
            return UNSEEN;
        }
        return new Viewed(v.path("seller").asText(), v.path("title").asText(), v.path("description").asText(),
                v.path("start_cents").asLong(), v.path("bids").asInt());
    }

    @Override
    public State step(State s, Object input, Object output) {
        if (input instanceof Posted p) {
            return s.posted() == null ? new State(p) : null;
        }
        if (s.posted() == null) {
            return output == null ? s : null; // a view that never answered may have found nothing
        }
        if (output == null || output == UNSEEN) {
            return s;
        }
        Viewed v = (Viewed) output;
        Posted p = s.posted();
        return v.bids() == 0 && v.seller().equals(p.seller()) && v.title().equals(p.title())
                && v.description().equals(p.description()) && v.startCents() == p.startCents() ? s : null;
    }

    @Override
    public String why(State s, Object input, Object output) {
        if (input instanceof Posted) {
            return "duplicated effect: the auction was posted twice";
        }
        if (s.posted() == null) {
            return "the view saw an auction no post had made yet (" + show(input, output) + ")";
        }
        return "the view saw " + show(input, output) + ", but the auction was posted as " + show(s);
    }

    @Override
    public String show(Object input, Object output) {
        String in = input instanceof Posted p ? "post '" + p.title() + "' by " + p.seller() : "view";
        if (output == null) {
            return in + " -> ?";
        }
        if (output instanceof Viewed v) {
            return in + " -> '" + v.title() + "' by " + v.seller() + " at " + v.startCents() + ", " + v.bids()
                    + " bids";
        }
        return in + " -> " + (output == UNSEEN ? "a sized reply" : "posted");
    }

    @Override
    public String show(State s) {
        return s.posted() == null ? "not posted" : "'" + s.posted().title() + "' by " + s.posted().seller() + " at "
                + s.posted().startCents();
    }
}
