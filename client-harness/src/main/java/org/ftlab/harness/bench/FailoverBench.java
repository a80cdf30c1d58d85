package org.ftlab.harness.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.ftlab.auction.api.AuctionDraft;
import org.ftlab.auction.api.ReplySize;
import org.ftlab.auction.api.RequestHeader;
import org.ftlab.harness.analysis.FailoverAnalysis;
import org.ftlab.harness.analysis.RunAnalysis;
import org.ftlab.harness.grid.FaultSchedule;
import org.ftlab.harness.grid.GridPlan;
import org.ftlab.harness.grid.GridRunner;
import org.ftlab.harness.grid.RunDirectory;
import org.ftlab.harness.lab.DatabaseCounters;
import org.ftlab.harness.lab.Home;
import org.ftlab.harness.lab.ManagedLab;
import org.ftlab.harness.probe.RunSettings;
import org.ftlab.os.access.DatabaseEndpoint;
import org.ftlab.rm.api.ReplicaState;
import org.ftlab.rm.api.ReplicaStatus;

/**
 * Fail-over under load: a grid run of posts with {@code n} clients (think time 0) into which the grid's own fault
 * injector puts about {@code faults} crashes (SIGKILL of the primary) or hangs (SIGSTOP), each after the previous one
 * was repaired and a spare booted; then the run's own analysis: faulty-invocation latency and its three phases,
 * Fault Detector detection time and the time until the replication degree was back. The run directories are kept,
 * with their reports.
 */
public final class FailoverBench {
    /**
     * Seconds between faults: the injector waits this long after a fault, and then until the degree is back and a
     * new spare has booted (at nice 19 beside the running service: about 20 s on 2 cores with one client, longer
     * when more clients keep both cores busy).
     */
    static double secondsBetweenFaults(int clients) {
        return clients == 1 ? 30 : 60;
    }

    /**
     * One fault run's figures (µs unless named otherwise; null where the run had none): the redundancy it cost
     * ({@link FailoverAnalysis.Redundancy}), the database's work per request ({@code SHOW GLOBAL STATUS} deltas), the
     * hand-over ratio per fault, the faulty invocations and their phases, the Fault Detector's detection time and the
     * time until the replication degree was back; per primary fault, when the new primary was back to speed
     * ({@code backToSpeedS}, over the faults whose new primary was; {@code neverBackToSpeed} counts the others) and
     * whether the promoted replica was hot ({@code promotedHot} of {@code promotedRead}, the promotions whose share
     * the manager had read).
     */
    public record FaultRun(String kind, String strategy, int clients, double shadowShare, int faultsInjected,
            FailoverAnalysis.Redundancy redundancy, Map<String, Double> databasePerRequest,
            ServiceBench.Spread handoverRatio, ServiceBench.Spread backToSpeedS, int neverBackToSpeed,
            int promotedHot, int promotedRead, int faultyInvocations, FailoverAnalysis.PhaseStats faultyInvocation,
            FailoverAnalysis.PhaseStats detection, FailoverAnalysis.PhaseStats failover,
            FailoverAnalysis.PhaseStats retry, FailoverAnalysis.PhaseStats fdDetection,
            ServiceBench.Spread degreeRestoredUs, Double faultFreeMeanUs, String runDir) {
    }

    /**
     * One strategy over all its fault-free blocks: recorded latency of the measured rows (HdrHistogram, µs), what
     * redundancy cost, the database's work per request and the CPU of the replicas outside the client's path, as a
     * fraction of one core.
     */
    public record FaultFreeStrategy(double meanUs, long medianUs, long p99Us, long p999Us, long maxUs,
            FailoverAnalysis.Redundancy redundancy, Map<String, Double> databasePerRequest,
            double idleReplicasCpuFractionOfACore) {
    }

    /** The fault-free blocks: their shape, false suspicions in all, and each strategy's figures. */
    public record FaultFree(int clients, double minutes, int blocks, double blockSeconds, long falseSuspicions,
            Map<String, FaultFreeStrategy> strategies) {
    }

