package org.ftlab.harness.workload.bids.tart;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.ftlab.auction.api.ReplySize;
import org.ftlab.auction.api.StatefulTierSettings;
import org.ftlab.auction.api.TierStatus;
import org.ftlab.harness.analysis.FailoverAnalysis;
import org.ftlab.harness.analysis.RunAnalysis;
import org.ftlab.harness.bench.ServiceBench;
import org.ftlab.harness.grid.FaultSchedule;
import org.ftlab.harness.grid.GridPlan;
import org.ftlab.harness.grid.GridRunner;
import org.ftlab.harness.grid.RunDirectory;
import org.ftlab.harness.lab.Home;
import org.ftlab.harness.lab.ManagedLab;
import org.ftlab.harness.probe.DatabaseWorkRecord;
import org.ftlab.harness.probe.Manifest;
import org.ftlab.harness.probe.RunSettings;
import org.ftlab.harness.probe.StatefulTierRecord;
import org.ftlab.harness.workload.bids.BidsParameters;
import org.ftlab.harness.workload.bids.BidsWorkload;
import org.ftlab.rm.api.TierRecovery;

/**
 * Seed 003's study (Strom et al., the TART runtime), ours: what determinism costs the stateful tier, and what its
 * recovery costs a fail-over. Every run is a grid run of the bids workload on the stateful tier, with its checker and
 * replay oracle, kept under the bench's directory.
 *
 * <p><b>Overhead of determinism.</b> After one run not measured (the lab's JVMs compile the tier's code), each round
 * runs every arm once at each work variability ({@code --work-spread}),
 * the arms adjacent and their order rotated from round to round (so no arm always runs first, on a machine that drifts):
 * determinism off (arrival order, the baseline), and determinism on with the regression estimator and curiosity
 * silence (the default), with the constant estimator, and with lazy silence; and the same bids on the stateless tier
 * (the work spread is the stateful gateways' and changes nothing there). A run has two blocks of the same clients:
 * think 0 (closed loop at saturation: its request rate is the saturation throughput) and think
 * {@value #LOADED_THINK_MS} ms (a loaded but unsaturated service: its mean and p99 are the latency the paper's
 * overhead is of). Each block warms up first ({@code --warmup}); coordinated omission: closed loop, so the latencies
 * are those of requests sent, as the paper's are. An arm's overhead is, round by round, its mean ÷ the off arm's mean of
 * the same round and spread, − 1; its throughput ratio its rate ÷ the off arm's; the medians over rounds are reported
 * with their ranges.
 *
 * <p><b>Fail-over against the checkpoint interval.</b> Runs of two crashes of the primary each, one per checkpoint
 * interval, and one on the stateless tier with the same bids and schedule, in an order rotated by round: the faulty
 * invocation (median total and detection), and each recovery's restore, replay length and replay time.
 */
public final class TartBench {
    /** Think time of the loaded (unsaturated) block, ms. */
    public static final int LOADED_THINK_MS = 20;

    /** A way of running the tier: determinism, estimator and silence. */
    public record Arm(String name, String determinism, String estimator, String silence) {
    }

    /**
     * The arms, determinism off (the baseline) first; the last, {@code stateless}, is the same bids on the stateless
     * tier (transactions on the database), the design seed 003 conjectures the stateful tier beats.
     */
    public static final List<Arm> ARMS = List.of(new Arm("off", "off", "regression", "curiosity"),
            new Arm("regression", "on", "regression", "curiosity"), new Arm("constant", "on", "constant",
                    "curiosity"), new Arm("lazy", "on", "regression", "lazy"), new Arm("stateless", null, null, null));

    /**
     * One fault-free run of one arm: the saturated block's request rate and mean, the loaded block's mean and p99 (µs),
     * the tier's per-message figures (0 with determinism off) and the database's statements per request.
     */
    public record ArmRun(String arm, int workSpread, int round, double saturatedRatePerS, double saturatedMeanUs,
            double loadedMeanUs, long loadedP99Us, double pessimismUsPerMessage, double outOfOrderPercent,
            double probesPerMessage, double statementsPerRequest, String oracle, String dir) {
    }

