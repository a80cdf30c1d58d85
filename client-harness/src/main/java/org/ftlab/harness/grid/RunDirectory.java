package org.ftlab.harness.grid;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.management.OperatingSystemMXBean;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import org.ftlab.auction.api.ReplySize;
import org.ftlab.harness.failover.PluginStrategies;
import org.ftlab.harness.failover.Strategies;
import org.ftlab.harness.history.History;
import org.ftlab.harness.probe.ClientCalibration;
import org.ftlab.harness.probe.FaultRecord;
import org.ftlab.harness.probe.FaultsCsv;
import org.ftlab.harness.probe.Manifest;
import org.ftlab.harness.probe.ProbeFile;
import org.ftlab.harness.probe.ProbeTable;
import org.ftlab.harness.probe.RunSettings;
import org.ftlab.harness.workload.Workload;
import org.ftlab.harness.workload.Workloads;
import org.ftlab.os.AtomicFiles;
import org.ftlab.rm.api.FailureRecord;
import org.ftlab.rm.api.FaultKind;
import org.ftlab.rm.api.FaultSpec;
import org.ftlab.rm.api.InjectedFault;
import org.ftlab.rm.api.Platform;

/**
 * A grid run's directory, the public interface users' scripts read (docs/probe-format.md): {@code manifest.json},
 * {@code probes/<block>.csv}, {@code faults.csv}. Every file is written to a temporary name and renamed, so a file
 * under its final name is always whole; a block (a configuration's replicate) is done exactly when its probe file
 * exists. The completed requests of a block that was interrupted are kept in {@code probes/partial/}, never counted
 * as done: the block runs again on resume.
 */
public final class RunDirectory {
    public static final String MANIFEST = Manifest.FILE;

    private final Path dir;
    private Manifest manifest;

    private RunDirectory(Path dir, Manifest manifest) {
        this.dir = dir;
        this.manifest = manifest;
    }

    /**
     * A new run: writes a manifest with status {@code running}. A random order without a seed gets one drawn here,
     * recorded with the schedule it gives.
     */
    public static RunDirectory create(Path dir, GridPlan plan, String strategy, FaultSchedule faults,
            int replicas, int spares, String database, Path home) throws IOException {
        return create(dir, plan, strategy, faults, replicas, spares, database, home, RunSettings.DEFAULTS);
    }

    /** As above, with the run's knobs ({@code settings} in the manifest). */
    public static RunDirectory create(Path dir, GridPlan plan, String strategy, FaultSchedule faults,
            int replicas, int spares, String database, Path home, RunSettings settings) throws IOException {
        return create(dir, plan, Workloads.DEFAULT, strategy, faults, replicas, spares, database, home, settings);
    }

    /** As above, for the workload named {@code workload} ({@code workload} in the manifest). */
    public static RunDirectory create(Path dir, GridPlan plan, String workload, String strategy,
            FaultSchedule faults, int replicas, int spares, String database, Path home, RunSettings settings)
            throws IOException {
        return create(dir, plan, workload, strategy, "ejb", faults, replicas, spares, database, home, settings);
    }

    /**
     * As above, with the clients reaching the service through middleware {@code platform} ({@code platform} in the
     * manifest; the plan's first level when it varies it).
     */
    public static RunDirectory create(Path dir, GridPlan plan, String workload, String strategy, String platform,
            FaultSchedule faults, int replicas, int spares, String database, Path home, RunSettings settings)
            throws IOException {
        return create(dir, plan, workload, null, strategy, platform, faults, replicas, spares, database, home,
                settings);
    }