    private final ManagedLab lab;
    private final Path benchDir;
    private final PrintWriter out;

    public FailoverBench(ManagedLab lab, Path benchDir, PrintWriter out) {
        this.lab = lab;
        this.benchDir = benchDir;
        this.out = out;
    }

    /** One fault run without shadows; returns its figures (µs unless named otherwise). */
    public FaultRun run(String kind, String strategy, int clients, int faults) throws Exception {
        return run(kind, strategy, clients, faults, 0);
    }

    /** One fault run with {@code shadowShare} of the requests shadowed to the backups (0: none). */
    public FaultRun run(String kind, String strategy, int clients, int faults, double shadowShare) throws Exception {
        double postsPerSecondPerClient = calibrate(strategy, clients);
        Map<String, Long> db0 = databaseCounters();
        // The faults come every secondsBetweenFaults (or later, when the repair takes longer); the run lasts for
        // half an interval after the last one.
        int posts = (int) Math.ceil((faults + 0.5) * secondsBetweenFaults(clients) * postsPerSecondPerClient);
        GridPlan plan = new GridPlan("custom", List.of(clients), List.of(0), List.of(ReplySize.ORIGINAL), posts, 0);
        FaultSchedule faultPlan = FaultSchedule.shorthand(kind, secondsBetweenFaults(clients), 0, 1);
        String name = kind + "-" + strategy + "-c" + clients + (shadowShare > 0 ? "-shadow" + shadowShare : "");
        Path dir = benchDir.resolve(name);
        for (int n = 2; Files.exists(dir); n++) {
            dir = benchDir.resolve(name + "-" + n); // the same run again (--shadows 0,0.5,0,0.5): a run of its own
        }
        out.printf(Locale.ROOT, "%s, %s clients, %d client%s, %d faults%s: %d posts per client (%.0f/s each)%n",
                kind, strategy, clients, clients == 1 ? "" : "s", faults,
                shadowShare > 0 ? ", shadows of " + shadowShare + " of requests" : "", posts, postsPerSecondPerClient);
        out.flush();
        RunSettings d = RunSettings.DEFAULTS;
        RunSettings settings = new RunSettings(d.heartbeatMillis(), d.heartbeatTimeoutMillis(),
                d.invocationTimeoutMillis(), d.hedgeDelayMillis(), d.requestLog(), d.plugin(), shadowShare);
        RunDirectory rd = RunDirectory.create(dir, plan, strategy, faultPlan, 2, ManagedLab.DEFAULT_SPARES,
                "embedded MariaDB", Home.path(), settings);
        if (!GridRunner.runToEnd(lab, rd, out)) {
            throw new IllegalStateException("the fail-over run " + dir + " did not complete");
        }
        Map<String, Long> db1 = databaseCounters();
        RunAnalysis.Result r = RunAnalysis.analyze(dir);
        RunAnalysis.write(dir, r);
        FailoverAnalysis.Result f = r.failover();
        double[] handover = f.faults().stream().map(FailoverAnalysis.FaultSummary::handover)
                .filter(Objects::nonNull).mapToDouble(FailoverAnalysis.Handover::ratio).filter(x -> !Double.isNaN(x))
                .toArray();
        List<FailoverAnalysis.Handover> handovers = f.faults().stream().map(FailoverAnalysis.FaultSummary::handover)
                .filter(Objects::nonNull).toList();
        double[] back = handovers.stream().map(FailoverAnalysis.Handover::backToSpeedS).filter(Objects::nonNull)
                .mapToDouble(Integer::doubleValue).toArray();
        List<Boolean> promoted = f.faults().stream().map(s -> s.fault().promotedHot()).filter(Objects::nonNull)
                .toList();
        int hot = (int) promoted.stream().filter(Boolean::booleanValue).count();
        double[] restore = f.faults().stream().map(s -> s.fault().restorationUs()).filter(Objects::nonNull)
                .mapToDouble(Long::doubleValue).toArray();
        return new FaultRun(kind, strategy, clients, shadowShare, f.faults().size(), f.redundancy(),
                perRequest(delta(db0, db1), f.redundancy().requests()),
                handover.length > 0 ? ServiceBench.Spread.of(handover) : null,
                back.length > 0 ? ServiceBench.Spread.of(back) : null, handovers.size() - back.length, hot,
                promoted.size(),
                f.faulty() == null ? 0 : f.faulty().count(), phase(f.phases(), "total"),
                phase(f.phases(), "detection"), phase(f.phases(), "failover"), phase(f.phases(), "retry"),
                f.detection().isEmpty() ? null : f.detection().get(f.detection().size() - 1),
                restore.length > 0 ? ServiceBench.Spread.of(restore) : null,
                f.faultFree() == null ? null : f.faultFree().mean(), dir.toString());
    }

