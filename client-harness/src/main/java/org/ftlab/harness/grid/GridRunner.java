package org.ftlab.harness.grid;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.ftlab.auction.api.MicroClock;
import org.ftlab.auction.api.Reply;
import org.ftlab.auction.api.ReplySize;
import org.ftlab.auction.api.RequestHeader;
import org.ftlab.auction.api.ThreadSchedstat;
import org.ftlab.harness.failover.ClientTuning;
import org.ftlab.harness.failover.Shadow;
import org.ftlab.harness.failover.Outcome;
import org.ftlab.harness.failover.PluginFailure;
import org.ftlab.harness.failover.Strategies;
import org.ftlab.harness.lab.DatabaseCounters;
import org.ftlab.harness.lab.ManagedLab;
import org.ftlab.harness.probe.DatabaseWorkRecord;
import org.ftlab.harness.probe.ProbeTable;
import org.ftlab.harness.probe.RunSettings;
import org.ftlab.harness.workload.ClientSession;
import org.ftlab.harness.workload.OperationOrder;
import org.ftlab.harness.workload.Workload;
import org.ftlab.harness.workload.Workloads;
import org.ftlab.rm.api.FailureRecord;
import org.ftlab.rm.api.InjectedFault;
import org.ftlab.rm.api.ManagerStatus;
import org.ftlab.rm.api.Platform;

/**
 * Runs a {@link GridPlan} against a running lab, block by block in the plan's schedule (every configuration's
 * replicates, in random or grid order): each block's clients run concurrently (one thread, one proxy and one
 * clientId each, for the whole run), first {@code warmup} requests of the configuration's own mix (recorded, marked
 * {@code warmup}), then the measured requests of the run's {@link Workload} in the order it chose
 * ({@link Workload#order}; the auction's: posts, then views),
 * closed loop (think time) or open loop (a schedule of intended send times the client keeps whatever the replies
 * do). Probes go to preallocated tables and are written after the block, atomically, as {@code probes/<block>.csv}.
 * Faults are injected as the {@link FaultSchedule} says and joined to the requests they overlapped; after the run
 * the workload's checker audits it (the auction's: every post exactly once in the database), the completed requests
 * of an interrupted block included.
 */
public final class GridRunner {
    /** A request that starts more than this after its intended send time counts as late (open loop). */
    public static final long LATE_START_MICROS = 1_000;
    /** Seconds of requests at a client's rate that its open-loop workers can have in flight before starts are late. */
    static final double IN_FLIGHT_SECONDS = 3.0;
    private final GridLab lab;
    private final RunDirectory dir;
    private final GridPlan plan;
    private final Workload workload;
    /** The order of a client's measured requests in each block, as the workload chose it. */
    private final OperationOrder order;
    /** The strategy of each level the blocks use, in the plan's order (one when the run does not vary it). */
    private final java.util.Map<String, Strategies.Kind> strategies = new java.util.LinkedHashMap<>();
    /** The middleware platforms the blocks use, in the plan's order (one when the run does not vary it). */
    private final List<Platform> platforms;
    /** The degree the lab had before the run, restored at its end when the run varies the degree; 0: not changed. */
    private int labDegree;
    private final ClientTuning tuning;
    /** Whether the clients shadow their requests to the backups ({@code --shadow}). */
    private final boolean shadows;
    private final FaultSchedule faults;
    /** The first breach of a plug-in strategy's contract: it stops the run. */
    private volatile PluginFailure pluginFailure;
    private final PrintWriter progress;
    private volatile boolean aborted;
    private long sinceEpochUs;
    /** The database's work counters before the run's first measured request (null: not read, or not readable). */
    private Map<String, Long> databaseBefore;
    /** Mean latency seen so far, for the ETA; 5 ms until measured. */
    private double meanLatencyMillis = 5;

    /** Runs the workload, plan, strategy and faults recorded in {@code dir}'s manifest. */
    public GridRunner(ManagedLab lab, RunDirectory dir, PrintWriter progress) throws IOException {
        this(GridLab.of(lab), dir, progress);
    }

