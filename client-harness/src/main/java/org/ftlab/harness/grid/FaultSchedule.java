package org.ftlab.harness.grid;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Random;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ftlab.rm.api.FaultKind;
import org.ftlab.rm.api.FaultSpec;
import org.ftlab.rm.api.FaultTarget;

/**
 * Which faults a grid run injects and when: a list of {@link Entry entries}, from a schedule file
 * ({@code --faults-file}), drawn from a seed ({@code --fault-seed}), or made by the shorthands
 * ({@code --faults crash|hang|db-crash|db-hang} with {@code --faults-per-config N} or {@code --fault-every S}). The text format
 * (docs/faults.md), one fault per line, {@code #} starts a comment:
 *
 * <pre>
 * # at         kind        target          duration  amount
 * c1@10%       crash       primary
 * c1@30%       hang        primary         2s
 * 20s          slow        backup          5s        10
 * every 30s    crash       primary
 * </pre>
 *
 * {@code at} is a block of the run (the {@code K}-th configuration replicate run, from 1) and how far through its
 * measured invocations ({@code cK} alone: half-way), or a time since the first block started ({@code 20s},
 * {@code 1500ms}), or a period ({@code every 30s}). The duration ({@code s} or {@code ms}) is {@code -} for a crash;
 * the amount is in the kind's unit ({@link FaultKind#amountUnit()}) and may be left out for its default. The schedule
 * a run actually ran is written to its directory in this format, so the file reproduces it.
 *
 * @param origin how the schedule was made, for the manifest and the report ({@code file all-kinds.faults},
 *     {@code seed 42 mix local}, {@code shorthand})
 */
public record FaultSchedule(List<Entry> entries, String origin) {
    public static final FaultSchedule NONE = new FaultSchedule(List.of(), "none");
    /** The file a run directory keeps its schedule in. */
    public static final String FILE = "faults.schedule";
    /** Duration of a shorthand {@code --faults hang}: far beyond detection, so the replica is fenced, not resumed. */
    static final long SHORTHAND_HANG_MILLIS = 30_000;

    /** When an entry is due: exactly one of a block position, a time, or a period. */
    public record At(int block, double fraction, long afterMillis, long everyMillis) {
        public At {
            int forms = (block > 0 ? 1 : 0) + (afterMillis >= 0 ? 1 : 0) + (everyMillis > 0 ? 1 : 0);
            if (forms != 1) {
                throw new IllegalArgumentException("a fault is due at a block, a time or a period, not " + forms);
            }
            if (block > 0 && !(fraction >= 0 && fraction <= 1)) {
                throw new IllegalArgumentException("a block position must be 0% to 100%, was " + fraction * 100
                        + "%");
            }
        }

        public static At inBlock(int block, double fraction) {
            return new At(block, fraction, -1, 0);
        }

        public static At after(long millis) {
            return new At(0, 0, millis, 0);
        }

        public static At every(long millis) {
            return new At(0, 0, -1, millis);
        }

        public boolean inBlock() {
            return block > 0;
        }

        public boolean periodic() {
            return everyMillis > 0;
        }

        @Override
        public String toString() {
            if (block > 0) {
                return "c" + block + "@" + percent(fraction * 100) + "%";
            }
            return periodic() ? "every " + duration(everyMillis) : duration(afterMillis);
        }
    }

    /** One line: when, and what. */
    public record Entry(At at, FaultSpec spec) {
        String format() {
            String amount = spec.kind().amountUnit() == null ? "" : percent(spec.amount());
            return String.format(Locale.ROOT, "%-12s %-10s %-16s %-9s %s", at, spec.kind().wireName(), spec.target(),
                    spec.kind().lasts() ? duration(spec.durationMillis()) : "-", amount).stripTrailing();
        }
    }

    public FaultSchedule {
        entries = List.copyOf(entries);
        long periodic = entries.stream().filter(e -> e.at().periodic()).count();
        if (periodic > 0 && entries.size() > 1) {
            throw new IllegalArgumentException("an 'every' line must be the schedule's only line");
        }
    }

    public boolean enabled() {
        return !entries.isEmpty();
    }

    /** The kinds the schedule uses, each once, in order of first use. */
    public List<FaultKind> kinds() {
        return entries.stream().map(e -> e.spec().kind()).distinct().toList();
    }