    /**
     * As above, with what the workload is given beyond its name ({@code workload_parameters}, as its options wrote
     * them; null: nothing).
     */
    public static RunDirectory create(Path dir, GridPlan plan, String workload, ObjectNode workloadParameters,
            String strategy, String platform, FaultSchedule faults, int replicas, int spares, String database,
            Path home, RunSettings settings) throws IOException {
        platform = Platform.parse(platform).wireName();
        // a clear error before anything is written: an unknown workload, parameters or counts it does not take
        Workload w = Workloads.named(workload, workloadParameters);
        w.order(plan.postsPerClient(), plan.viewsPerClient());
        if (!w.takesSizedReplies() && plan.replies().stream().anyMatch(r -> !r.isOriginal())) {
            throw new IllegalArgumentException("workload " + w.name() + " reads the values of its replies, which sized "
                    + "replies do not carry: give --reply orig");
        }
        if (plan.design().seed() == null) {
            plan = plan.withDesign(plan.design().withSeed(new SecureRandom().nextLong() >>> 1));
        }
        Files.createDirectories(dir.resolve("probes"));
        GridPlan.Design d = plan.design();
        Manifest.Grid grid = new Manifest.Grid(plan.clients(), plan.thinkMillis(),
                plan.replies().stream().map(ReplySize::toString).toList(), plan.postsPerClient(),
                plan.viewsPerClient(), plan.configurations().size(), d.warmupPerClient(), d.repeat(),
                d.order().wireName(), d.seed(), d.arrival().wireName(), d.ratesPerS(), d.labWarmupPerClient(),
                plan.schedule().stream().map(GridPlan.Block::id).toList(),
                plan.infra().variesStrategy() ? plan.infra().strategies().stream().map(RunDirectory::strategyName)
                        .toList() : null,
                plan.infra().variesReplicas() ? plan.infra().replicas() : null,
                plan.infra().variesPlatform() ? plan.infra().platforms() : null);
        String scheduleFile = null;
        if (faults.enabled()) {
            scheduleFile = FaultSchedule.FILE;
            String text = faults.format();
            FaultSchedule.parse(text, FaultSchedule.FILE).checkBlocks(plan.blockCount()); // reads back, before a lab
            AtomicFiles.write(dir.resolve(FaultSchedule.FILE), text);
        }
        Manifest.Faults f = Manifest.Faults.of(faults.origin(), faults.entries().size(),
                faults.kinds().stream().map(FaultKind::wireName).toList(), scheduleFile);
        String now = Instant.now().toString();
        Manifest m = new Manifest(Manifest.FORMAT_VERSION, "running", plan.profile(), workload, grid,
                strategyName(strategy), settings, f, replicas, spares, database, versions(),
                System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"),
                new Manifest.Host(Manifest.Host.localName(), System.getProperty("os.name") + " " + System.getProperty("os.version")
                        + " " + System.getProperty("os.arch"), Runtime.getRuntime().availableProcessors(),
                        totalMemory()), gitRevision(home), now, null, List.of(), List.of(),
                List.of(new Manifest.Segment(now, null, null)), List.of(), List.of(), null, null, platform,
                workloadParameters, History.FORMAT);
        RunDirectory run = new RunDirectory(dir, m);
        run.saveManifest();
        // what ftlab's own client adds on this machine, as the calibration bench last measured it: the report says so
        ClientCalibration.copyInto(ClientCalibration.cacheDir(), dir);
        return run;
    }

    /** An earlier, unfinished run to resume; refuses a complete one. */
    public static RunDirectory resume(Path dir) throws IOException {
        Manifest m = Manifest.readAny(dir);
        if ("complete".equals(m.status())) {
            throw new IllegalArgumentException(dir + " holds a complete run; choose a new --out");
        }
        RunDirectory run = new RunDirectory(dir, m.withSegmentStarted(Instant.now().toString()));
        run.saveManifest();
        return run;
    }

    public static boolean hasManifest(Path dir) {
        return Manifest.existsIn(dir);
    }

