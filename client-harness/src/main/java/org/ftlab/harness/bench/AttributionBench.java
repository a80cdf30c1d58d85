package org.ftlab.harness.bench;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import org.ftlab.auction.api.MicroClock;
import org.ftlab.auction.api.ReplySize;
import org.ftlab.harness.analysis.RunAnalysis;
import org.ftlab.harness.attribution.Attribution;
import org.ftlab.harness.attribution.InjectedStalls;
import org.ftlab.harness.attribution.Stall;
import org.ftlab.harness.grid.FaultSchedule;
import org.ftlab.harness.grid.GridPlan;
import org.ftlab.harness.grid.GridRunner;
import org.ftlab.harness.grid.RunDirectory;
import org.ftlab.harness.grid.SegmentEvents;
import org.ftlab.harness.lab.Home;
import org.ftlab.harness.lab.LabFile;
import org.ftlab.harness.lab.ManagedLab;
import org.ftlab.harness.probe.FaultRecord;
import org.ftlab.harness.probe.FaultsCsv;
import org.ftlab.harness.probe.RunSettings;
import org.ftlab.rm.api.FaultKind;
import org.ftlab.rm.api.Observe;
import org.ftlab.rm.api.ObserveSwitch;

/**
 * Is the attribution right? Stalls of known cause, at known times and places, injected many times under load, and
 * the run's own analysis compared with them (docs/performance.md, "Attribution"). One grid run of posts with
 * {@value #CLIENTS} clients and no think time, in blocks; each block gets one stall of each kind:
 * a full collection forced in the primary ({@code gc}), {@value #HOG_PROCESSES} CPU-burning processes beside it for
 * {@value #HOG_MILLIS} ms ({@code cpu-hog}: as many as the lab's threads that want a CPU under this load, so that
 * they take a third to a half of the CPUs; two took a tenth to a fifth, a delay the lab's own threads dwarf), another
 * session holding every account for {@value #LOCK_MILLIS} ms ({@code db-lock}) and another blocking every commit for
 * as long ({@code db-backup}: a backup's {@code BLOCK_COMMIT} stage), a fifth of a block apart.
 *
 * <p>A stall <em>delayed</em> the slow requests (its block's top 1%, as {@code analyze} picks them) whose time in
 * flight overlapped it (from when it began being made to when it was undone). Per kind: <b>recall</b>, the share of
 * stalls that delayed a slow request whose delayed requests were mostly (at least half) attributed to the expected
 * cause ({@code gc-pause(<the primary>)}, {@code cpu-outside(host)}: every host of one machine shares its CPUs,
 * {@code db-lock-wait(db)}, {@code db-mdl-wait(db)}); <b>precision</b>, the share of the run's attributions to that cause that overlap a stall
 * of that kind injected there. A stall that delayed no slow request is counted apart, not as found or missed.
 */
public final class AttributionBench {
    static final int CLIENTS = 4;
    static final int HOG_MILLIS = 500;
    static final int HOG_PROCESSES = 6;
    static final int LOCK_MILLIS = 300;
    /** The stalls injected, in the order they come in a block: each a schedule line without its block. */
    private static final List<String> STALLS = List.of(
            "@20%      gc         primary",
            "@40%      cpu-hog    primary   " + HOG_MILLIS + "ms   " + HOG_PROCESSES,
            "@60%      db-lock    db        " + LOCK_MILLIS + "ms",
            "@80%      db-backup  db        " + LOCK_MILLIS + "ms");

    /** One kind's figures. */
    public record KindResult(String kind, String expectedCause, int injected, int delayedNone, int found,
            double recall, int attributions, int right, double precision, int natural, List<String> missed) {
        /** Precision counting as right the attributions to a collection the JVM ran on its own (a true cause). */
        public double precisionWithNatural() {
            return attributions == 0 ? Double.NaN : (right + natural) / (double) attributions;
        }
    }

    /**
     * One block of the observation-cost run: whether the lab observed it (events recorded in every JVM, scheduler
     * counters read per request, the database's lock waits sampled) and its latency, µs.
     */
    public record CostBlock(int replicate, boolean observed, int requests, double meanUs, long p99Us) {
    }