    /**
     * How many of the schedule's faults can make the manager fail a replica, with a Fault Detector that suspects
     * after {@code detectorTimeoutMillis}: crashes, and hangs, freezes and link-downs of a replica (or partitions
     * between the detector and one) that outlast the timeout. An estimate for sizing the spare pool; what happens is
     * measured.
     */
    public int replicaFailuresExpected(long detectorTimeoutMillis) {
        int n = (int) entries.stream().filter(e -> e.spec().kind().failsAReplica(e.spec(), detectorTimeoutMillis))
                .count();
        return entries.stream().anyMatch(e -> e.at().periodic()) ? Math.max(n, 1) : n;
    }

    /** Checks block positions against the run's {@code blocks}; a clear error for one past the end. */
    public void checkBlocks(int blocks) {
        for (Entry e : entries) {
            if (e.at().block() > blocks) {
                throw new IllegalArgumentException("the fault schedule has a fault at " + e.at() + " but the run has "
                        + blocks + " block" + (blocks == 1 ? "" : "s") + " (configurations x replicates)");
            }
        }
    }

    /** Entries in the order they fall due: block positions in order, then times (one clock cannot order both). */
    List<Entry> inOrder() {
        List<Entry> sorted = new ArrayList<>(entries);
        sorted.sort(Comparator.comparing((Entry e) -> !e.at().inBlock()).thenComparingInt(e -> e.at().block())
                .thenComparingDouble(e -> e.at().fraction()).thenComparingLong(e -> e.at().afterMillis()));
        return sorted;
    }

    /** The schedule in its file format, with a header saying where it came from. */
    public String format() {
        StringBuilder s = new StringBuilder("# ftlab fault schedule (" + origin + ")\n")
                .append("# at         kind       target           duration  amount\n");
        entries.forEach(e -> s.append(e.format()).append('\n'));
        return s.toString();
    }

    // ---- making schedules ---------------------------------------------------------------------------------------