    /** The plan recorded in the manifest (for a resumed run). */
    public GridPlan plan() {
        Manifest.Grid g = manifest.grid();
        List<ReplySize> replies = g.reply().stream().map(ReplySize::parse).toList();
        // A manifest from before the design was recorded: the plain design it was run with.
        GridPlan.Design design = !g.hasDesign() ? GridPlan.Design.PLAIN
                : new GridPlan.Design(g.warmupPerClient(), g.repeat() == null ? 1 : g.repeat(),
                        GridPlan.Order.parse(g.order()), g.seed(),
                        GridPlan.Arrival.parse(g.arrival() == null ? "closed" : g.arrival()),
                        g.ratePerS() == null ? List.of() : g.ratePerS(),
                        g.labWarmupPerClient() == null ? 0 : g.labWarmupPerClient());
        GridPlan.Infra infra = new GridPlan.Infra(g.strategy() == null ? List.of() : g.strategy(),
                g.replicas() == null ? List.of() : g.replicas(), g.platform() == null ? List.of() : g.platform());
        return new GridPlan(manifest.profile(), g.clients(), g.thinkMs(), replies, infra, g.postsPerClient(),
                g.viewsPerClient(), design);
    }

    /** What the workload was given beyond its name, as its options wrote it; null when nothing. */
    public ObjectNode workloadParameters() {
        return manifest.workloadParameters();
    }

    /** The workload's name ({@code auction} for runs from before workloads were named). */
    public String workload() {
        return manifest.workload();
    }

    /** The middleware platform's name ({@code ejb} for runs from before it was recorded). */
    public String platform() {
        return manifest.platform();
    }

    /** The fail-over strategy's name: a built-in one's, or {@code class:NAME} for a plug-in. */
    public String strategy() {
        return strategyName(manifest.failoverStrategy());
    }

    private static String strategyName(String given) {
        return PluginStrategies.isPlugin(given) ? given.trim() : Strategies.named(given).name();
    }

    /** The run's knobs; the defaults for a run from before they were recorded. */
    public RunSettings settings() {
        return manifest.settings();
    }

    /** Why the run stopped before its end, when it was not a Ctrl-C: one line, in the manifest's {@code error}. */
    public synchronized void recordError(String line) throws IOException {
        manifest = manifest.withError(line);
        saveManifest();
    }

    /** The fault schedule the run was made with: its {@value FaultSchedule#FILE}, or an older manifest's shorthand. */
    public FaultSchedule faults() throws IOException {
        Manifest.Faults f = manifest.faults();
        if (f.schedule() != null) {
            Path file = dir.resolve(f.schedule());
            return FaultSchedule.parse(Files.readString(file, StandardCharsets.UTF_8), f.origin());
        }
        if (f.origin() != null) {
            return FaultSchedule.NONE;
        }
        return FaultSchedule.shorthand(f.kind() == null ? "none" : f.kind(), f.everyS() == null ? 0 : f.everyS(),
                f.perConfig() == null ? 0 : f.perConfig(), plan().blockCount());
    }

    /** How the schedule was made ({@code none}, a file, a seed, a shorthand). */
    public String faultOrigin() {
        Manifest.Faults f = manifest.faults();
        return f.origin() != null ? f.origin() : "--faults " + (f.kind() == null ? "none" : f.kind());
    }

    /**
     * Whether the run's lab must be WildFly's cluster: a strategy level of the run is the baseline
     * {@code wildfly-cluster}, which only such a lab serves.
     */
    public boolean needsWildFlyCluster() {
        GridPlan.Infra infra = plan().infra();
        List<String> strategies = infra.variesStrategy() ? infra.strategies() : List.of(strategy());
        return strategies.contains(Strategies.WILDFLY_CLUSTER);
    }

    public int replicas() {
        return manifest.replicas() == null ? 2 : manifest.replicas();
    }

    /** Pre-booted spares the lab kept (0 for runs from before spares existed). */
    public int spares() {
        return manifest.spares() == null ? 0 : manifest.spares();
    }

    public Path path() {
        return dir;
    }

    public boolean isDone(GridPlan.Block block) {
        return Files.exists(probeFile(block));
    }