    /** As above, on any lab (a test of the grid code may simulate one). */
    public GridRunner(GridLab lab, RunDirectory dir, PrintWriter progress) throws IOException {
        this.lab = lab;
        this.dir = dir;
        this.plan = dir.plan();
        this.workload = Workloads.named(dir.workload(), dir.workloadParameters());
        this.order = workload.order(plan.postsPerClient(), plan.viewsPerClient());
        RunSettings settings = dir.settings();
        this.platforms = plan.platformsOr(dir.platform()).stream().map(Platform::parse).toList();
        for (String name : plan.strategiesOr(dir.strategy())) {
            strategies.put(name, Strategies.resolve(name, org.ftlab.harness.failover.PluginStrategies.isPlugin(name)
                    ? settings.pluginPath() : null, ClientSession.GIVE_UP));
        }
        this.tuning = settings.clientTuning();
        this.shadows = tuning.shadowShare() > 0;
        this.faults = dir.faults();
        this.progress = progress;
    }

    /**
     * Runs {@code dir}'s plan on {@code lab} to the end and records how it ended in the manifest ({@code complete}
     * or {@code aborted}); returns whether it completed. For runs that nobody interrupts (benchmarks).
     */
    public static boolean runToEnd(ManagedLab lab, RunDirectory dir, PrintWriter progress) throws Exception {
        return runToEnd(GridLab.of(lab), dir, progress);
    }

    /** As above, on any lab. */
    public static boolean runToEnd(GridLab lab, RunDirectory dir, PrintWriter progress) throws Exception {
        return runToEnd(lab, dir, progress, (block, clients) -> {
        });
    }

    /** What runs before each block, given the block and the run's clients. */
    @FunctionalInterface
    public interface BeforeBlock {
        void run(GridPlan.Block block, List<ClientSession> clients) throws Exception;
    }

    private BeforeBlock beforeBlock = (block, clients) -> {
    };

    /**
     * Runs {@code hook} before each block, after the previous block's requests have all returned (e.g. to switch the
     * lab's observation in alternating blocks); an exception from it stops the run. Returns this runner.
     */
    public GridRunner beforeEachBlock(BeforeBlock hook) {
        this.beforeBlock = Objects.requireNonNull(hook, "hook");
        return this;
    }

    /** As {@link #runToEnd(ManagedLab, RunDirectory, PrintWriter)}, with {@code hook} run before each block. */
    public static boolean runToEnd(ManagedLab lab, RunDirectory dir, PrintWriter progress, BeforeBlock hook)
            throws Exception {
        return runToEnd(GridLab.of(lab), dir, progress, hook);
    }

    /** As above, on any lab. */
    public static boolean runToEnd(GridLab lab, RunDirectory dir, PrintWriter progress, BeforeBlock hook)
            throws Exception {
        boolean complete = false;
        try {
            complete = new GridRunner(lab, dir, progress).beforeEachBlock(hook).run();
        } finally {
            dir.finish(complete ? "complete" : "aborted");
        }
        return complete;
    }

    /** Asks the run to stop after the requests in flight; the unfinished block's completed requests are kept. */
    public void abort() {
        aborted = true;
    }