    private static FailoverAnalysis.PhaseStats phase(List<FailoverAnalysis.PhaseStats> phases, String name) {
        return phases.stream().filter(p -> p.phase().equals(name)).findFirst().orElse(null);
    }

    /**
     * Fault-free minutes: {@code rounds} rounds of one block per strategy, the order reversed every other round
     * (ABC CBA ABC …, so drift of the machine falls on every strategy alike), {@code clients} clients posting with
     * no think time. Per strategy: latency percentiles over all its blocks (recorded latency of measured rows,
     * HdrHistogram), extra requests, false suspicions (fail-overs with no fault: each is one), the database's work
     * per request and the CPU the replicas outside the client's path (backups and spares) used: with a
     * single-target strategy that is the warmer's cost.
     */
    public FaultFree faultFree(List<String> strategies, int clients, double minutes, int rounds)
            throws Exception {
        double blockSeconds = minutes * 60 / (rounds * strategies.size());
        Map<String, Double> rate = new LinkedHashMap<>();
        for (String s : strategies) {
            rate.put(s, calibrate(s, clients));
        }
        Map<String, org.HdrHistogram.Histogram> latency = new LinkedHashMap<>();
        Map<String, FailoverAnalysis.Redundancy> redundancy = new LinkedHashMap<>();
        Map<String, Map<String, Long>> db = new LinkedHashMap<>();
        Map<String, double[]> idleCpu = new LinkedHashMap<>(); // CPU seconds of idle replicas, wall seconds
        int block = 0;
        for (int round = 0; round < rounds; round++) {
            List<String> order = new ArrayList<>(strategies);
            if (round % 2 == 1) {
                Collections.reverse(order);
            }
            for (String strategy : order) {
                block++;
                int posts = (int) Math.ceil(blockSeconds * rate.get(strategy));
                GridPlan plan = new GridPlan("custom", List.of(clients), List.of(0), List.of(ReplySize.ORIGINAL),
                        posts, 0);
                Path dir = benchDir.resolve(String.format(Locale.ROOT, "fault-free/%02d-%s", block, strategy));
                out.printf(Locale.ROOT, "fault-free block %d of %d: %s, %d clients, %d posts each%n", block,
                        rounds * strategies.size(), strategy, clients, posts);
                out.flush();
                RunDirectory rd = RunDirectory.create(dir, plan, strategy, FaultSchedule.NONE, 2,
                        ManagedLab.DEFAULT_SPARES, "embedded MariaDB", Home.path());
                Map<String, Long> db0 = databaseCounters();
                Map<String, Long> cpu0 = idleReplicaCpuTicks();
                long t0 = System.nanoTime();
                if (!GridRunner.runToEnd(lab, rd, out)) {
                    throw new IllegalStateException("the fault-free run " + dir + " did not complete");
                }
                double wall = (System.nanoTime() - t0) / 1e9;
                Map<String, Long> cpu1 = idleReplicaCpuTicks();
                Map<String, Long> db1 = databaseCounters();
                RunAnalysis.Result r = RunAnalysis.analyze(dir);
                RunAnalysis.write(dir, r);
                redundancy.merge(strategy, r.failover().redundancy(), FailoverBench::sum);
                Map<String, Long> d = db.computeIfAbsent(strategy, k -> new LinkedHashMap<>());
                delta(db0, db1).forEach((k, v) -> d.merge(k, v, Long::sum));
                double ticks = 0;
                for (Map.Entry<String, Long> e : cpu1.entrySet()) {
                    Long before = cpu0.get(e.getKey());
                    ticks += before == null ? 0 : e.getValue() - before;
                }
                double[] cpu = idleCpu.computeIfAbsent(strategy, k -> new double[2]);
                cpu[0] += ticks / CLOCK_TICKS_PER_S;
                cpu[1] += wall;
                // the analysis's per-block histograms: recorded latency of the measured rows (warm-up left out)
                org.HdrHistogram.Histogram h = latency.computeIfAbsent(strategy,
                        k -> new org.HdrHistogram.Histogram(3));
                r.histograms().forEach(b -> h.add(b.recorded()));
            }
        }
        long falseSuspicions = 0;
        Map<String, FaultFreeStrategy> per = new LinkedHashMap<>();
        for (String strategy : strategies) {
            org.HdrHistogram.Histogram h = latency.get(strategy);
            FailoverAnalysis.Redundancy rd = redundancy.get(strategy);
            falseSuspicions += rd.falseSuspicions();
            double[] cpu = idleCpu.get(strategy);
            per.put(strategy, new FaultFreeStrategy(h.getMean(), h.getValueAtPercentile(50), h.getValueAtPercentile(99),
                    h.getValueAtPercentile(99.9), h.getMaxValue(), rd, perRequest(db.get(strategy), rd.requests()),
                    cpu[1] == 0 ? 0 : cpu[0] / cpu[1]));
        }
        return new FaultFree(clients, minutes, block, blockSeconds, falseSuspicions, per);
    }

