package org.ftlab.harness.grid;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import org.ftlab.auction.api.MicroClock;
import org.ftlab.auction.api.ReplySize;
import org.ftlab.auction.api.RequestHeader;
import org.ftlab.harness.failover.ClientTuning;
import org.ftlab.harness.failover.PluginStrategies;
import org.ftlab.harness.failover.Shadow;
import org.ftlab.harness.failover.Strategies;
import org.ftlab.harness.history.History;
import org.ftlab.harness.lab.ManagedLab;
import org.ftlab.harness.probe.ProbeTable;
import org.ftlab.harness.probe.RunSettings;
import org.ftlab.harness.workload.ClientSession;
import org.ftlab.harness.workload.OperationOrder;
import org.ftlab.harness.workload.Workload;
import org.ftlab.harness.workload.Workloads;
import org.ftlab.rm.api.Platform;

/**
 * Runs a {@link GridPlan} against a running lab, block by block in the plan's schedule (every configuration's
 * replicates, in random or grid order): each block's clients run concurrently (one thread, one proxy and one
 * clientId each, for the whole run), first {@code warmup} requests of the configuration's own mix (recorded, marked
 * {@code warmup}), then the measured requests of the run's {@link Workload} in the order it chose
 * ({@link Workload#order}; the auction's: posts, then views), closed loop (think time) or open loop (a schedule of
 * intended send times the client keeps whatever the replies do). Probes go to preallocated tables and are written
 * after the block, atomically, as {@code probes/<block>.csv}. Faults are injected as the {@link FaultSchedule} says
 * and joined to the requests they overlapped. Every operation, the warm-up's and the clients' setup included, and
 * every fault enter the run's {@link History}, written after each block as a part of {@code history/}; after the last
 * block the workload's final reads join it. After the run the workload's checker audits it (the auction's: every
 * post exactly once in the database), the completed requests of an interrupted block included.
 *
 * <p>This class composes the run's parts, each a class of its own: {@link LabPreparation} readies the lab,
 * {@link RunClients} opens the clients, {@link LabWarmup} warms a new lab up, {@link BlockLoop} runs and records the
 * blocks (each through {@link BlockRunner}, with {@link ClosedLoopClient} and its {@link Holds}, or
 * {@link OpenLoopClient}, sending through {@link RequestSender}), {@link DegreeChanges} moves the replication degree,
 * {@link FaultInjector} times the faults and {@link RunFaults} joins and records them, and {@link RunEnd} checks and
 * records how the run ended.
 */