    /**
     * What observing costs: {@code pairs} pairs of blocks of one run, one block of each pair observed and the other
     * not, in the order on-off, off-on, on-off, … (so a drift through the run falls on both alike). Each pair's
     * blocks are neighbours in time: {@code meanRatio} and {@code p99Ratio} are the medians over the pairs of observed
     * ÷ not, with the range of the mean's; beside them the medians over the blocks of each kind, and the unobserved
     * blocks' p99 range (the replicate spread).
     */
    public record ObservationCost(List<CostBlock> blocks, double meanObservedUs, double meanUnobservedUs,
            double meanRatio, double pairMeanRatioMin, double pairMeanRatioMax, double p99ObservedUs,
            double p99UnobservedUs, double p99Ratio, long p99UnobservedMinUs, long p99UnobservedMaxUs) {
        /** Target: the mean at most 3% more with observation. */
        public boolean meanWithinTarget() {
            return meanRatio <= 1.03;
        }

        /** Target: the observed blocks' median p99 within the unobserved blocks' range. */
        public boolean p99WithinSpread() {
            return p99ObservedUs >= p99UnobservedMinUs && p99ObservedUs <= p99UnobservedMaxUs;
        }

        static ObservationCost of(List<CostBlock> blocks) {
            List<CostBlock> on = blocks.stream().filter(CostBlock::observed).toList();
            List<CostBlock> off = blocks.stream().filter(b -> !b.observed()).toList();
            if (on.isEmpty() || off.isEmpty()) {
                throw new IllegalArgumentException("an observation cost needs observed and unobserved blocks");
            }
            List<CostBlock> ordered = blocks.stream().sorted(Comparator.comparingInt(CostBlock::replicate)).toList();
            List<Double> meanRatios = new ArrayList<>();
            List<Double> p99Ratios = new ArrayList<>();
            for (int i = 0; i + 1 < ordered.size(); i += 2) {
                CostBlock a = ordered.get(i);
                CostBlock b = ordered.get(i + 1);
                if (a.observed() == b.observed()) {
                    continue;
                }
                CostBlock yes = a.observed() ? a : b;
                CostBlock no = a.observed() ? b : a;
                meanRatios.add(yes.meanUs() / no.meanUs());
                p99Ratios.add(yes.p99Us() / (double) no.p99Us());
            }
            if (meanRatios.isEmpty()) {
                throw new IllegalArgumentException("an observation cost needs a pair of neighbouring blocks, one "
                        + "observed and one not");
            }
            return new ObservationCost(blocks, median(on.stream().mapToDouble(CostBlock::meanUs).toArray()),
                    median(off.stream().mapToDouble(CostBlock::meanUs).toArray()),
                    median(meanRatios.stream().mapToDouble(Double::doubleValue).toArray()),
                    meanRatios.stream().mapToDouble(Double::doubleValue).min().orElseThrow(),
                    meanRatios.stream().mapToDouble(Double::doubleValue).max().orElseThrow(),
                    median(on.stream().mapToDouble(CostBlock::p99Us).toArray()),
                    median(off.stream().mapToDouble(CostBlock::p99Us).toArray()),
                    median(p99Ratios.stream().mapToDouble(Double::doubleValue).toArray()),
                    off.stream().mapToLong(CostBlock::p99Us).min().orElseThrow(),
                    off.stream().mapToLong(CostBlock::p99Us).max().orElseThrow());
        }

        private static double median(double[] v) {
            double[] s = v.clone();
            Arrays.sort(s);
            int n = s.length;
            return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
        }
    }

    /** Whether replicate {@code k} (1-based) of the cost run is observed: on-off, off-on, on-off, … */
    static boolean observedIn(int k) {
        int pair = (k - 1) / 2;
        boolean first = (k - 1) % 2 == 0;
        return (pair % 2 == 0) == first;
    }

    private final ManagedLab lab;
    private final Path benchDir;
    private final PrintWriter out;

    public AttributionBench(ManagedLab lab, Path benchDir, PrintWriter out) {
        this.lab = lab;
        this.benchDir = benchDir;
        this.out = out;
    }

