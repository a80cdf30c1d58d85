package org.ftlab.harness.grid;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.ftlab.auction.api.AuctionDraft;
import org.ftlab.auction.api.AuctionPosted;
import org.ftlab.auction.api.MicroClock;
import org.ftlab.auction.api.Reply;
import org.ftlab.auction.api.RequestHeader;
import org.ftlab.harness.failover.FailoverClient;
import org.ftlab.harness.failover.FailoverStrategy;
import org.ftlab.harness.lab.ManagedLab;
import org.ftlab.harness.probe.ExactlyOnceAudit;
import org.ftlab.harness.probe.ProbeTable;
import org.ftlab.rm.db.DatabaseEndpoint;

/**
 * Runs a {@link GridPlan} against a running lab: for every configuration not yet done, its clients run concurrently
 * (one thread, one proxy and one clientId each), posting then viewing with the configured think time and reply
 * size; their probes go to preallocated tables and are written after the configuration, atomically, as
 * {@code probes/<config>.csv}. Faults are injected as the {@link FaultPlan} says and joined to the requests they
 * overlapped; after the run the database is audited (every post exactly once).
 */
public final class GridRunner {
    private final ManagedLab lab;
    private final RunDirectory dir;
    private final GridPlan plan;
    private final FailoverStrategy strategy;
    private final FaultPlan faults;
    private final PrintWriter progress;
    private volatile boolean aborted;
    private long sinceEpochUs;
    /** Mean latency seen so far, for the ETA; 5 ms until measured. */
    private double meanLatencyMillis = 5;

    public GridRunner(ManagedLab lab, RunDirectory dir, GridPlan plan, FailoverStrategy strategy, FaultPlan faults,
            PrintWriter progress) {
        this.lab = lab;
        this.dir = dir;
        this.plan = plan;
        this.strategy = strategy;
        this.faults = faults;
        this.progress = progress;
    }

    /** Asks the run to stop after the requests in flight; the unfinished configuration is discarded. */
    public void abort() {
        aborted = true;
    }

    /** Runs the configurations not done yet; returns true if all are done (false if aborted). */
    public boolean run() throws Exception {
        // Every run starts on a fully replicated lab (an earlier run's crash may still be under repair), and owns
        // only the failures from here on: the lab may outlive several runs.
        awaitFullDegree();
        sinceEpochUs = MicroClock.nowEpochMicros();
        List<GridConfig> todo = new ArrayList<>();
        for (GridConfig c : plan.configurations()) {
            if (!dir.isDone(c)) {
                todo.add(c);
            }
        }
        int total = plan.configurations().size();
        int done = total - todo.size();
        if (done > 0) {
            progress.printf(Locale.ROOT, "resuming: %d of %d configurations already done%n", done, total);
        }
        List<ClientSession> sessions = new ArrayList<>();
        List<ProbeTable> all = new ArrayList<>();
        String runTag = Long.toString(System.currentTimeMillis(), 36);
        ExecutorService pool = Executors.newFixedThreadPool(plan.maxClients(), r -> {
            Thread t = new Thread(r, "grid-client");
            t.setDaemon(true);
            return t;
        });
        FaultInjector injector = new FaultInjector(lab, faults, progress);
        try {
            for (int i = 0; i < plan.maxClients() && !todo.isEmpty(); i++) {
                sessions.add(new ClientSession(lab, strategy, String.format(Locale.ROOT, "g%s-%02d", runTag, i + 1)));
            }
            injector.start();
            for (GridConfig config : todo) {
                if (aborted) {
                    break;
                }
                long t0 = System.nanoTime();
                List<ProbeTable> tables = runConfig(config, sessions, pool, injector);
                if (aborted) {
                    break; // a half-measured configuration is not kept
                }
                joinFaults(tables);
                dir.writeProbes(config, tables);
                dir.writeFaults(ownFailures());
                all.addAll(tables);
                done++;
                double seconds = (System.nanoTime() - t0) / 1e9;
                progress.printf(Locale.ROOT, "[%d/%d] %s done in %.1f s (%d rows); ETA %s%n", done, total,
                        config.id(), seconds, rows(tables), eta(todo.subList(todo.indexOf(config) + 1, todo.size())));
                progress.flush();
            }
        } finally {
            injector.stop();
            pool.shutdownNow();
            sessions.forEach(ClientSession::close);
        }
        if (!all.isEmpty()) {
            ExactlyOnceAudit.Result audit = ExactlyOnceAudit.check(DatabaseEndpoint.loadForAudits(lab.runDir()), all);
            dir.recordAudit(audit);
            progress.println(audit.summary());
            if (!audit.passed()) {
                throw new IllegalStateException(audit.summary());
            }
        }
        dir.writeFaults(ownFailures());
        return !aborted;
    }