    /** An arm at one work spread over the rounds: medians with ranges, and its ratios to determinism off. */
    public record ArmSummary(String arm, int workSpread, ServiceBench.Spread loadedMeanMs,
            ServiceBench.Spread loadedP99Ms, ServiceBench.Spread saturatedRatePerS,
            ServiceBench.Spread latencyOverheadPercent, ServiceBench.Spread p99OverheadPercent,
            ServiceBench.Spread throughputRatio, ServiceBench.Spread pessimismUsPerMessage,
            ServiceBench.Spread outOfOrderPercent, ServiceBench.Spread probesPerMessage,
            ServiceBench.Spread statementsPerRequest) {
    }

    /**
     * One crash run: the tier ({@code stateless}, or the checkpoint interval's), its faulty invocations' median total
     * and detection (ms), and each recovery (ms; null on the stateless tier).
     */
    public record CrashRun(String tier, Integer checkpointEvery, int round, int faultyInvocations, Double faultyMedianMs,
            Double detectionMedianMs, List<Double> recoveryMs, List<Integer> replayInputs, List<Double> replayMs,
            List<Double> restoreMs, Long checkpointBytes, double statementsPerRequest, String oracle, String dir) {
    }

    private final ManagedLab lab;
    private final Path benchDir;
    private final PrintWriter out;

    public TartBench(ManagedLab lab, Path benchDir, PrintWriter out) {
        this.lab = lab;
        this.benchDir = benchDir;
        this.out = out;
    }