    /** Two blocks' redundancy as one: counts added, answers merged by replica. */
    private static FailoverAnalysis.Redundancy sum(FailoverAnalysis.Redundancy a, FailoverAnalysis.Redundancy b) {
        Map<String, Long> answeredBy = new LinkedHashMap<>(a.answeredBy());
        b.answeredBy().forEach((k, v) -> answeredBy.merge(k, v, Long::sum));
        return new FailoverAnalysis.Redundancy(a.requests() + b.requests(), a.extraRequests() + b.extraRequests(),
                a.hedgedAnswers() + b.hedgedAnswers(), a.falseSuspicions() + b.falseSuspicions(), answeredBy);
    }

    /** {@code SHOW GLOBAL STATUS} counters that measure the database's work: statements, rows, transactions. */
    static final List<String> DATABASE_COUNTERS = List.of("Questions", "Com_select", "Com_insert", "Com_update",
            "Com_commit", "Com_rollback", "Handler_commit", "Handler_rollback", "Innodb_row_lock_waits");

    /** USER_HZ: the unit of utime and stime in /proc/PID/stat on Linux. */
    private static final double CLOCK_TICKS_PER_S = 100;

    private Map<String, Long> databaseCounters() throws IOException, SQLException {
        Map<String, Long> counters = new LinkedHashMap<>(DatabaseCounters.read(lab.runDir(), DATABASE_COUNTERS));
        counters.remove(DatabaseCounters.SERVER_ID); // one server: the bench's lab
        counters.remove(DatabaseCounters.UPTIME_S);
        return counters;
    }

    /** Counter by counter, after − before (a counter missing before counts from 0 change). */
    private static Map<String, Long> delta(Map<String, Long> before, Map<String, Long> after) {
        Map<String, Long> m = new LinkedHashMap<>();
        after.forEach((k, v) -> m.put(k, v - before.getOrDefault(k, v)));
        return m;
    }

    private static Map<String, Double> perRequest(Map<String, Long> counts, long requests) {
        Map<String, Double> m = new LinkedHashMap<>();
        counts.forEach((k, v) -> m.put(k, requests == 0 ? 0 : (double) v / requests));
        return m;
    }