    private List<ProbeTable> runConfig(GridConfig config, List<ClientSession> sessions, ExecutorService pool,
            FaultInjector injector) throws Exception {
        int perClient = plan.invocationsPerClient();
        AtomicInteger completed = new AtomicInteger();
        injector.beginConfig(config.clients() * perClient, completed);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<ProbeTable>> futures = new ArrayList<>();
        for (int c = 0; c < config.clients(); c++) {
            ClientSession s = sessions.get(c);
            futures.add(pool.submit(() -> {
                start.await();
                return runClient(config, s, completed);
            }));
        }
        start.countDown();
        List<ProbeTable> tables = new ArrayList<>();
        for (Future<ProbeTable> f : futures) {
            tables.add(f.get());
        }
        injector.endConfig();
        return tables;
    }

    /** One client's share of a configuration; the timed path is the invocation and a few array stores. */
    private ProbeTable runClient(GridConfig config, ClientSession s, AtomicInteger completed)
            throws InterruptedException {
        ProbeTable table = new ProbeTable(s.clientId, plan.invocationsPerClient());
        int sizedBytes = config.reply().isOriginal() ? -1 : config.reply().bytes();
        long[] posted = new long[Math.max(1, plan.postsPerClient())];
        int postedCount = 0;
        FailoverClient client = s.client;
        for (int i = 0; i < plan.invocationsPerClient() && !aborted; i++) {
            boolean post = i < plan.postsPerClient();
            RequestHeader h = s.next(config.reply());
            String method = post ? "postAuction" : "viewAuction";
            long auctionId = post ? 0 : postedCount == 0 ? s.anchorAuctionId
                    : posted[(i - plan.postsPerClient()) % postedCount];
            AuctionDraft draft = post ? new AuctionDraft(s.clientId + "#" + h.seq(), "grid " + config.id(), 100,
                    86_400) : null;
            long sent = MicroClock.nowEpochMicros();
            try {
                FailoverClient.Outcome<? extends Reply<?>> o = post
                        ? client.invoke(svc -> svc.postAuction(h, s.token, draft))
                        : client.invoke(svc -> svc.viewAuction(h, auctionId));
                long received = MicroClock.nowEpochMicros();
                if (o.faulty()) {
                    table.recordRetried(h.seq(), method, sizedBytes, sent, received, o.result(), o.phases(), null);
                } else {
                    table.recordOk(h.seq(), method, sizedBytes, sent, received, o.result());
                }
                if (post && o.result().value() instanceof AuctionPosted p) {
                    posted[postedCount++] = p.auctionId();
                }
            } catch (Exception e) {
                table.recordFailure(h.seq(), method, sent, MicroClock.nowEpochMicros(), e);
            }
            completed.incrementAndGet();
            if (config.thinkMillis() > 0) {
                Thread.sleep(config.thinkMillis());
            }
        }
        return table;
    }

    /** Marks requests that overlapped a fault, from its injection (or detection) until the new primary served. */
    private void joinFaults(List<ProbeTable> tables) throws IOException {
        for (JsonNode f : ownFailures()) {
            long from = f.path("injectedEpochUs").asLong() > 0 ? f.path("injectedEpochUs").asLong()
                    : f.path("detectedEpochUs").asLong();
            long to = Math.max(f.path("promotedEpochUs").asLong(), f.path("detectedEpochUs").asLong());
            for (ProbeTable t : tables) {
                t.markOverlapping(f.path("faultId").asText(), from, to);
            }
        }
        long sum = 0;
        long n = 0;
        for (ProbeTable t : tables) {
            for (int i = 0; i < t.size(); i++) {
                sum += t.latencyMicros(i);
                n++;
            }
        }
        if (n > 0) {
            meanLatencyMillis = sum / 1000.0 / n;
        }
    }

    /** The lab's failures that happened during this run. */
    private List<JsonNode> ownFailures() throws IOException {
        List<JsonNode> own = new ArrayList<>();
        for (JsonNode f : lab.manager().status().path("failures")) {
            long at = f.path("injectedEpochUs").asLong() > 0 ? f.path("injectedEpochUs").asLong()
                    : f.path("detectedEpochUs").asLong();
            if (at >= sinceEpochUs) {
                own.add(f);
            }
        }
        return own;
    }

    private void awaitFullDegree() throws IOException, InterruptedException {
        long deadline = System.nanoTime() + 180_000_000_000L;
        while (!aborted && System.nanoTime() < deadline) {
            JsonNode s = lab.manager().status();
            if (s.path("degree").asInt() >= s.path("targetDegree").asInt()) {
                return;
            }
            Thread.sleep(100);
        }
    }

    private String eta(List<GridConfig> remaining) {
        double ms = 0;
        for (GridConfig c : remaining) {
            ms += plan.invocationsPerClient() * (c.thinkMillis() + meanLatencyMillis * Math.max(1, c.clients() / 2.0));
        }
        long s = Math.round(ms / 1000);
        return s < 120 ? s + " s" : s < 7200 ? (s / 60) + " min" : String.format(Locale.ROOT, "%.1f h", s / 3600.0);
    }

    private static int rows(List<ProbeTable> tables) {
        return tables.stream().mapToInt(ProbeTable::size).sum();
    }
}