    public Path probeFile(GridPlan.Block block) {
        return dir.resolve("probes").resolve(block.id() + ".csv");
    }

    /** A finished block: its probe file, and its id appended to the manifest's {@code configs_done}. */
    public synchronized void writeProbes(GridPlan.Block block, List<ProbeTable> tables) throws IOException {
        ProbeTable.writeCsv(probeFile(block), tables);
        manifest = manifest.withConfigDone(block.id());
        saveManifest();
    }

    /**
     * An interrupted block: the requests it completed, in {@code probes/partial/<block>-seg<N>.csv} (the segment
     * that ran it), listed under the manifest's {@code partial}; the block is not done and runs again on resume.
     */
    public synchronized Path writePartial(GridPlan.Block block, List<ProbeTable> tables) throws IOException {
        Path file = dir.resolve("probes").resolve("partial").resolve(block.id() + "-seg" + segmentCount() + ".csv");
        ProbeTable.writeCsv(file, tables);
        manifest = manifest.withPartial(dir.relativize(file).toString());
        saveManifest();
        return file;
    }

    /**
     * The lab warm-up of this segment: its rows in {@code probes/warmup/lab-seg<N>.csv} (phase warmup; not read by
     * the analysis) and a summary under the manifest's {@code lab_warmup}: requests per client, seconds, and the mean
     * latency of the first and last 10% of them.
     */
    public synchronized void writeLabWarmup(List<ProbeTable> tables, int perClient, double seconds,
            double firstDecileMeanUs, double lastDecileMeanUs) throws IOException {
        Path file = dir.resolve("probes").resolve("warmup").resolve("lab-seg" + segmentCount() + ".csv");
        ProbeTable.writeCsv(file, tables);
        manifest = manifest.withLabWarmup(new Manifest.LabWarmup(segmentCount(), dir.relativize(file).toString(),
                perClient, seconds, firstDecileMeanUs, lastDecileMeanUs));
        saveManifest();
    }

    /**
     * {@code faults.csv} ({@link FaultsCsv}): one row per injected fault, with the phases of the first replica failure
     * it caused (if any), and one row per failure nobody injected (kind and target empty). A resumed run starts a new
     * Replication Manager with new fault ids: each segment keeps its own file.
     */
    public synchronized void writeFaults(List<InjectedFault> faults, List<FailureRecord> failures)
            throws IOException {
        List<FaultRecord> rows = new ArrayList<>();
        Set<String> injected = new HashSet<>();
        for (InjectedFault f : faults) {
            injected.add(f.faultId());
            List<FailureRecord> caused = failures.stream().filter(r -> r.faultId().equals(f.faultId())).toList();
            FailureRecord first = caused.isEmpty() ? null : caused.get(0);
            FaultSpec spec = f.spec();
            rows.add(new FaultRecord(f.faultId(), spec.kind(), spec.target().toString(),
                    first != null ? first.replica() : f.replica() == null ? "" : f.replica(),
                    time(f.injectedEpochUs()), time(first == null ? 0 : first.detectedEpochUs()),
                    time(first == null ? 0 : first.promotedEpochUs()), time(first == null ? 0 : first.restoredEpochUs()),
                    first == null ? FaultRecord.UNKNOWN : first.sparesReady(), time(f.repairedEpochUs()),
                    f.repair().wireName(), spec.durationMillis(), spec.amount(),
                    first == null ? "" : first.verdict().wireName(), caused.size(), promoted(first),
                    promotedShare(first)));
        }
        for (FailureRecord r : failures) {
            if (!injected.contains(r.faultId())) {
                rows.add(new FaultRecord(r.faultId(), null, "", r.replica(), ProbeFile.NONE,
                        time(r.detectedEpochUs()), time(r.promotedEpochUs()), time(r.restoredEpochUs()),
                        r.sparesReady(), ProbeFile.NONE, "", 0, 0, r.verdict().wireName(), 1, promoted(r),
                        promotedShare(r)));
            }
        }
        FaultsCsv.write(FaultsCsv.file(dir, segmentCount()), rows);
    }