    /** utime + stime, in clock ticks, of each replica outside the view's primary (backups and spares), by pid. */
    private Map<String, Long> idleReplicaCpuTicks() throws IOException {
        Map<String, Long> m = new LinkedHashMap<>();
        for (ReplicaStatus r : lab.manager().status().replicas()) {
            ReplicaState state = r.state();
            if ((state == ReplicaState.BACKUP || state == ReplicaState.SPARE)
                    && r.pid() != null) {
                String pid = Long.toString(r.pid());
                try {
                    String stat = Files.readString(Path.of("/proc", pid, "stat"));
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    m.put(pid, Long.parseLong(f[11]) + Long.parseLong(f[12])); // fields 14 and 15 of stat(5)
                } catch (IOException | RuntimeException e) {
                    // a replica that has just ended: it no longer counts
                }
            }
        }
        return m;
    }

    /** Seconds of one calibration window. */
    private static final double CALIBRATION_WINDOW_S = 2;
    /** A calibration ends when this many windows in a row agree within {@link #CALIBRATION_AGREEMENT}. */
    private static final int CALIBRATION_STEADY_WINDOWS = 3;
    private static final double CALIBRATION_AGREEMENT = 0.9;
    private static final double CALIBRATION_MAX_S = 120;

    /**
     * Posts per second per client with {@code clients} concurrent clients once the rate is steady: clients post
     * without pause while the rate is taken over 2-s windows, until three windows in a row agree within 10% (or two
     * minutes have passed). The rate rises for a while as this JVM and the replicas compile the request path (most of
     * all on a fresh lab); a rate taken before it settles would leave the run too short for its faults.
     */
    private double calibrate(String strategy, int clients) throws Exception {
        // Measured on the lab the run will meet: a spare still booting from the previous run (or the lab's start)
        // takes CPU from the service.
        lab.awaitFullStrength(() -> true, () -> true);
        List<BenchClient> sessions = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        AtomicLong posted = new AtomicLong();
        AtomicReference<Exception> failure =
                new AtomicReference<>();
        AtomicBoolean stop = new AtomicBoolean();
        try {
            for (int c = 0; c < clients; c++) {
                sessions.add(BenchClient.open(lab, strategy, "calibrate-" + c + "-"
                        + Long.toString(System.nanoTime() % 1_000_000, 36)));
            }
            for (BenchClient s : sessions) {
                Thread t = new Thread(() -> {
                    try {
                        for (int i = 0; !stop.get(); i++) {
                            RequestHeader h = s.next(ReplySize.ORIGINAL);
                            AuctionDraft d = new AuctionDraft("calibration " + i, "bench", 100, 86_400);
                            s.client.invoke(svc -> svc.postAuction(h, s.token, d));
                            posted.incrementAndGet();
                        }
                    } catch (Exception e) {
                        failure.compareAndSet(null, e);
                    }
                }, "calibrate-" + threads.size());
                threads.add(t);
                t.start();
            }
            Deque<Double> windows = new ArrayDeque<>();
            long start = System.nanoTime();
            long t0 = start;
            long n0 = posted.get();
            while (true) {
                Thread.sleep((long) (CALIBRATION_WINDOW_S * 1000));
                if (failure.get() != null) {
                    throw failure.get();
                }
                long t1 = System.nanoTime();
                long n1 = posted.get();
                windows.addLast((n1 - n0) / ((t1 - t0) / 1e9) / clients);
                t0 = t1;
                n0 = n1;
                if (windows.size() > CALIBRATION_STEADY_WINDOWS) {
                    windows.removeFirst();
                }
                double min = windows.stream().mapToDouble(Double::doubleValue).min().orElse(0);
                double max = windows.stream().mapToDouble(Double::doubleValue).max().orElse(0);
                if ((windows.size() == CALIBRATION_STEADY_WINDOWS && min >= CALIBRATION_AGREEMENT * max)
                        || (t1 - start) / 1e9 >= CALIBRATION_MAX_S) {
                    return windows.stream().mapToDouble(Double::doubleValue).average().orElse(0);
                }
            }
        } finally {
            stop.set(true);
            for (Thread t : threads) {
                t.join();
            }
            sessions.forEach(BenchClient::close);
        }
    }
}