public final class GridRunner {
    /** A request that starts more than this after its intended send time counts as late (open loop). */
    public static final long LATE_START_MICROS = 1_000;
    private final GridLab lab;
    private final RunDirectory dir;
    private final GridPlan plan;
    private final Workload workload;
    /** A client's share of each block: its warm-up requests, then the workload's order. */
    private final ClientShare share;
    /** The strategy of each level the blocks use, in the plan's order (one when the run does not vary it). */
    private final Map<String, Strategies.Kind> strategies = new LinkedHashMap<>();
    /** The middleware platforms the blocks use, in the plan's order (one when the run does not vary it). */
    private final List<Platform> platforms;
    private final ClientTuning tuning;
    private final FaultSchedule faults;
    private final PrintWriter progress;
    private final RunControl control = new RunControl();
    private BeforeBlock beforeBlock = (block, clients) -> {
    };

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
        OperationOrder order = workload.order(plan.postsPerClient(), plan.viewsPerClient());
        this.share = new ClientShare(plan.design().warmupPerClient(), order);
        RunSettings settings = dir.settings();
        this.platforms = plan.platformsOr(dir.platform()).stream().map(Platform::parse).toList();
        for (String name : plan.strategiesOr(dir.strategy())) {
            strategies.put(name, Strategies.resolve(name, PluginStrategies.isPlugin(name) ? settings.pluginPath()
                    : null, ClientSession.GIVE_UP));
        }
        this.tuning = settings.clientTuning();
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
        control.abort();
    }

    /** Runs the blocks not done yet; returns true if all are done (false if aborted). */
    public boolean run() throws Exception {
        // Every run starts on a fully replicated lab (an earlier run's crash may still be under repair), and owns
        // only the failures from here on: the lab may outlive several runs.
        LabPreparation preparation = new LabPreparation(lab, control, progress);
        preparation.awaitFullDegree();
        RunFaults runFaults = new RunFaults(lab, dir, control, MicroClock.nowEpochMicros());
        List<GridPlan.Block> schedule = plan.schedule();
        List<GridPlan.Block> todo = notDone(schedule);
        String runTag = Long.toString(System.currentTimeMillis(), 36);
        RequestSender sender = new RequestSender(tuning.shadowShare() > 0, control);
        DegreeChanges degree = new DegreeChanges(lab, control, progress);
        RunClients clients = new RunClients(strategies, platforms);
        List<ProbeTable> all = new ArrayList<>();
        DatabaseWork database = null;
        ExecutorService pool = Executors.newFixedThreadPool(plan.maxClients(), daemon("grid-client"));
        History history = History.of(dir.path());
        FaultInjector injector = new FaultInjector(lab, faults, progress, history);
        try {
            if (!todo.isEmpty()) {
                preparation.prepare(faults.enabled(), workload);
                clients.open(lab, workload, tuning, plan.maxClients(), runTag, control, history);
                database = DatabaseWork.before(lab.runDir(), progress);
                all.addAll(labWarmup(clients, pool, sender));
                history.flush();
            }
            injector.start();
            all.addAll(blockLoop(sender, degree, runFaults, history).run(schedule, todo, clients, pool, injector));
            if (!todo.isEmpty() && control.going()) {
                finalReads(clients);
            }
        } finally {
            try {
                release(degree, injector, pool, clients);
            } finally {
                history.flush(); // what was recorded, however the run ended
            }
        }
        return new RunEnd(lab, dir, workload, runFaults, control, progress).finish(all, database);
    }

    /** The blocks of {@code schedule} not done yet, in its order; says so when some are (a resumed run). */
    private List<GridPlan.Block> notDone(List<GridPlan.Block> schedule) {
        List<GridPlan.Block> todo = schedule.stream().filter(b -> !dir.isDone(b)).toList();
        if (todo.size() < schedule.size()) {
            progress.printf(Locale.ROOT, "resuming: %d of %d blocks already done%n", schedule.size() - todo.size(),
                    schedule.size());
        }
        return todo;
    }

    /** The workload's final reads, by the run's first client, once the last block is over (in the history). */
    private void finalReads(RunClients clients) {
        GridClient first = clients.all().get(0);
        List<RequestHeader> headers = new ArrayList<>();
        List<Workload.Request> reads = first.workload().finalReads(() -> {
            RequestHeader h = first.session().next(ReplySize.ORIGINAL);
            headers.add(h);
            return h;
        });
        int failed = 0;
        for (int i = 0; i < reads.size(); i++) {
            Workload.Request r = reads.get(i);
            Exception e = RequestSender.untimed(r, headers.get(i).seq(), first);
            if (e != null) {
                failed++;
                progress.println("final read " + r.method() + " failed: " + e.getClass().getSimpleName() + ": "
                        + e.getMessage());
            }
        }
        if (!reads.isEmpty()) {
            progress.printf(Locale.ROOT, "final reads: %d of %d answered (in the history)%n", reads.size() - failed,
                    reads.size());
        }
    }

    /** The lab warm-up's tables, when the plan has one and the run goes on; none otherwise. */
    private List<ProbeTable> labWarmup(RunClients clients, ExecutorService pool, RequestSender sender)
            throws Exception {
        if (plan.design().labWarmupPerClient() == 0 || control.aborted()) {
            return List.of();
        }
        return new LabWarmup(plan, share.order(), dir, sender, control, progress).run(clients.levels(), pool);
    }

    /**
     * What the run took, given back however it ended: the lab's degree, the faults not injected (recorded), the
     * threads and the clients (their shadow traffic reported).
     */
    private void release(DegreeChanges degree, FaultInjector injector, ExecutorService pool, RunClients clients)
            throws IOException {
        degree.restore();
        List<String> notInjected = injector.stop();
        if (!notInjected.isEmpty()) {
            dir.recordNotInjected(notInjected);
        }
        pool.shutdownNow();
        clients.close();
        reportShadows(clients);
    }

    /** The loop over the blocks, its parts composed. */
    private BlockLoop blockLoop(RequestSender sender, DegreeChanges degree, RunFaults runFaults, History history) {
        BlockRunner blocks = new BlockRunner(share, new ClosedLoopClient(share, sender, control),
                new OpenLoopClient(share, plan.design(), sender, control), control);
        return new BlockLoop(plan, dir, lab, blocks, degree, runFaults, beforeBlock, new Eta(share.size()), control,
                progress, history);
    }

    /** With shadow traffic: what the clients' shadows came to. */
    private void reportShadows(RunClients clients) {
        if (tuning.shadowShare() > 0) {
            Shadow.Counts sh = clients.shadowCounts();
            progress.printf(Locale.ROOT, "shadows (%.1f%% of requests, to every backup): %d queued, %d answered by "
                    + "a backup, %d failed, %d dropped (the sender was behind)%n", 100 * tuning.shadowShare(),
                    sh.offered(), sh.answered(), sh.failed(), sh.dropped());
        }
    }

    private static ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }
}