    /** Runs the blocks not done yet; returns true if all are done (false if aborted). */
    public boolean run() throws Exception {
        // Every run starts on a fully replicated lab (an earlier run's crash may still be under repair), and owns
        // only the failures from here on: the lab may outlive several runs.
        awaitFullDegree();
        sinceEpochUs = MicroClock.nowEpochMicros();
        List<GridPlan.Block> schedule = plan.schedule();
        List<GridPlan.Block> todo = new ArrayList<>();
        for (GridPlan.Block b : schedule) {
            if (!dir.isDone(b)) {
                todo.add(b);
            }
        }
        int total = schedule.size();
        int done = total - todo.size();
        if (done > 0) {
            progress.printf(Locale.ROOT, "resuming: %d of %d blocks already done%n", done, total);
        }
        // each (strategy, platform) level has its own clients (ids, fail-over clients, connections), opened once
        java.util.Map<ClientLevel, List<GridClient>> clients = new java.util.LinkedHashMap<>();
        List<GridClient> sessions = new ArrayList<>();
        List<ProbeTable> all = new ArrayList<>();
        String runTag = Long.toString(System.currentTimeMillis(), 36);
        ExecutorService pool = Executors.newFixedThreadPool(plan.maxClients(), daemon("grid-client"));
        FaultInjector injector = new FaultInjector(lab, faults, progress);
        try {
            if (faults.enabled() && !todo.isEmpty()) {
                // A fault run starts as its faults meet the lab: at full degree with its spares booted (a spare
                // used by the run before may still be booting).
                progress.println("waiting until the lab has its replication degree and its spares ...");
                progress.flush();
                lab.awaitFullStrength(() -> !aborted, () -> true);
            }
            if (!todo.isEmpty()) {
                workload.begin(lab.runDir());
            }
            try {
                int level = 0;
                for (java.util.Map.Entry<String, Strategies.Kind> s : strategies.entrySet()) {
                    for (Platform platform : platforms) {
                        level++;
                        List<GridClient> own = new ArrayList<>();
                        clients.put(new ClientLevel(s.getKey(), platform), own);
                        for (int i = 0; i < plan.maxClients() && !todo.isEmpty(); i++) {
                            GridClient c = GridClient.open(lab, workload, s.getValue(), tuning, platform,
                                    strategies.size() * platforms.size() == 1
                                            ? String.format(Locale.ROOT, "g%s-%02d", runTag, i + 1)
                                            : String.format(Locale.ROOT, "g%s-s%d-%02d", runTag, level, i + 1));
                            own.add(c);
                            sessions.add(c);
                        }
                    }
                }
            } catch (PluginFailure e) {
                pluginFailed(e); // a plug-in whose constructor (or first requests) failed: nothing is measured
            }
            if (!todo.isEmpty()) {
                databaseBefore = databaseCounters();
            }
            if (plan.design().labWarmupPerClient() > 0 && !todo.isEmpty() && !aborted) {
                all.addAll(labWarmup(clients, pool));
            }
            injector.start();
            for (int k = 0; k < todo.size() && !aborted; k++) {
                GridPlan.Block block = todo.get(k);
                List<GridClient> blockClients = clients.get(levelOf(block));
                if (plan.infra().variesReplicas()) {
                    changeDegree(block.config().replicas(), blockClients);
                }
                beforeBlock.run(block, blockClients.stream().map(GridClient::session).toList());
                long t0 = System.nanoTime();
                List<ProbeTable> tables = runBlock(block, schedule.indexOf(block) + 1, blockClients, pool, injector);
                all.addAll(tables);
                ManagerStatus status = lab.status(); // one reading: joined and logged alike
                joinFaults(tables, status);
                if (aborted) {
                    // Interrupted: keep what completed (its effects are in the system), but not as a done block.
                    if (rows(tables) > 0) {
                        Path kept = dir.writePartial(block, tables);
                        progress.printf(Locale.ROOT, "%s interrupted: %d completed requests kept in %s (not counted;"
                                + " the block runs again on resume)%n", block.id(), rows(tables),
                                dir.path().relativize(kept));
                    }
                    break;
                }
                dir.writeProbes(block, tables);
                writeFaults(status);
                done++;
                double seconds = (System.nanoTime() - t0) / 1e9;
                progress.printf(Locale.ROOT, "[%d/%d] %s done in %.1f s (%d rows); ETA %s%n", done, total,
                        block.id(), seconds, rows(tables), eta(todo.subList(k + 1, todo.size())));
                progress.flush();
            }
        } finally {
            restoreDegree();
            List<String> notInjected = injector.stop();
            if (!notInjected.isEmpty()) {
                dir.recordNotInjected(notInjected);
            }
            pool.shutdownNow();
            sessions.forEach(GridClient::close);
            if (tuning.shadowShare() > 0) {
                Shadow.Counts sh = sessions.stream().map(c -> c.session().client.shadowCounts())
                        .reduce(new Shadow.Counts(0, 0, 0, 0), Shadow.Counts::plus);
                progress.printf(Locale.ROOT, "shadows (%.1f%% of requests, to every backup): %d queued, %d answered by "
                        + "a backup, %d failed, %d dropped (the sender was behind)%n", 100 * tuning.shadowShare(),
                        sh.offered(), sh.answered(), sh.failed(), sh.dropped());
            }
        }
        if (pluginFailure != null) {
            // The plug-in broke its contract: the blocks done are whole and kept; the run is not complete, and no
            // audit can vouch for requests a stuck plug-in may still hold.
            dir.recordError(pluginFailure.getMessage());
            throw pluginFailure;
        }
        if (!all.isEmpty() && databaseBefore != null && !aborted) {
            Map<String, Long> after = databaseCounters();
            if (after != null) {
                DatabaseWorkRecord.between(databaseBefore, after, rows(all)).writeTo(dir.path());
            }
        }
        if (!all.isEmpty()) {
            Workload.Verdict audit = workload.checker().check(lab.runDir(), all);
            workload.ended(new Ended());
            dir.recordAudit(audit);
            progress.println(audit.summary());
            if (!audit.passed()) {
                throw new IllegalStateException(audit.summary().lines().findFirst().orElseThrow());
            }
        }
        awaitLastingFaultsEnded();
        writeFaults(lab.status());
        return !aborted;
    }