    /** The schedule: {@code blocks} blocks with one stall of each kind. */
    static FaultSchedule schedule(int blocks) {
        StringBuilder text = new StringBuilder();
        for (int b = 1; b <= blocks; b++) {
            for (String line : STALLS) {
                text.append('c').append(b).append(line).append('\n');
            }
        }
        return FaultSchedule.parse(text.toString(), "the attribution bench's schedule");
    }

    /**
     * Runs {@code stallsPerKind} blocks of {@code postsPerClient} posts per client (each with one stall of each kind)
     * on the lab, analyses the run and returns its figures per kind.
     */
    public List<KindResult> run(int stallsPerKind, int postsPerClient) throws Exception {
        GridPlan plan = new GridPlan("custom", List.of(CLIENTS), List.of(0), List.of(ReplySize.ORIGINAL),
                postsPerClient, 0, new GridPlan.Design(GridPlan.DEFAULT_WARMUP_PER_CLIENT, stallsPerKind,
                        GridPlan.Order.SEQUENTIAL, 0L, GridPlan.Arrival.CLOSED, List.of(), 300));
        Path dir = fresh(benchDir.resolve("attribution"));
        LabFile shape = lab.description();
        RunDirectory rd = RunDirectory.create(dir, plan, "preconnected", schedule(stallsPerKind), shape.replicas(),
                shape.spares(), shape.database(), Home.path(), RunSettings.of(shape));
        out.printf(Locale.ROOT, "attribution: %d blocks of %d posts per client (%d clients, no think time), each with "
                + "a gc of the primary, a %d-ms cpu-hog beside it, a %d-ms db-lock and a %d-ms db-backup%n",
                stallsPerKind, postsPerClient, CLIENTS, HOG_MILLIS, LOCK_MILLIS, LOCK_MILLIS);
        out.flush();
        boolean complete;
        try (SegmentEvents events = SegmentEvents.start(Observe.ON)) {
            long since = MicroClock.nowEpochMicros();
            try {
                complete = GridRunner.runToEnd(lab, rd, out);
            } finally {
                events.keep(rd, lab, since, out);
            }
        }
        if (!complete) {
            throw new IllegalStateException("the attribution run " + dir + " did not complete");
        }
        RunAnalysis.Result r = RunAnalysis.analyze(dir);
        RunAnalysis.write(dir, r);
        Attribution.Result a = r.attribution();
        if (!a.recorded() || a.problems().stream().anyMatch(p -> p.contains("rm"))) {
            throw new IllegalStateException("the attribution run recorded no events of the lab (" + a.problems()
                    + "): start the lab with --observe on");
        }
        return score(a.outliers(), FaultsCsv.readAll(dir));
    }