    private static String promoted(FailureRecord r) {
        return r == null || r.promoted() == null ? "" : r.promoted();
    }

    private static double promotedShare(FailureRecord r) {
        return r == null || r.promotedTopTierShare() == null ? Double.NaN : r.promotedTopTierShare();
    }

    /** A manager's time (0: the step did not happen) as a probe time. */
    private static long time(long epochUs) {
        return epochUs == 0 ? ProbeFile.NONE : epochUs;
    }

    /**
     * This segment's recorded events: the file each process wrote into {@code events/} (process → its path) and the
     * processes that wrote none, one line each (docs/probe-format.md).
     */
    public synchronized void recordEvents(Map<String, Path> files, List<String> failed) throws IOException {
        Map<String, String> relative = new TreeMap<>();
        files.forEach((process, file) -> relative.put(process, dir.relativize(file.toAbsolutePath()).toString()));
        manifest = manifest.withEvents(relative, failed);
        saveManifest();
    }

    /** Where this segment's processes write their events: {@code events/<process>-seg<N>.jfr}. */
    public Path eventFile(String process) {
        return dir.resolve("events").resolve(process + eventSuffix() + ".jfr");
    }

    /** The end of this segment's event files' names: {@code -seg<N>}. */
    public String eventSuffix() {
        return "-seg" + segmentCount();
    }

    /**
     * Where the lab ran: {@code local}, or {@code netns} with the virtual network's prefix and the namespaces' tag
     * (one entry per segment, in {@code topology}).
     */
    public synchronized void recordTopology(String topology) throws IOException {
        manifest = manifest.withTopology(topology);
        saveManifest();
    }

    /** Scheduled faults that were never injected, and why, under the manifest's {@code faults.not_injected}. */
    public synchronized void recordNotInjected(List<String> lines) throws IOException {
        manifest = manifest.withNotInjected(lines);
        saveManifest();
    }

    private int segmentCount() {
        return manifest.segments().size();
    }

    /** The checker's verdict, under the manifest's {@code audit} (its first 20 problems). */
    public synchronized void recordAudit(Workload.Verdict audit) throws IOException {
        manifest = manifest.withAudit(new Manifest.Audit(audit.checked(), audit.passed(),
                audit.problems().stream().limit(20).toList(), audit.oracle()));
        saveManifest();
    }

    /** Ends the run: {@code complete} or {@code aborted}. */
    public synchronized void finish(String status) throws IOException {
        manifest = manifest.withFinished(status, Instant.now().toString());
        saveManifest();
    }

    private void saveManifest() throws IOException {
        manifest.writeTo(dir);
    }

    private static Map<String, String> versions() {
        Map<String, String> v = new LinkedHashMap<>();
        Properties p = new Properties();
        try (InputStream in = RunDirectory.class.getResourceAsStream("/ftlab-versions.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            // versions stay unknown
        }
        p.stringPropertyNames().stream().sorted().forEach(k -> v.put(k, p.getProperty(k)));
        v.put("java", System.getProperty("java.version"));
        return v;
    }

    private static long totalMemory() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof OperatingSystemMXBean os
                ? os.getTotalMemorySize() : -1;
    }

    /** The checked-out revision, with {@code -dirty} when there are local changes; "unknown" outside git. */
    static String gitRevision(Path home) {
        try {
            String rev = run(home, "git", "rev-parse", "HEAD").strip();
            if (rev.isEmpty()) {
                return "unknown";
            }
            String changes = run(home, "git", "status", "--porcelain", "--untracked-files=no");
            return changes.isBlank() ? rev : rev + "-dirty";
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static String run(Path dir, String... cmd) throws IOException {
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(false).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            return p.waitFor() == 0 ? out : "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }
}