    /**
     * The lab database's work counters now, or null where they cannot be read (a database that keeps none): the
     * run's {@code database.json} is then left out, as a figure not measured.
     */
    private Map<String, Long> databaseCounters() {
        try {
            return DatabaseCounters.read(lab.runDir(), DatabaseWorkRecord.COUNTERS);
        } catch (IOException | java.sql.SQLException e) {
            progress.println("note: the database's work counters cannot be read (" + e.getMessage()
                    + "); the run records no database.json");
            return null;
        }
    }

    /** The run as the workload's after-run work sees it; its failures read from the lab when asked. */
    private final class Ended implements Workload.Ended {
        @Override
        public Path labRunDir() {
            return lab.runDir();
        }

        @Override
        public Path runDir() {
            return dir.path();
        }

        @Override
        public List<FailureRecord> failures() throws IOException {
            return ownFailures(lab.status());
        }
    }

    /**
     * Waits until every lasting fault of this run has ended (after its duration, or sooner by a fence), so that
     * {@code faults.csv} records how each ended: the last fault of a schedule may outlast the last block by up to its
     * duration. Not after an abort, whose lab is stopping and undoes them; a crash ends with its replacement, which a
     * record of the run does not wait for.
     */
    private void awaitLastingFaultsEnded() throws IOException, InterruptedException {
        long deadlineUs = 0;
        for (InjectedFault f : ownFaults(lab.status())) {
            if (f.spec().kind().lasts() && f.active()) {
                deadlineUs = Math.max(deadlineUs, f.injectedEpochUs() + 1000 * f.spec().durationMillis());
            }
        }
        deadlineUs += 10_000_000; // the manager's repair thread, and the fence's, take milliseconds: ample
        while (!aborted && MicroClock.nowEpochMicros() < deadlineUs && ownFaults(lab.status()).stream()
                .anyMatch(f -> f.spec().kind().lasts() && f.active())) {
            Thread.sleep(50);
        }
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    private List<ProbeTable> runBlock(GridPlan.Block block, int blockNumber, List<GridClient> sessions,
            ExecutorService pool, FaultInjector injector) throws Exception {
        GridConfig config = block.config();
        AtomicInteger completed = new AtomicInteger();
        injector.beginBlock(blockNumber, config.clients() * order.size(), completed);
        CountDownLatch start = new CountDownLatch(1);
        // Closed loop: each stretch's measured requests end together (see runClosedLoopClient).
        CountDownLatch[] stretchDone = new CountDownLatch[order.stretches().size()];
        for (int k = 0; k < stretchDone.length; k++) {
            stretchDone[k] = new CountDownLatch(config.clients());
        }
        List<Future<ProbeTable>> futures = new ArrayList<>();
        for (int c = 0; c < config.clients(); c++) {
            GridClient s = sessions.get(c);
            int clientIndex = c;
            futures.add(pool.submit(() -> {
                start.await();
                return config.openLoop() ? runOpenLoopClient(block, s, clientIndex, completed)
                        : runClosedLoopClient(block, s, completed, stretchDone);
            }));
        }
        start.countDown();
        List<ProbeTable> tables = await(futures, sessions);
        injector.endBlock();
        return tables;
    }

    /**
     * The clients' tables once every client is done; if a plug-in strategy breaks its contract meanwhile (a client
     * may be stuck in it for good), the tables of the clients that are done, and the run is aborted.
     */
    private <T> List<T> await(List<Future<T>> futures, List<GridClient> sessions)
            throws InterruptedException, java.util.concurrent.ExecutionException {
        List<T> tables = new ArrayList<>();
        for (Future<T> f : futures) {
            while (!f.isDone() && pluginFailure == null) {
                try {
                    f.get(100, java.util.concurrent.TimeUnit.MILLISECONDS);
                } catch (java.util.concurrent.TimeoutException e) {
                    sessions.forEach(s -> pluginFailed(s.session.client.pluginFailure()));
                }
            }
            if (f.isDone() && !f.isCancelled()) {
                tables.add(f.get());
            }
        }
        return tables;
    }

    /** Records the first plug-in failure (null: none) and stops the run. */
    private void pluginFailed(PluginFailure f) {
        if (f != null && pluginFailure == null) {
            pluginFailure = f;
            aborted = true;
        }
    }

    /**
     * The operation of a client's {@code i}-th request of a block (an index into the workload's operations):
     * warm-up requests mix them in the order's proportions, spread evenly; measured ones follow the workload's order.
     */
    private int operationAt(int i) {
        int warmup = plan.design().warmupPerClient();
        return i >= warmup ? order.operationAt(i - warmup) : order.warmupOperation(i);
    }

    /** One client of the run: its session (id, fail-over client, sequence numbers) and its workload's generator. */
    private record GridClient(ClientSession session, Workload.Client workload) {
        static GridClient open(GridLab lab, Workload workload, Strategies.Kind strategy, ClientTuning tuning,
                Platform platform, String clientId) throws Exception {
            ClientSession s = new ClientSession(clientId, lab.client(strategy, tuning, ClientSession.GIVE_UP,
                    platform));
            try {
                return new GridClient(s, workload.open(s));
            } catch (Exception | Error e) {
                s.close();
                throw e;
            }
        }

        String clientId() {
            return session.clientId;
        }

        void close() {
            session.close();
        }
    }

    /** One request of a block as the grid sends it: the workload's request, its header (seq) and its phase. */
    private record Sent(Workload.Request request, RequestHeader header, ProbeTable.Phase phase) {
    }

    /** The next request of {@code c}: operation {@code operation}, reply size {@code reply}, of block {@code tag}. */
    private static Sent prepare(GridClient c, ReplySize reply, String tag, int operation, ProbeTable.Phase phase) {
        RequestHeader header = c.session().next(reply);
        return new Sent(c.workload().next(operation, header, tag), header, phase);
    }

    /** The {@code i}-th request of a client's share of {@code block}. */
    private Sent prepare(GridPlan.Block block, GridClient c, int i) {
        return prepare(c, block.config().reply(), block.id(), operationAt(i), i < plan.design().warmupPerClient()
                ? ProbeTable.Phase.WARMUP : ProbeTable.Phase.MEASURE);
    }

    /** Invokes {@code r} and completes its row: the timed path is the invocation between two clock readings. */
    private void invoke(Sent r, GridClient c, ProbeTable table, int row, int sizedBytes) {
        boolean observed = r.header().observed();
        // outside the timed path, as the second reading
        long runQueue = observed ? ThreadSchedstat.runQueueNanos() : ThreadSchedstat.UNKNOWN;
        long sent = MicroClock.nowEpochMicros();
        try {
            Outcome<?> o = r.request().invoke(c.session().client);
            long received = MicroClock.nowEpochMicros();
            if (observed) {
                table.clientRunQueue(row, ThreadSchedstat.deltaMicros(runQueue, ThreadSchedstat.runQueueNanos()));
            }
            table.served(row, sizedBytes, sent, received, o.result() instanceof Reply<?> reply ? reply : null,
                    o.servedBy(), o.served().wireName(), o.phases(), o.sentTo());
            table.replyDigest(row, r.request().replyDigest(o));
            r.request().completed(o);
            if (shadows) {
                c.session().client.mirror(r.request().shadow()); // after the timed path; only with shadow traffic
            }
        } catch (PluginFailure e) {
            pluginFailed(e);
            table.failed(row, sent, MicroClock.nowEpochMicros(), e);
        } catch (Exception e) {
            table.failed(row, sent, MicroClock.nowEpochMicros(), e);
        }
    }

    /**
     * One client's share of a block, closed loop; the timed path is the invocation and a few array stores. A client
     * that has sent a stretch's measured requests counts itself done with that stretch and, until every client of the
     * block is, keeps sending its operation unmeasured (phase {@code hold}): each measured request meets the same
     * number of busy clients doing the same thing, instead of a load that thins out as clients finish (without the
     * hold, the last views of a 4-client block ran up to 3× faster than the first, because the others had stopped).
     */
    private ProbeTable runClosedLoopClient(GridPlan.Block block, GridClient c, AtomicInteger completed,
            CountDownLatch[] stretchDone) throws InterruptedException {
        GridConfig config = block.config();
        int warmup = plan.design().warmupPerClient();
        int n = warmup + order.size();
        ProbeTable table = new ProbeTable(c.clientId(), n, block.replicate());
        int sizedBytes = config.reply().isOriginal() ? -1 : config.reply().bytes();
        boolean[] counted = new boolean[stretchDone.length];
        try {
            for (int i = 0; i < n && !aborted; i++) {
                Sent r = prepare(block, c, i);
                closedLoopRequest(r, c, table, sizedBytes, config.thinkMillis());
                if (r.phase() == ProbeTable.Phase.MEASURE) {
                    completed.incrementAndGet();
                    int k = order.stretchAt(i - warmup);
                    if (order.lastOf(k) == i - warmup) {
                        counted[k] = true;
                        hold(stretchDone[k], order.stretches().get(k).operation(), block, c, table, sizedBytes);
                    }
                }
            }
        } finally {
            // An aborted client must not hold the others forever.
            for (int k = 0; k < counted.length; k++) {
                if (!counted[k]) {
                    stretchDone[k].countDown();
                }
            }
        }
        return table;
    }

    /** Counts this client done with an operation, then sends it unmeasured until every client is done with it. */
    private void hold(CountDownLatch done, int operation, GridPlan.Block block, GridClient c, ProbeTable table,
            int sizedBytes) throws InterruptedException {
        done.countDown();
        while (done.getCount() > 0 && !aborted) {
            Sent r = prepare(c, block.config().reply(), block.id(), operation, ProbeTable.Phase.HOLD);
            closedLoopRequest(r, c, table, sizedBytes, block.config().thinkMillis());
        }
    }

    /** Sends one closed-loop request and thinks. */
    private void closedLoopRequest(Sent r, GridClient c, ProbeTable table, int sizedBytes, int thinkMillis)
            throws InterruptedException {
        int row = table.claim(r.header().seq(), r.request().method(), 0, r.phase());
        invoke(r, c, table, row, sizedBytes);
        table.setIntendedToSend(row); // closed loop: intended = sent
        if (thinkMillis > 0) {
            Thread.sleep(thinkMillis);
        }
    }

    /**
     * Warms a new lab up before the first block: every session sends {@code labWarmupPerClient} requests, closed loop
     * with no think time, the workload's operations in its order's proportions, cycling through the plan's reply sizes, so
     * that the replicas' JIT compilers and the database have seen every request path at load. The rows are kept
     * (phase warmup, in probes/warmup/) and audited, and never measured.
     */
    private List<ProbeTable> labWarmup(java.util.Map<ClientLevel, List<GridClient>> clients, ExecutorService pool)
            throws Exception {
        int n = plan.design().labWarmupPerClient();
        List<List<GridClient>> levels = List.copyOf(clients.values());
        int perClient = levels.isEmpty() ? 0 : levels.get(0).size();
        progress.printf(Locale.ROOT, "warming the lab up: %d requests per client, %d clients%s%n", n, perClient,
                levels.size() > 1 ? " (spread over the clients of the " + levels.size() + " strategy and platform "
                        + "levels)" : "");
        progress.flush();
        long t0 = System.nanoTime();
        List<Future<List<ProbeTable>>> futures = new ArrayList<>();
        List<ReplySize> replies = plan.replies();
        for (int c = 0; c < perClient; c++) {
            // client c of every strategy, in turn: the lab sees every strategy's traffic, interleaved
            List<GridClient> own = new ArrayList<>();
            for (List<GridClient> level : levels) {
                own.add(level.get(c));
            }
            futures.add(pool.submit(() -> {
                int each = (n + own.size() - 1) / own.size();
                List<ProbeTable> tables = new ArrayList<>();
                for (GridClient g : own) {
                    tables.add(new ProbeTable(g.clientId(), each, 1));
                }
                for (int i = 0; i < each * own.size() && !aborted; i++) {
                    int j = i / own.size();
                    GridClient g = own.get(i % own.size());
                    ReplySize reply = replies.get((j / 2) % replies.size());
                    Sent r = prepare(g, reply, "lab warm-up", order.warmupOperation(j), ProbeTable.Phase.WARMUP);
                    closedLoopRequest(r, g, tables.get(i % own.size()), reply.isOriginal() ? -1 : reply.bytes(), 0);
                }
                return tables;
            }));
        }
        List<ProbeTable> tables = new ArrayList<>();
        for (List<ProbeTable> t : await(futures, levels.stream().flatMap(List::stream).toList())) {
            tables.addAll(t);
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        double[] deciles = deciles(tables);
        dir.writeLabWarmup(tables, n, seconds, deciles[0], deciles[1]);
        progress.printf(Locale.ROOT, "lab warm-up done in %.1f s: mean latency %.2f ms in its first 10%%, %.2f ms in "
                + "its last 10%%%n", seconds, deciles[0] / 1e3, deciles[1] / 1e3);
        progress.flush();
        return tables;
    }

    /** Clients of one strategy through one platform: each level of those factors has its own. */
    private record ClientLevel(String strategy, Platform platform) {
    }

    /** The level of {@code block}'s clients: its strategy and platform, or the run's one of each. */
    private ClientLevel levelOf(GridPlan.Block block) {
        GridConfig c = block.config();
        return new ClientLevel(c.strategy() != null ? c.strategy() : strategies.keySet().iterator().next(),
                c.platform() != null ? Platform.parse(c.platform()) : platforms.get(0));
    }

    /**
     * Before a block of a run that varies the degree: the lab's view gets the block's degree (backups to the spare
     * pool and back, {@link GridLab#setDegree}), and the block starts once the view has it and every client of the
     * block follows that view (connected to its members, for the strategies that keep connections).
     */
    private void changeDegree(int replicas, List<GridClient> blockClients) throws IOException, InterruptedException {
        ManagerStatus before = lab.status();
        if (labDegree == 0) {
            labDegree = before.targetDegree();
        }
        if (before.targetDegree() != replicas) {
            org.ftlab.rm.api.DegreeChange.Result r = lab.setDegree(replicas);
            progress.printf(Locale.ROOT, "degree %d%s%s%n", replicas, r.left().isEmpty() ? ""
                    : ": " + String.join(", ", r.left()) + " to the spare pool", r.joined().isEmpty() ? ""
                    : ": " + String.join(", ", r.joined()) + " joined the view");
            progress.flush();
        }
        long deadline = System.nanoTime() + 180_000_000_000L;
        ManagerStatus s = lab.status();
        while (!aborted && !(s.fullDegree() && s.targetDegree() == replicas) && System.nanoTime() < deadline) {
            Thread.sleep(50);
            s = lab.status();
        }
        if (!aborted && !(s.fullDegree() && s.targetDegree() == replicas)) {
            throw new IllegalStateException("the lab did not reach degree " + replicas + " within 180 s (it serves "
                    + s.degree() + "): see the manager's log in the lab's run directory");
        }
        long epoch = s.epoch();
        while (!aborted && System.nanoTime() < deadline
                && !blockClients.stream().allMatch(c -> c.session().client.follows(epoch))) {
            Thread.sleep(20);
        }
    }

    /** After a run that varied the degree: the lab gets the degree it had before (it may serve other runs). */
    private void restoreDegree() {
        if (labDegree > 0) {
            try {
                if (lab.status().targetDegree() != labDegree) {
                    lab.setDegree(labDegree);
                }
            } catch (IOException | RuntimeException e) {
                progress.println("could not give the lab back its degree " + labDegree + ": " + e.getMessage());
            }
        }
    }

    /** Mean latency of each table's first and last 10% of completed rows, pooled, µs. */
    private static double[] deciles(List<ProbeTable> tables) {
        double first = 0;
        double last = 0;
        int count = 0;
        for (ProbeTable t : tables) {
            int decile = (int) Math.ceil(t.size() / 10.0);
            for (int k = 0; k < decile && k < t.size(); k++) {
                if (t.isOk(k) && t.isOk(t.size() - 1 - k)) {
                    first += t.latencyMicros(k);
                    last += t.latencyMicros(t.size() - 1 - k);
                    count++;
                }
            }
        }
        return count == 0 ? new double[] {0, 0} : new double[] {first / count, last / count};
    }

    /**
     * One client's share of a block, open loop: this thread keeps the schedule of intended send times (every 1/rate
     * s, or exponential gaps for Poisson arrivals, drawn from the run's seed) and hands each request to the client's
     * worker pool, never waiting for a reply. A request that finds every worker busy starts late; the probe row keeps
     * both times (intended and sent), so the wait counts in its latency and the lateness is visible.
     */
    private ProbeTable runOpenLoopClient(GridPlan.Block block, GridClient c, int clientIndex,
            AtomicInteger completed) throws InterruptedException {
        GridConfig config = block.config();
        int n = plan.design().warmupPerClient() + order.size();
        ProbeTable table = new ProbeTable(c.clientId(), n, block.replicate());
        int sizedBytes = config.reply().isOriginal() ? -1 : config.reply().bytes();
        int inFlightCap = maxInFlight(config.ratePerS());
        ExecutorService workers = c.session().workers(inFlightCap);
        // this block's cap on requests in flight, whatever size earlier blocks grew the client's pool to
        java.util.concurrent.Semaphore slots = new java.util.concurrent.Semaphore(inFlightCap);
        java.util.Random random = new java.util.Random(java.util.Objects.hash(plan.design().seed(), block.id(),
                clientIndex));
        double meanGapNanos = 1e9 / config.ratePerS();
        java.util.concurrent.Semaphore finished = new java.util.concurrent.Semaphore(0);
        int handedOut = 0;
        long startNanos = System.nanoTime();
        long startEpochUs = MicroClock.nowEpochMicros();
        long nextNanos = startNanos;
        for (int i = 0; i < n && !aborted; i++) {
            if (i > 0) {
                nextNanos += plan.design().arrival() == GridPlan.Arrival.POISSON
                        ? (long) (-Math.log(1 - random.nextDouble()) * meanGapNanos) : (long) meanGapNanos;
            }
            long wait;
            while ((wait = nextNanos - System.nanoTime()) > 0 && !aborted) {
                LockSupport.parkNanos(wait);
            }
            Sent r = prepare(block, c, i);
            int row = table.claim(r.header().seq(), r.request().method(), startEpochUs + (nextNanos - startNanos)
                    / 1000, r.phase());
            slots.acquire(); // every slot busy: this request (and those due after it) start late
            handedOut++;
            workers.execute(() -> {
                try {
                    invoke(r, c, table, row, sizedBytes);
                    if (r.phase() == ProbeTable.Phase.MEASURE) {
                        completed.incrementAndGet();
                    }
                } finally {
                    slots.release();
                    finished.release();
                }
            });
        }
        // every request handed out has completed its row (interruptible: a run that fails shuts the pools down)
        finished.acquire(handedOut);
        return table;
    }

    /** Workers an open-loop client keeps for {@code ratePerS}: {@value #IN_FLIGHT_SECONDS} s of requests, 8 to 256. */
    static int maxInFlight(double ratePerS) {
        return (int) Math.max(8, Math.min(256, Math.ceil(ratePerS * IN_FLIGHT_SECONDS) + 4));
    }

    /**
     * Marks requests that overlapped a replica failure, from its fault's injection (or its detection) until the new
     * primary served, and later ones that still went to the failed replica first (the client had not seen the new
     * view yet); and requests that overlapped an injected fault that failed no replica, from injection to repair.
     */
    private void joinFaults(List<ProbeTable> tables, ManagerStatus status) {
        java.util.Set<String> failed = new java.util.HashSet<>();
        for (FailureRecord f : ownFailures(status)) {
            failed.add(f.faultId());
            long from = f.startEpochUs();
            long to = Math.max(f.promotedEpochUs(), f.detectedEpochUs());
            for (ProbeTable t : tables) {
                t.markOverlapping(f.faultId(), from, to);
                t.markDivertedFrom(f.faultId(), f.replica(), from);
            }
        }
        for (InjectedFault f : ownFaults(status)) {
            if (!failed.contains(f.faultId())) {
                long to = f.active() ? MicroClock.nowEpochMicros() : f.repairedEpochUs();
                for (ProbeTable t : tables) {
                    t.markOverlapping(f.faultId(), f.injectedEpochUs(), to);
                }
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

    /** The lab's failures that began during this run. */
    private List<FailureRecord> ownFailures(ManagerStatus status) {
        return status.failures().stream().filter(f -> f.startEpochUs() >= sinceEpochUs).toList();
    }

    /** The faults injected during this run. */
    private List<InjectedFault> ownFaults(ManagerStatus status) {
        return status.faults().stream().filter(f -> f.injectedEpochUs() >= sinceEpochUs).toList();
    }

    private void writeFaults(ManagerStatus status) throws IOException {
        dir.writeFaults(ownFaults(status), ownFailures(status));
    }

    private void awaitFullDegree() throws IOException, InterruptedException {
        long deadline = System.nanoTime() + 180_000_000_000L;
        while (!aborted && System.nanoTime() < deadline) {
            if (lab.status().fullDegree()) {
                return;
            }
            Thread.sleep(100);
        }
    }

    private String eta(List<GridPlan.Block> remaining) {
        double ms = 0;
        int perClient = plan.design().warmupPerClient() + order.size();
        for (GridPlan.Block b : remaining) {
            GridConfig c = b.config();
            ms += perClient * (c.openLoop() ? 1000 / c.ratePerS()
                    : c.thinkMillis() + meanLatencyMillis * Math.max(1, c.clients() / 2.0));
        }
        long s = Math.round(ms / 1000);
        return s < 120 ? s + " s" : s < 7200 ? (s / 60) + " min" : String.format(Locale.ROOT, "%.1f h", s / 3600.0);
    }

    private static int rows(List<ProbeTable> tables) {
        return tables.stream().mapToInt(ProbeTable::size).sum();
    }
}