    /**
     * Measures what observing costs: {@code pairs} pairs of fault-free blocks of {@code requestsPerClient} requests
     * per client (half posts, half views; {@value #CLIENTS} clients, no think time) in one run, alternating with and
     * without observation ({@link #observedIn}); the lab observes again when it ends, whatever happens.
     */
    public ObservationCost cost(int pairs, int requestsPerClient) throws Exception {
        // the lab warm-up is a whole block's worth: a replica's request paths are not compiled after a few hundred
        // requests, and a first pair slower on one side would read as a cost (or a saving)
        GridPlan plan = new GridPlan("custom", List.of(CLIENTS), List.of(0), List.of(ReplySize.ORIGINAL),
                requestsPerClient / 2, requestsPerClient - requestsPerClient / 2, new GridPlan.Design(
                        GridPlan.DEFAULT_WARMUP_PER_CLIENT, 2 * pairs, GridPlan.Order.SEQUENTIAL, 0L,
                        GridPlan.Arrival.CLOSED, List.of(), requestsPerClient));
        Path dir = fresh(benchDir.resolve("observation-cost"));
        LabFile shape = lab.description();
        RunDirectory rd = RunDirectory.create(dir, plan, "preconnected", FaultSchedule.NONE, shape.replicas(),
                shape.spares(), shape.database(), Home.path(), RunSettings.of(shape));
        out.printf(Locale.ROOT, "observation cost: %d pairs of blocks of %d requests per client (%d clients, no think "
                + "time), one block of each pair observed%n", pairs, requestsPerClient, CLIENTS);
        out.flush();
        SegmentEvents[] own = {null};
        boolean complete;
        try {
            complete = GridRunner.runToEnd(lab, rd, out, (block, clients) -> {
                boolean on = observedIn(block.replicate());
                ObserveSwitch.Result switched = lab.manager().observe(on);
                if (!switched.failed().isEmpty()) {
                    throw new IllegalStateException("could not switch observation " + (on ? "on" : "off") + ": "
                            + String.join("; ", switched.failures()));
                }
                if (on && own[0] == null) {
                    own[0] = SegmentEvents.start(Observe.ON); // this JVM's recording and its samples of itself
                } else if (!on && own[0] != null) {
                    own[0].close();
                    own[0] = null;
                }
                clients.forEach(c -> c.observed(on));
                out.printf(Locale.ROOT, "%s: observation %s%n", block.id(), on ? "on" : "off");
            });
        } finally {
            if (own[0] != null) {
                own[0].close();
            }
            lab.manager().observe(true);
        }
        if (!complete) {
            throw new IllegalStateException("the observation-cost run " + dir + " did not complete");
        }
        RunAnalysis.Result r = RunAnalysis.analyze(dir);
        RunAnalysis.write(dir, r);
        List<CostBlock> blocks = new ArrayList<>();
        for (RunAnalysis.Entry e : r.entries()) {
            if (e.method().equals("all") && e.stats() != null) {
                blocks.add(new CostBlock(e.replicate(), observedIn(e.replicate()), e.stats().count(),
                        e.stats().mean(), e.stats().p99()));
            }
        }
        return ObservationCost.of(blocks);
    }

    /** {@code dir}, which must not exist yet: a bench measures a run of its own, never resumes an earlier one. */
    private static Path fresh(Path dir) {
        if (Files.exists(dir)) {
            throw new IllegalArgumentException(dir + " exists already (an earlier bench's run): give --out a new "
                    + "directory");
        }
        return dir;
    }

    /** The figures per kind, from the run's slow requests and its injected faults. */
    static List<KindResult> score(List<Attribution.Outlier> outliers, List<FaultRecord> faults) {
        List<InjectedStalls.Verdict> verdicts = InjectedStalls.judge(outliers, faults);
        List<KindResult> results = new ArrayList<>();
        for (FaultKind kind : schedule(1).kinds()) {
            List<InjectedStalls.Verdict> injected = verdicts.stream().filter(v -> v.fault().kind() == kind).toList();
            int none = (int) injected.stream().filter(v -> v.delayed() == 0).count();
            int found = (int) injected.stream().filter(InjectedStalls.Verdict::found).count();
            List<String> missed = injected.stream().filter(v -> v.delayed() > 0 && !v.found())
                    .map(v -> v.fault().id() + ": " + v.named() + " of " + v.delayed() + " delayed requests named "
                            + v.causes().keySet())
                    .toList();
            Predicate<String> ofKind = InjectedStalls.ofKind(kind);
            List<Attribution.Outlier> attributed = outliers.stream().filter(o -> ofKind.test(o.cause())).toList();
            int right = 0;
            int natural = 0;
            for (Attribution.Outlier o : attributed) {
                boolean matched = injected.stream().anyMatch(v -> InjectedStalls.overlaps(o, v.fault())
                        && InjectedStalls.expected(kind, v.fault().replica()).test(o.cause()));
                if (matched) {
                    right++;
                } else if (o.cause().startsWith(Stall.Cause.GC_PAUSE.wireName() + "(") && o.evidence().stream()
                        .noneMatch(e -> e.detail().contains("Diagnostic Command"))) {
                    natural++; // a collection the JVM ran on its own: a true cause nobody injected
                }
            }
            int delayedSome = injected.size() - none;
            results.add(new KindResult(kind.wireName(), InjectedStalls.describe(kind, "<primary>"), injected.size(),
                    none, found, delayedSome == 0 ? Double.NaN : found / (double) delayedSome, attributed.size(),
                    right, attributed.isEmpty() ? Double.NaN : right / (double) attributed.size(), natural, missed));
        }
        return results;
    }
}