    /** The overhead study: {@code rounds} rounds of every arm at every spread, {@code bids} per client per block. */
    public List<ArmRun> overhead(int rounds, List<Integer> spreads, int clients, int bids, int warmup)
            throws Exception {
        // one run first, not measured: the lab's JVMs compile the tier's code before any arm is timed
        out.println("tart: a warm-up run (not measured)");
        armRun(ARMS.get(1), spreads.get(0), 0, clients, Math.max(50, bids / 5), warmup);
        List<ArmRun> runs = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            for (int spread : spreads) {
                for (int i = 0; i < ARMS.size(); i++) {
                    Arm arm = ARMS.get((i + round - 1) % ARMS.size());
                    runs.add(armRun(arm, spread, round, clients, bids, warmup));
                }
            }
        }
        return runs;
    }

    private ArmRun armRun(Arm arm, int spread, int round, int clients, int bids, int warmup) throws Exception {
        GridPlan plan = new GridPlan("custom", List.of(clients), List.of(0, LOADED_THINK_MS),
                List.of(ReplySize.ORIGINAL), bids, 0, new GridPlan.Design(warmup, 1, GridPlan.Order.SEQUENTIAL, 0L,
                        GridPlan.Arrival.CLOSED, List.of(), 0));
        BidsParameters.StatefulTier tier = arm.determinism() == null ? null
                : new BidsParameters.StatefulTier(arm.determinism(),
                arm.silence(), arm.estimator(), StatefulTierSettings.DEFAULTS.checkpointEvery(),
                StatefulTierSettings.DEFAULTS.gateways(), spread);
        Path dir = fresh(String.format(Locale.ROOT, "tart-%s-spread%d-r%d", arm.name(), spread, round));
        out.printf(Locale.ROOT, "tart: round %d, work spread %d, %s (%d clients x %d bids, think 0 and %d ms)%n",
                round, spread, arm.name(), clients, bids, LOADED_THINK_MS);
        out.flush();
        RunAnalysis.Result r = run(dir, plan, tier, FaultSchedule.NONE);
        RunAnalysis.Entry saturated = entry(r, 0);
        RunAnalysis.Entry loaded = entry(r, LOADED_THINK_MS);
        StatefulTierRecord rec = StatefulTierRecord.readFrom(dir);
        TierStatus s = rec == null ? null : rec.status();
        double messages = s == null ? 1 : Math.max(1, s.messages());
        DatabaseWorkRecord db = DatabaseWorkRecord.readFrom(dir);
        return new ArmRun(arm.name(), spread, round, saturated.requestRatePerS(), saturated.stats().mean(),
                loaded.stats().mean(), loaded.stats().p99(), s == null ? 0 : s.pessimismDelayMicros() / messages,
                s == null ? 0 : 100 * s.outOfOrder() / messages, s == null ? 0 : s.curiosityProbes() / messages,
                db == null ? 0 : db.statementsPerRequest(), oracle(dir), dir.toString());
    }

    /** The overhead runs summarized by arm and spread; ratios are to the off arm of the same round and spread. */
    public static List<ArmSummary> summarize(List<ArmRun> runs) {
        Map<String, List<ArmRun>> byArm = new LinkedHashMap<>();
        for (ArmRun a : runs) {
            byArm.computeIfAbsent(a.arm() + "/" + a.workSpread(), k -> new ArrayList<>()).add(a);
        }
        List<ArmSummary> out = new ArrayList<>();
        for (int spread : runs.stream().map(ArmRun::workSpread).distinct().sorted().toList()) {
            for (Arm arm : ARMS) {
                List<ArmRun> mine = byArm.getOrDefault(arm.name() + "/" + spread, List.of());
                if (mine.isEmpty()) {
                    continue;
                }
                List<Double> overhead = new ArrayList<>();
                List<Double> p99Overhead = new ArrayList<>();
                List<Double> throughput = new ArrayList<>();
                for (ArmRun a : mine) {
                    runs.stream().filter(o -> o.arm().equals("off") && o.workSpread() == spread
                            && o.round() == a.round()).findFirst().ifPresent(off -> {
                                overhead.add(100 * (a.loadedMeanUs() / off.loadedMeanUs() - 1));
                                p99Overhead.add(100 * ((double) a.loadedP99Us() / off.loadedP99Us() - 1));
                                throughput.add(a.saturatedRatePerS() / off.saturatedRatePerS());
                            });
                }
                out.add(new ArmSummary(arm.name(), spread, spread(mine.stream().mapToDouble(a -> a.loadedMeanUs()
                        / 1000).toArray()), spread(mine.stream().mapToDouble(a -> a.loadedP99Us() / 1000.0).toArray()),
                        spread(mine.stream().mapToDouble(ArmRun::saturatedRatePerS).toArray()),
                        spread(overhead.stream().mapToDouble(Double::doubleValue).toArray()),
                        spread(p99Overhead.stream().mapToDouble(Double::doubleValue).toArray()),
                        spread(throughput.stream().mapToDouble(Double::doubleValue).toArray()),
                        spread(mine.stream().mapToDouble(ArmRun::pessimismUsPerMessage).toArray()),
                        spread(mine.stream().mapToDouble(ArmRun::outOfOrderPercent).toArray()),
                        spread(mine.stream().mapToDouble(ArmRun::probesPerMessage).toArray()),
                        spread(mine.stream().mapToDouble(ArmRun::statementsPerRequest).toArray())));
            }
        }
        return out;
    }

    /**
     * Fail-over against the checkpoint interval: {@code rounds} rounds of a two-crash run per interval and one on the
     * stateless tier, in an order rotated by round.
     */
    public List<CrashRun> crashes(int rounds, List<Integer> intervals, int clients, int bids) throws Exception {
        List<Integer> tiers = new ArrayList<>();
        tiers.add(null); // the stateless tier
        tiers.addAll(intervals);
        List<CrashRun> runs = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            for (int i = 0; i < tiers.size(); i++) {
                runs.add(crashRun(tiers.get((i + round - 1) % tiers.size()), round, clients, bids));
            }
        }
        return runs;
    }

    private CrashRun crashRun(Integer every, int round, int clients, int bids) throws Exception {
        GridPlan plan = new GridPlan("custom", List.of(clients), List.of(0), List.of(ReplySize.ORIGINAL), bids, 0,
                GridPlan.Design.PLAIN);
        BidsParameters.StatefulTier tier = every == null ? null : new BidsParameters.StatefulTier("on",
                StatefulTierSettings.DEFAULTS.silence(), StatefulTierSettings.DEFAULTS.estimator(), every,
                StatefulTierSettings.DEFAULTS.gateways(), StatefulTierSettings.DEFAULTS.workSpread());
        String name = every == null ? "stateless" : "every" + every;
        Path dir = fresh(String.format(Locale.ROOT, "tart-crash-%s-r%d", name, round));
        out.printf(Locale.ROOT, "tart: round %d, two crashes on the %s tier (%d clients x %d bids)%n", round,
                every == null ? "stateless" : "stateful (checkpoint every " + every + " inputs)", clients, bids);
        out.flush();
        RunAnalysis.Result r = run(dir, plan, tier, FaultSchedule.shorthand("crash", 0, 2, 1));
        FailoverAnalysis.Result f = r.failover();
        List<Double> recovery = new ArrayList<>();
        List<Integer> inputs = new ArrayList<>();
        List<Double> replay = new ArrayList<>();
        List<Double> restore = new ArrayList<>();
        Long bytes = null;
        StatefulTierRecord rec = StatefulTierRecord.readFrom(dir);
        if (rec != null) {
            for (StatefulTierRecord.Recovery x : rec.recoveries()) {
                TierRecovery t = x.recovery();
                if (t != null && t.error() == null) {
                    recovery.add((t.recoveredEpochUs() - t.startedEpochUs()) / 1000.0);
                    inputs.add(t.replayInputs());
                    replay.add(t.replayMicros() / 1000.0);
                    restore.add(t.restoreMicros() / 1000.0);
                }
            }
            bytes = rec.status().lastCheckpointBytes();
        }
        DatabaseWorkRecord db = DatabaseWorkRecord.readFrom(dir);
        FailoverAnalysis.PhaseStats total = phase(f, "total");
        FailoverAnalysis.PhaseStats detection = phase(f, "detection");
        return new CrashRun(every == null ? "stateless" : "stateful", every, round,
                f == null || f.faulty() == null ? 0 : (int) f.faulty().count(),
                total == null ? null : total.medianUs() / 1000.0,
                detection == null ? null : detection.medianUs() / 1000.0, recovery, inputs, replay, restore, bytes,
                db == null ? 0 : db.statementsPerRequest(), oracle(dir), dir.toString());
    }

    private RunAnalysis.Result run(Path dir, GridPlan plan, BidsParameters.StatefulTier tier, FaultSchedule faults)
            throws Exception {
        BidsParameters params = new BidsParameters(BidsWorkload.DEFAULT_HOT_AUCTIONS,
                tier == null ? "stateless" : "stateful", tier);
        RunDirectory rd = RunDirectory.create(dir, plan, BidsWorkload.NAME, params.json(), "preconnected", "ejb",
                faults, lab.description().replicas(), lab.description().spares(), lab.description().database(),
                Home.path(), RunSettings.DEFAULTS);
        if (!GridRunner.runToEnd(lab, rd, out)) {
            throw new IllegalStateException("the run " + dir + " did not complete");
        }
        RunAnalysis.Result r = RunAnalysis.analyze(dir);
        RunAnalysis.write(dir, r);
        return r;
    }

    private Path fresh(String name) {
        Path dir = benchDir.resolve(name);
        for (int n = 2; Files.exists(dir); n++) {
            dir = benchDir.resolve(name + "-" + n);
        }
        return dir;
    }

    private static RunAnalysis.Entry entry(RunAnalysis.Result r, int thinkMillis) {
        return r.entries().stream().filter(e -> e.method().equals("all") && e.thinkMillis() == thinkMillis
                && e.stats() != null).findFirst().orElseThrow(() -> new IllegalStateException("the run has no block "
                        + "of think " + thinkMillis + " ms"));
    }

    private static FailoverAnalysis.PhaseStats phase(FailoverAnalysis.Result f, String name) {
        return f == null ? null : f.phases().stream().filter(p -> p.phase().equals(name)).findFirst().orElse(null);
    }

    private static String oracle(Path dir) throws IOException {
        Manifest.Audit a = Manifest.readAny(dir).audit();
        return a == null || a.oracle() == null ? "" : a.oracle();
    }

    private static ServiceBench.Spread spread(double[] v) {
        return v.length == 0 ? null : ServiceBench.Spread.of(v);
    }
}