    private static final Pattern BLOCK = Pattern.compile("c(\\d+)(?:@(\\d+(?:\\.\\d+)?)%)?");
    private static final Pattern TIME = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s)");

    /** Parses a schedule file's text; errors name the line and what is wrong with it. */
    public static FaultSchedule parse(String text, String origin) {
        List<Entry> entries = new ArrayList<>();
        String[] lines = text.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].replaceFirst("#.*", "").strip();
            if (line.isEmpty()) {
                continue;
            }
            try {
                entries.add(parseLine(line));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(origin + " line " + (i + 1) + ": " + e.getMessage());
            }
        }
        if (entries.isEmpty()) {
            throw new IllegalArgumentException(origin + " has no faults (one per line: at kind target duration "
                    + "[amount])");
        }
        return new FaultSchedule(entries, origin);
    }

    private static Entry parseLine(String line) {
        List<String> f = new ArrayList<>(List.of(line.split("\\s+")));
        At at;
        if (f.get(0).equalsIgnoreCase("every")) {
            if (f.size() < 2) {
                throw new IllegalArgumentException("'every' needs a period, such as every 30s");
            }
            at = At.every(millis(f.get(1), "period"));
            f.remove(0);
        } else {
            Matcher b = BLOCK.matcher(f.get(0));
            if (b.matches()) {
                at = At.inBlock(Integer.parseInt(b.group(1)), b.group(2) == null ? 0.5
                        : Double.parseDouble(b.group(2)) / 100);
                if (at.block() < 1) {
                    throw new IllegalArgumentException("blocks count from c1");
                }
            } else {
                at = At.after(millis(f.get(0), "time"));
            }
        }
        if (f.size() < 3) {
            throw new IllegalArgumentException("expected: at kind target [duration] [amount], was '" + line + "'");
        }
        FaultKind kind = FaultKind.parse(f.get(1));
        FaultTarget target = FaultTarget.parse(f.get(2));
        long duration = 0;
        double amount = 0;
        if (f.size() > 3 && !f.get(3).equals("-")) {
            duration = millis(f.get(3), "duration");
        }
        if (f.size() > 4) {
            try {
                amount = Double.parseDouble(f.get(4).replace("%", ""));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("amount '" + f.get(4) + "' is not a number");
            }
        }
        if (f.size() > 5) {
            throw new IllegalArgumentException("too many fields: '" + line + "'");
        }
        if (kind.lasts() && duration == 0) {
            throw new IllegalArgumentException(kind.wireName() + " needs a duration, such as 2s");
        }
        return new Entry(at, new FaultSpec(kind, target, duration, amount));
    }

    private static long millis(String s, String what) {
        Matcher m = TIME.matcher(s);
        if (!m.matches()) {
            throw new IllegalArgumentException(what + " '" + s + "' must be a number with s or ms, such as 2s");
        }
        double v = Double.parseDouble(m.group(1));
        return Math.round(m.group(2).equals("s") ? v * 1000 : v);
    }

    /**
     * The shorthand {@code --faults crash|hang|db-crash|db-hang}: the primary (the database for db-), {@code perConfig} times in each of {@code blocks} blocks
     * (spread evenly over its invocations), or every {@code everySeconds}.
     */
    /** The kinds {@code --faults} names: the replica's and the database's process failures. */
    static final List<String> SHORTHAND_KINDS = List.of("crash", "hang", "db-crash", "db-hang");

    public static FaultSchedule shorthand(String kind, double everySeconds, int perConfig, int blocks) {
        String k = kind.toLowerCase(Locale.ROOT);
        if (k.equals("none")) {
            if (everySeconds > 0 || perConfig > 0) {
                throw new IllegalArgumentException("--fault-every and --faults-per-config need --faults "
                        + String.join("|", SHORTHAND_KINDS));
            }
            return NONE;
        }
        if (!SHORTHAND_KINDS.contains(k)) {
            throw new IllegalArgumentException("--faults must be none, " + String.join(", ", SHORTHAND_KINDS)
                    + ", was '" + kind + "' (other kinds: --faults-file or --fault-seed)");
        }
        if ((everySeconds > 0) == (perConfig > 0)) {
            throw new IllegalArgumentException("--faults " + k + " needs exactly one of --fault-every SECONDS or "
                    + "--faults-per-config N");
        }
        if (everySeconds < 0 || perConfig < 0) {
            throw new IllegalArgumentException("fault interval and count must not be negative");
        }
        FaultKind shorthand = FaultKind.parse(k);
        FaultSpec spec = new FaultSpec(shorthand, FaultTarget.of(shorthand.targets().contains(
                FaultTarget.Node.PRIMARY) ? FaultTarget.Node.PRIMARY : FaultTarget.Node.DB),
                shorthand.lasts() ? SHORTHAND_HANG_MILLIS : 0, 0);
        String origin = "--faults " + k + (perConfig > 0 ? " --faults-per-config " + perConfig
                : " --fault-every " + everySeconds);
        if (everySeconds > 0) {
            return new FaultSchedule(List.of(new Entry(At.every(Math.round(everySeconds * 1000)), spec)), origin);
        }
        List<Entry> entries = new ArrayList<>();
        for (int b = 1; b <= blocks; b++) {
            for (int i = 1; i <= perConfig; i++) {
                entries.add(new Entry(At.inBlock(b, (double) i / (perConfig + 1)), spec));
            }
        }
        return new FaultSchedule(entries, origin);
    }

    /** The named mixes a random schedule draws its kinds from: by the layer each kind acts on. */
    public enum Mix {
        /** Every kind that acts on a replica's process: crash, hang, freeze, slow. */
        PROCESS(k -> k.layer() == FaultKind.Layer.PROCESS),
        /** Every kind that acts on the database: db-hang, db-slow. */
        DATABASE(k -> k.layer() == FaultKind.Layer.DATABASE),
        /** Every network kind: link-down, partition, flaky, bandwidth (netns topology). */
        NETWORK(k -> k.needsNetwork() && k.layer() != FaultKind.Layer.MANAGEMENT && !k.gray()),
        /** Every kind that needs no virtual network: process and database. */
        LOCAL(k -> k.layer() == FaultKind.Layer.PROCESS || k.layer() == FaultKind.Layer.DATABASE),
        /** Every stall of known cause: what the attribution of slow requests is proved on. */
        STALLS(k -> k.layer() == FaultKind.Layer.STALL),
        /** Every fault kind, stalls and the management's aside (netns topology). */
        ALL(k -> k.layer() != FaultKind.Layer.STALL && k.layer() != FaultKind.Layer.MANAGEMENT && !k.gray()),
        /**
         * The gray failures: a target that runs on and answers in part (tcp-reset, one-way; netns topology). Not in
         * the mixes above, whose seeds keep drawing what they drew.
         */
        GRAY(FaultKind::gray, false),
        /**
         * The management's failures that need no virtual network: the leading manager's crash and hang, the
         * detector's crash ({@code --managers 3}). Not in the mixes above, whose seeds keep drawing what they drew.
         */
        WATCHMEN(k -> k.layer() == FaultKind.Layer.MANAGEMENT && !k.needsNetwork(), false),
        /**
         * The database's failures a replicated database fails over (db-crash, db-hang; {@code --database semisync}
         * or {@code async}). Not in the mixes above, which a lab with one database server makes, and whose seeds keep
         * drawing what they drew.
         */
        DB_FAILOVER(k -> k.wireName().equals("db-crash") || k.wireName().equals("db-hang"), false);

        private final List<FaultKind> kinds;

        Mix(Predicate<FaultKind> member) {
            this(member, true);
        }

        /** {@code oneServer}: only the kinds a lab with one database server makes. */
        Mix(Predicate<FaultKind> member, boolean oneServer) {
            FaultKind.LabFacts single = new FaultKind.LabFacts(true, true, false, false);
            this.kinds = FaultKind.all().stream().filter(member)
                    .filter(k -> !oneServer || k.whyNot(single, controller -> Optional.empty()).isEmpty()).toList();
        }

        public List<FaultKind> kinds() {
            return kinds;
        }

        public String wireName() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        public static Mix parse(String s) {
            for (Mix m : values()) {
                if (m.wireName().equalsIgnoreCase(s.strip())) {
                    return m;
                }
            }
            throw new IllegalArgumentException("--fault-mix must be one of " + String.join(", ",
                    Arrays.stream(values()).map(Mix::wireName).toList()) + "; was '" + s + "'");
        }
    }

    /**
     * A schedule drawn from {@code seed}: {@code perConfig} faults in each of {@code blocks} blocks, at positions
     * between 10% and 90% of its invocations, kinds uniform over the mix, targets uniform over each kind's targets,
     * durations 0.5 to 4 s, amounts from a few levels. The same arguments give the same schedule.
     */
    public static FaultSchedule random(long seed, Mix mix, int perConfig, int blocks) {
        if (perConfig < 1) {
            throw new IllegalArgumentException("--fault-seed needs --faults-per-config N (1 or more)");
        }
        Random r = new Random(seed);
        List<Entry> entries = new ArrayList<>();
        for (int b = 1; b <= blocks; b++) {
            double[] at = new double[perConfig];
            for (int i = 0; i < perConfig; i++) {
                at[i] = Math.round((0.1 + 0.8 * r.nextDouble()) * 100) / 100.0;
            }
            Arrays.sort(at);
            for (double fraction : at) {
                FaultKind kind = mix.kinds().get(r.nextInt(mix.kinds().size()));
                List<FaultTarget.Node> nodes = List.copyOf(kind.targets());
                FaultTarget target;
                if (kind.takesTwoSides()) {
                    FaultTarget.Node a = nodes.get(r.nextInt(nodes.size()));
                    List<FaultTarget.Node> others = nodes.stream().filter(n -> n != a).toList();
                    target = FaultTarget.between(a, others.get(r.nextInt(others.size())));
                } else {
                    target = FaultTarget.of(nodes.get(r.nextInt(nodes.size())));
                }
                long duration = kind.lasts() ? 500 + 100L * r.nextInt(36) : 0;
                List<Double> levels = kind.amountLevels();
                double amount = levels.isEmpty() ? 0 : levels.get(r.nextInt(levels.size()));
                entries.add(new Entry(At.inBlock(b, fraction), new FaultSpec(kind, target, duration, amount)));
            }
        }
        return new FaultSchedule(entries, "--fault-seed " + seed + " --fault-mix " + mix.wireName()
                + " --faults-per-config " + perConfig);
    }

    private static String duration(long millis) {
        return millis % 1000 == 0 ? millis / 1000 + "s" : millis + "ms";
    }

    /** A number with at most two decimals and no trailing zeros ({@code 55}, {@code 12.5}). */
    private static String percent(double v) {
        return BigDecimal.valueOf(v).setScale(2, RoundingMode.HALF_UP).stripTrailingZeros()
                .toPlainString();
    }
}
