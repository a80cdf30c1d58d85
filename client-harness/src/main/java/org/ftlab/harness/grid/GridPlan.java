package org.ftlab.harness.grid;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.ftlab.auction.api.ReplySize;

/**
 * What a grid run measures: the factor levels (their product is the list of configurations, in a fixed order),
 * and how many invocations of each method every client makes per configuration: first {@code postsPerClient}
 * post-auction calls, then {@code viewsPerClient} view-auction calls (seed 002's two methods).
 */
public record GridPlan(String profile, List<Integer> clients, List<Integer> thinkMillis, List<ReplySize> replies,
        int postsPerClient, int viewsPerClient) {

    public static final List<Integer> SEED_CLIENTS = List.of(1, 4, 7, 10);
    public static final List<Integer> SEED_THINK_MS = List.of(0, 20, 40);
    public static final List<ReplySize> SEED_REPLIES = List.of(ReplySize.ORIGINAL, ReplySize.ofBytes(256),
            ReplySize.ofBytes(512), ReplySize.ofBytes(1024));

    public GridPlan {
        clients = List.copyOf(clients);
        thinkMillis = List.copyOf(thinkMillis);
        replies = List.copyOf(replies);
        if (clients.isEmpty() || thinkMillis.isEmpty() || replies.isEmpty()) {
            throw new IllegalArgumentException("every grid factor needs at least one level");
        }
        if (postsPerClient < 0 || viewsPerClient < 0 || postsPerClient + viewsPerClient == 0) {
            throw new IllegalArgumentException("each client needs at least one invocation per configuration");
        }
        if (viewsPerClient > 0 && postsPerClient == 0) {
            throw new IllegalArgumentException("view-auction needs posts to view: give posts per client > 0");
        }
        configurations(clients, thinkMillis, replies); // validates the levels
    }

    /** The seeds' grid: 48 configurations, 5,000 posts then 5,000 views per client. Hours, by design. */
    public static GridPlan full() {
        return new GridPlan("full", SEED_CLIENTS, SEED_THINK_MS, SEED_REPLIES, 5_000, 5_000);
    }

    /** The same 48 configurations with 70 posts and 70 views per client: minutes, and from 4 clients on enough
     * requests (528) for the 99% interval of p99. */
    public static GridPlan quick() {
        return new GridPlan("quick", SEED_CLIENTS, SEED_THINK_MS, SEED_REPLIES, 70, 70);
    }

    public static GridPlan named(String profile) {
        return switch (profile.toLowerCase(Locale.ROOT)) {
            case "full" -> full();
            case "quick" -> quick();
            default -> throw new IllegalArgumentException("profile must be quick or full, was '" + profile + "'");
        };
    }

    public List<GridConfig> configurations() {
        return configurations(clients, thinkMillis, replies);
    }

    private static List<GridConfig> configurations(List<Integer> clients, List<Integer> think, List<ReplySize> replies) {
        List<GridConfig> out = new ArrayList<>();
        for (int c : clients) {
            for (int t : think) {
                for (ReplySize r : replies) {
                    out.add(new GridConfig(c, t, r));
                }
            }
        }
        return out;
    }

    public int maxClients() {
        return clients.stream().mapToInt(Integer::intValue).max().orElse(1);
    }

    public int invocationsPerClient() {
        return postsPerClient + viewsPerClient;
    }

    public GridPlan withFactors(List<Integer> newClients, List<Integer> newThink, List<ReplySize> newReplies) {
        return new GridPlan("custom", newClients != null ? newClients : clients,
                newThink != null ? newThink : thinkMillis, newReplies != null ? newReplies : replies,
                postsPerClient, viewsPerClient);
    }

    public GridPlan withCounts(int posts, int views) {
        return new GridPlan("custom", clients, thinkMillis, replies, posts, views);
    }

    /** Parses a comma-separated list of whole numbers, e.g. {@code 1,4,7,10}. */
    public static List<Integer> parseInts(String what, String text) {
        try {
            return Arrays.stream(text.split(",")).map(String::trim).filter(s -> !s.isEmpty())
                    .map(Integer::parseInt).toList();
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(what + " must be comma-separated whole numbers, was '" + text + "'");
        }
    }

    /** Parses reply sizes, e.g. {@code orig,256,512}. */
    public static List<ReplySize> parseReplies(String text) {
        return Arrays.stream(text.split(",")).map(String::trim).filter(s -> !s.isEmpty()).map(ReplySize::parse)
                .toList();
    }
}
