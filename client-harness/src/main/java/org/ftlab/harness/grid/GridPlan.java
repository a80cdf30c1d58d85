package org.ftlab.harness.grid;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.ftlab.auction.api.ReplySize;
import org.ftlab.harness.probe.ConfigId;
import org.ftlab.rm.api.Platform;

/**
 * What a grid run measures and how: the factor levels (their product is the list of configurations), how many
 * invocations of each method every client makes per configuration (first {@code postsPerClient} post-auction calls,
 * then {@code viewsPerClient} view-auction calls: seed 002's two methods), and the {@link Design}: warm-up, order,
 * replicates and the arrival process.
 *
 * <p>In a closed-loop grid (the seeds') the load factor is the think time; in an open-loop grid it is the request
 * rate per client, and the think-time levels are not used. The {@link Infra infrastructure} factors (fail-over
 * strategy, replication degree) cross the workload's when a run gives them more than one level.
 */
public record GridPlan(String profile, List<Integer> clients, List<Integer> thinkMillis, List<ReplySize> replies,
        Infra infra, int postsPerClient, int viewsPerClient, Design design) {

    public static final List<Integer> SEED_CLIENTS = List.of(1, 4, 7, 10);
    public static final List<Integer> SEED_THINK_MS = List.of(0, 20, 40);
    public static final List<ReplySize> SEED_REPLIES = List.of(ReplySize.ORIGINAL, ReplySize.ofBytes(256),
            ReplySize.ofBytes(512), ReplySize.ofBytes(1024));
    /**
     * Warm-up requests per client before each configuration's measured ones, unless {@code --warmup} says otherwise.
     * Chosen from measurement (docs/performance.md, "Warm-up"): with it, the first and last deciles of every
     * configuration of the quick grid agree within the steady-state bound.
     */
    public static final int DEFAULT_WARMUP_PER_CLIENT = 30;
    /**
     * Requests per client that warm a new lab up before a run's first block (the replicas' JIT compilers, the
     * database's buffers), in every method and reply size of the plan; chosen from measurement like
     * {@link #DEFAULT_WARMUP_PER_CLIENT} (docs/performance.md, "Warm-up").
     */
    public static final int DEFAULT_LAB_WARMUP_PER_CLIENT = 1000;
    /** Hard bounds on the factors, validated where they are declared. */
    public static final int MAX_REPEAT = 100;
    public static final int MAX_WARMUP = 1_000_000;

    /** The order configurations run in. */
    public enum Order {
        /** A random permutation of all (configuration, replicate) blocks, drawn from the seed. */
        RANDOM,
        /** Grid order (clients, then load, then reply size), replicate after replicate. */
        SEQUENTIAL;

        public static Order parse(String text) {
            return switch (text.trim().toLowerCase(Locale.ROOT)) {
                case "random" -> RANDOM;
                case "sequential" -> SEQUENTIAL;
                default -> throw new IllegalArgumentException("--order must be random or sequential, was '" + text
                        + "'");
            };
        }

        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** How a client's requests are spaced in time. */
    public enum Arrival {
        /** Closed loop (the seeds'): send, wait for the reply, think, send the next. */
        CLOSED,
        /** Open loop, requests every 1/rate s on a fixed schedule, whatever the replies do. */
        UNIFORM,
        /** Open loop, exponential gaps of mean 1/rate s (a Poisson process), drawn from the seed. */
        POISSON;

        public static Arrival parse(String text) {
            return switch (text.trim().toLowerCase(Locale.ROOT)) {
                case "closed" -> CLOSED;
                case "uniform" -> UNIFORM;
                case "poisson" -> POISSON;
                default -> throw new IllegalArgumentException("--arrival must be closed, uniform or poisson, was '"
                        + text + "'");
            };
        }

        public boolean open() {
            return this != CLOSED;
        }

        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * How the grid is run: {@code warmupPerClient} unmeasured requests of the configuration's own mix per client
     * before its measured ones; {@code repeat} replicates of every configuration; their {@code order}, from
     * {@code seed} (null until the run draws one); the {@code arrival} process and, for open loop, the request
     * rates per client (levels of the load factor); {@code labWarmupPerClient} requests per client that warm a new
     * lab up before the first block (and again after a resume, whose lab is new).
     */
    public record Design(int warmupPerClient, int repeat, Order order, Long seed, Arrival arrival,
            List<Double> ratesPerS, int labWarmupPerClient) {
        /** Closed loop, no warm-up, one replicate, grid order: the plain run of one configuration (e.g. a bench). */
        public static final Design PLAIN = new Design(0, 1, Order.SEQUENTIAL, 0L, Arrival.CLOSED, List.of(), 0);

        public Design {
            if (labWarmupPerClient < 0 || labWarmupPerClient > MAX_WARMUP) {
                throw new IllegalArgumentException("--lab-warmup must be 0 to " + MAX_WARMUP + ", was "
                        + labWarmupPerClient);
            }
            ratesPerS = List.copyOf(ratesPerS);
            if (warmupPerClient < 0 || warmupPerClient > MAX_WARMUP) {
                throw new IllegalArgumentException("--warmup must be 0 to " + MAX_WARMUP + ", was " + warmupPerClient);
            }
            if (repeat < 1 || repeat > MAX_REPEAT) {
                throw new IllegalArgumentException("--repeat must be 1 to " + MAX_REPEAT + ", was " + repeat);
            }
            if (arrival.open() && ratesPerS.isEmpty()) {
                throw new IllegalArgumentException("--arrival " + arrival.wireName() + " needs --rate R[,R...] "
                        + "(requests per second per client)");
            }
            if (!arrival.open() && !ratesPerS.isEmpty()) {
                throw new IllegalArgumentException("--rate applies to open-loop arrivals: add --arrival poisson or "
                        + "--arrival uniform");
            }
            for (double r : ratesPerS) {
                if (!(r > 0) || r > 10_000 || Double.isInfinite(r)) {
                    throw new IllegalArgumentException("--rate must be above 0 and at most 10000 requests/s per "
                            + "client, was " + ConfigId.formatRate(r));
                }
            }
        }

        public Design withSeed(long newSeed) {
            return new Design(warmupPerClient, repeat, order, newSeed, arrival, ratesPerS, labWarmupPerClient);
        }
    }

    /**
     * The infrastructure factors of a run that varies them: the fail-over strategies, the replication degrees and
     * the middleware platforms ({@code ejb}, {@code rest}), each crossed with every other factor. A list with fewer than two levels is not a factor (empty: the run's one
     * strategy and degree, as its manifest records them).
     */
    public record Infra(List<String> strategies, List<Integer> replicas, List<String> platforms) {
        /** A run that varies no infrastructure. */
        public static final Infra NONE = new Infra(List.of(), List.of(), List.of());

        /** Strategy and degree levels, one platform. */
        public Infra(List<String> strategies, List<Integer> replicas) {
            this(strategies, replicas, List.of());
        }

        public Infra {
            strategies = List.copyOf(strategies);
            replicas = List.copyOf(replicas);
            platforms = List.copyOf(platforms);
            if (platforms.stream().distinct().count() < platforms.size()) {
                throw new IllegalArgumentException("--platform names a level twice: " + String.join(",", platforms));
            }
            platforms.forEach(Platform::parse); // one line for an unknown one
            if (strategies.stream().distinct().count() < strategies.size()) {
                throw new IllegalArgumentException("--strategy names a level twice: " + String.join(",", strategies));
            }
            if (replicas.stream().distinct().count() < replicas.size()) {
                throw new IllegalArgumentException("--replicas names a level twice: " + replicas);
            }
            for (int r : replicas) {
                if (r < 1 || r > 5) {
                    throw new IllegalArgumentException("--replicas levels must be 1 to 5, was " + r);
                }
            }
        }

        /** Whether the strategy is a factor of the run (two levels or more). */
        public boolean variesStrategy() {
            return strategies.size() > 1;
        }

        /** Whether the replication degree is a factor of the run (two levels or more). */
        public boolean variesReplicas() {
            return replicas.size() > 1;
        }

        /** Whether the middleware platform is a factor of the run (two levels or more). */
        public boolean variesPlatform() {
            return platforms.size() > 1;
        }

        /** The highest degree a block asks for; 0 when the degree is not a factor. */
        public int maxReplicas() {
            return replicas.stream().mapToInt(Integer::intValue).max().orElse(0);
        }

        /** The lowest degree a block asks for; 0 when the degree is not a factor. */
        public int minReplicas() {
            return replicas.stream().mapToInt(Integer::intValue).min().orElse(0);
        }

        /** Every configuration of {@code workload} at every level of the factors this run varies. */
        List<GridConfig> cross(List<GridConfig> workload) {
            List<String> s = variesStrategy() ? strategies : Collections.singletonList(null);
            List<Integer> n = variesReplicas() ? replicas : List.of(0);
            List<String> p = variesPlatform() ? platforms : Collections.singletonList(null);
            List<GridConfig> out = new ArrayList<>();
            for (GridConfig c : workload) {
                for (String strategy : s) {
                    for (int degree : n) {
                        for (String platform : p) {
                            out.add(c.on(strategy, degree, platform));
                        }
                    }
                }
            }
            return out;
        }
    }

    /** One (configuration, replicate) of the schedule: a block of the randomized order. */
    public record Block(GridConfig config, int replicate, int of) {
        /** The probe file's name without {@code .csv}: the configuration id, with {@code -repK} when R > 1. */
        public String id() {
            return config.idOf(of > 1 ? replicate : 0).fileStem();
        }

        @Override
        public String toString() {
            return id();
        }
    }

    public GridPlan {
        if (infra == null) {
            infra = Infra.NONE;
        }
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
        if (design == null) {
            design = Design.PLAIN;
        }
        configurations(clients, thinkMillis, replies, design); // validates the levels
    }

    /** A plan that varies no infrastructure. */
    public GridPlan(String profile, List<Integer> clients, List<Integer> thinkMillis, List<ReplySize> replies,
            int postsPerClient, int viewsPerClient, Design design) {
        this(profile, clients, thinkMillis, replies, Infra.NONE, postsPerClient, viewsPerClient, design);
    }

    /** A closed-loop plan with no warm-up, one replicate, in grid order. */
    public GridPlan(String profile, List<Integer> clients, List<Integer> thinkMillis, List<ReplySize> replies,
            int postsPerClient, int viewsPerClient) {
        this(profile, clients, thinkMillis, replies, postsPerClient, viewsPerClient, Design.PLAIN);
    }

    private static Design standard() {
        return new Design(DEFAULT_WARMUP_PER_CLIENT, 1, Order.RANDOM, null, Arrival.CLOSED, List.of(),
                DEFAULT_LAB_WARMUP_PER_CLIENT);
    }

    /** The seeds' grid: 48 configurations, 5,000 posts then 5,000 views per client. Hours, by design. */
    public static GridPlan full() {
        return new GridPlan("full", SEED_CLIENTS, SEED_THINK_MS, SEED_REPLIES, 5_000, 5_000, standard());
    }

    /** The same 48 configurations with 70 posts and 70 views per client: minutes, and from 4 clients on enough
     * requests (528) for the 99% interval of p99. */
    public static GridPlan quick() {
        return new GridPlan("quick", SEED_CLIENTS, SEED_THINK_MS, SEED_REPLIES, 70, 70, standard());
    }

    /**
     * The profile behind docs/findings.md: the 48 configurations in random order, each twice (so the factorial
     * ANOVA has within-configuration variance), with warm-up; 500 posts and 500 views per client, so that every
     * block, 1 client included, has the 528 requests the p99 interval needs. About 45 minutes on 2 cores.
     */
    public static GridPlan paper() {
        return new GridPlan("paper", SEED_CLIENTS, SEED_THINK_MS, SEED_REPLIES, 500, 500,
                new Design(DEFAULT_WARMUP_PER_CLIENT, 2, Order.RANDOM, null, Arrival.CLOSED, List.of(),
                        DEFAULT_LAB_WARMUP_PER_CLIENT));
    }

    /**
     * The campaign behind docs/findings.md's Findings IV and VI: the infrastructure as factors — middleware platform
     * (remote EJB, HTTP/JSON) × fail-over strategy (pre-connected warm passive, hedged, active) × replication degree
     * (2, 3) — crossed with clients {1, 4, 10} and reply size {original, 1024}, think time 0: 72 configurations, each
     * twice, in random order, with warm-up; 300 posts and 300 views per client, so every block has the 528 requests
     * the p99 interval needs (docs/findings.md gives the time it took).
     */
    public static GridPlan infraProfile() {
        return new GridPlan("infra", List.of(1, 4, 10), List.of(0), List.of(ReplySize.ORIGINAL,
                ReplySize.ofBytes(1024)), new Infra(List.of("preconnected", "hedged", "active"), List.of(2, 3),
                List.of("ejb", "rest")), 300, 300, new Design(DEFAULT_WARMUP_PER_CLIENT, 2, Order.RANDOM, null,
                Arrival.CLOSED, List.of(), DEFAULT_LAB_WARMUP_PER_CLIENT));
    }

    public static GridPlan named(String profile) {
        return switch (profile.toLowerCase(Locale.ROOT)) {
            case "full" -> full();
            case "quick" -> quick();
            case "paper" -> paper();
            case "infra" -> infraProfile();
            default -> throw new IllegalArgumentException("profile must be quick, paper, full or infra, was '"
                    + profile + "'");
        };
    }

    /**
     * The configurations in grid order: clients, then the load level (think time or rate), then reply size, then the
     * infrastructure levels the run varies (strategy, then degree).
     */
    public List<GridConfig> configurations() {
        return infra.cross(configurations(clients, thinkMillis, replies, design));
    }

    private static List<GridConfig> configurations(List<Integer> clients, List<Integer> think, List<ReplySize> replies,
            Design design) {
        List<GridConfig> out = new ArrayList<>();
        for (int c : clients) {
            if (design.arrival().open()) {
                for (double rate : design.ratesPerS()) {
                    for (ReplySize r : replies) {
                        out.add(GridConfig.openLoop(c, rate, r));
                    }
                }
            } else {
                for (int t : think) {
                    for (ReplySize r : replies) {
                        out.add(new GridConfig(c, t, r));
                    }
                }
            }
        }
        return out;
    }

    /**
     * Every (configuration, replicate) block in the order they run: grid order replicate after replicate, or a
     * random permutation of all blocks drawn from the design's seed (the same seed gives the same order).
     */
    public List<Block> schedule() {
        List<Block> blocks = new ArrayList<>();
        for (int rep = 1; rep <= design.repeat(); rep++) {
            for (GridConfig c : configurations()) {
                blocks.add(new Block(c, rep, design.repeat()));
            }
        }
        if (design.order() == Order.RANDOM) {
            if (design.seed() == null) {
                throw new IllegalStateException("a random order needs a seed: draw one before scheduling");
            }
            Collections.shuffle(blocks, new Random(design.seed()));
        }
        return blocks;
    }

    /** How many blocks the run has: every configuration's replicates (known before the order is drawn). */
    public int blockCount() {
        return configurations().size() * design.repeat();
    }

    public int maxClients() {
        return clients.stream().mapToInt(Integer::intValue).max().orElse(1);
    }

    public int invocationsPerClient() {
        return postsPerClient + viewsPerClient;
    }

    public GridPlan withFactors(List<Integer> newClients, List<Integer> newThink, List<ReplySize> newReplies) {
        return new GridPlan("custom", newClients != null ? newClients : clients,
                newThink != null ? newThink : thinkMillis, newReplies != null ? newReplies : replies, infra,
                postsPerClient, viewsPerClient, design);
    }

    public GridPlan withCounts(int posts, int views) {
        return new GridPlan("custom", clients, thinkMillis, replies, infra, posts, views, design);
    }

    /** This plan run another way; the profile name stays (a profile names the sizes, not the design). */
    public GridPlan withDesign(Design newDesign) {
        return new GridPlan(profile, clients, thinkMillis, replies, infra, postsPerClient, viewsPerClient, newDesign);
    }

    /** This plan with the infrastructure factors {@code newInfra}; the profile name stays. */
    public GridPlan withInfra(Infra newInfra) {
        return new GridPlan(profile, clients, thinkMillis, replies, newInfra, postsPerClient, viewsPerClient, design);
    }

    /** The platforms the blocks use: the factor's levels, or {@code runPlatform} when the run has one. */
    public List<String> platformsOr(String runPlatform) {
        return infra.variesPlatform() ? infra.platforms() : List.of(runPlatform);
    }

    /** The strategies the blocks use: the factor's levels, or {@code runStrategy} when the run has one. */
    public List<String> strategiesOr(String runStrategy) {
        return infra.variesStrategy() ? infra.strategies() : List.of(runStrategy);
    }

    /** Parses a comma-separated list of names, e.g. {@code preconnected,active}; blanks dropped. */
    public static List<String> parseNames(String text) {
        return Arrays.stream(text.split(",")).map(String::trim).filter(x -> !x.isEmpty()).toList();
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

    /** Parses a comma-separated list of positive numbers, e.g. {@code 50,100,12.5}. */
    public static List<Double> parseRates(String text) {
        try {
            return Arrays.stream(text.split(",")).map(String::trim).filter(s -> !s.isEmpty())
                    .map(Double::parseDouble).toList();
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--rate must be comma-separated numbers of requests per second, "
                    + "e.g. 50,100; was '" + text + "'");
        }
    }

    /** Parses reply sizes, e.g. {@code orig,256,512}. */
    public static List<ReplySize> parseReplies(String text) {
        return Arrays.stream(text.split(",")).map(String::trim).filter(s -> !s.isEmpty()).map(ReplySize::parse)
                .toList();
    }
}
