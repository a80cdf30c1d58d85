package org.ftlab.harness.bench;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.ftlab.auction.api.AuctionDraft;
import org.ftlab.auction.api.ReplySize;
import org.ftlab.auction.api.RequestHeader;
import org.ftlab.harness.analysis.FailoverAnalysis;
import org.ftlab.harness.analysis.RunAnalysis;
import org.ftlab.harness.grid.ClientSession;
import org.ftlab.harness.grid.FaultPlan;
import org.ftlab.harness.grid.GridPlan;
import org.ftlab.harness.grid.GridRunner;
import org.ftlab.harness.grid.RunDirectory;
import org.ftlab.harness.lab.ManagedLab;

/**
 * Fail-over under load: a grid run of posts with {@code n} clients (think time 0) into which the grid's own fault
 * injector puts {@code faults} crashes (SIGKILL of the primary) or hangs (SIGSTOP), each after the previous one was
 * repaired; then the run's own analysis: faulty-invocation latency and its three phases, Fault Detector detection
 * time and the time until the replication degree was back. The run directories are kept, with their reports.
 */
public final class FailoverBench {
    /**
     * Seconds of posting per fault: a repair (relaunch of a replica, at a lower CPU priority) takes about 15 s on 2
     * idle cores and over 30 s while 10 clients keep them busy, and faults are 2 s apart after a repair.
     */
    static double secondsPerFault(int clients) {
        return clients == 1 ? 25 : 50;
    }

    private final ManagedLab lab;
    private final Path benchDir;
    private final PrintWriter out;

    public FailoverBench(ManagedLab lab, Path benchDir, PrintWriter out) {
        this.lab = lab;
        this.benchDir = benchDir;
        this.out = out;
    }

    /** One fault run; returns its figures (µs unless named otherwise). */
    public Map<String, Object> run(String kind, String strategy, int clients, int faults) throws Exception {
        double postsPerSecondPerClient = calibrate(strategy, clients);
        int posts = (int) Math.ceil(faults * secondsPerFault(clients) * postsPerSecondPerClient);
        GridPlan plan = new GridPlan("custom", List.of(clients), List.of(0), List.of(ReplySize.ORIGINAL), posts, 0);
        FaultPlan faultPlan = new FaultPlan(kind, 0, faults);
        Path dir = benchDir.resolve(kind + "-" + strategy + "-c" + clients);
        out.printf(Locale.ROOT, "%s, %s clients, %d client%s, %d faults: %d posts per client (%.0f/s each)%n", kind,
                strategy, clients, clients == 1 ? "" : "s", faults, posts, postsPerSecondPerClient);
        out.flush();
        RunDirectory rd = RunDirectory.create(dir, plan, strategy, faultPlan, 2, ManagedLab.DEFAULT_SPARES,
                "embedded MariaDB",
                org.ftlab.harness.cli.Home.path());
        if (!GridRunner.runToEnd(lab, rd, out)) {
            throw new IllegalStateException("the fail-over run " + dir + " did not complete");
        }
        RunAnalysis.Result r = RunAnalysis.analyze(dir);
        RunAnalysis.write(dir, r);
        FailoverAnalysis.Result f = r.failover();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("kind", kind);
        m.put("strategy", strategy);
        m.put("clients", clients);
        m.put("faults_injected", f.faults().size());
        m.put("faulty_invocations", f.faulty() == null ? 0 : f.faulty().count());
        for (FailoverAnalysis.PhaseStats p : f.phases()) {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("median_us", p.medianUs());
            x.put("mean_us", p.meanUs());
            x.put("min_us", p.minUs());
            x.put("max_us", p.maxUs());
            m.put(p.phase().equals("total") ? "faulty_invocation" : "phase_" + p.phase(), x);
        }
        f.detection().forEach(d -> m.put("fd_detection", Map.of("median_us", d.medianUs(), "max_us", d.maxUs(),
                "min_us", d.minUs(), "n", d.count())));
        double[] restore = f.faults().stream().map(s -> s.fault().restorationUs()).filter(Objects::nonNull)
                .mapToDouble(Long::doubleValue).toArray();
        if (restore.length > 0) {
            m.put("degree_restored_us", ServiceBench.Spread.of(restore));
        }
        m.put("fault_free_mean_us", f.faultFree() == null ? null : f.faultFree().mean());
        m.put("run_dir", dir.toString());
        return m;
    }

    /** Posts per second per client with {@code clients} concurrent clients, from 200 posts each after 100. */
    private double calibrate(String strategy, int clients) throws Exception {
        java.util.List<ClientSession> sessions = new java.util.ArrayList<>();
        try {
            for (int c = 0; c < clients; c++) {
                sessions.add(new ClientSession(lab, strategy, "calibrate-" + c + "-"
                        + Long.toString(System.nanoTime() % 1_000_000, 36)));
            }
            int warmup = 100; // the first posts of a session run cold code (JIT) and would understate the rate
            int n = 200;
            java.util.concurrent.atomic.AtomicReference<Exception> failure =
                    new java.util.concurrent.atomic.AtomicReference<>();
            java.util.List<Thread> threads = new java.util.ArrayList<>();
            java.util.concurrent.CyclicBarrier go = new java.util.concurrent.CyclicBarrier(clients + 1);
            for (ClientSession s : sessions) {
                Thread t = new Thread(() -> {
                    try {
                        for (int i = 0; i < warmup + n; i++) {
                            if (i == warmup) {
                                go.await();
                            }
                            RequestHeader h = s.next(ReplySize.ORIGINAL);
                            AuctionDraft d = new AuctionDraft("calibration " + i, "bench", 100, 86_400);
                            s.client.invoke(svc -> svc.postAuction(h, s.token, d));
                        }
                    } catch (Exception e) {
                        failure.compareAndSet(null, e);
                        go.reset(); // wakes the measuring thread, which then reports the failure
                    }
                });
                threads.add(t);
                t.start();
            }
            try {
                go.await(5, java.util.concurrent.TimeUnit.MINUTES);
            } catch (java.util.concurrent.BrokenBarrierException e) {
                for (Thread t : threads) {
                    t.join();
                }
                throw failure.get() != null ? failure.get() : e;
            }
            long t0 = System.nanoTime();
            for (Thread t : threads) {
                t.join();
            }
            if (failure.get() != null) {
                throw failure.get();
            }
            return n / ((System.nanoTime() - t0) / 1e9);
        } finally {
            sessions.forEach(ClientSession::close);
        }
    }
}
