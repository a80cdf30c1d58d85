package org.ftlab.harness.grid;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.ftlab.auction.api.ReplySize;
import org.ftlab.harness.failover.PluginStrategies;
import org.ftlab.harness.failover.Strategies;
import org.ftlab.harness.probe.ExactlyOnceAudit;
import org.ftlab.harness.probe.ProbeTable;
import org.ftlab.harness.probe.RunSettings;
import org.ftlab.rm.api.FailureRecord;
import org.ftlab.rm.api.FaultSpec;
import org.ftlab.rm.api.InjectedFault;
import org.ftlab.rm.os.AtomicFiles;

/**
 * A grid run's directory, the public interface users' scripts read (docs/probe-format.md): {@code manifest.json},
 * {@code probes/<block>.csv}, {@code faults.csv}. Every file is written to a temporary name and renamed, so a file
 * under its final name is always whole; a block (a configuration's replicate) is done exactly when its probe file
 * exists. The completed requests of a block that was interrupted are kept in {@code probes/partial/}, never counted
 * as done: the block runs again on resume.
 */
public final class RunDirectory {
    public static final String MANIFEST = "manifest.json";
    /** {@code faults.csv}'s columns (docs/probe-format.md). */
    public static final String FAULTS_HEADER = "fault_id,kind,target,replica,injected_epoch_us,detected_epoch_us,"
            + "promoted_epoch_us,restored_epoch_us,spares_ready,repaired_epoch_us,repair,duration_ms,amount,verdict,"
            + "failures";
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final Path dir;
    private final ObjectNode manifest;

    private RunDirectory(Path dir, ObjectNode manifest) {
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
        if (plan.design().seed() == null) {
            plan = plan.withDesign(plan.design().withSeed(new java.security.SecureRandom().nextLong() >>> 1));
        }
        Files.createDirectories(dir.resolve("probes"));
        ObjectNode m = JSON.createObjectNode();
        m.put("status", "running");
        m.put("profile", plan.profile());
        ObjectNode grid = m.putObject("grid");
        grid.set("clients", JSON.valueToTree(plan.clients()));
        grid.set("think_ms", JSON.valueToTree(plan.thinkMillis()));
        ArrayNode replies = grid.putArray("reply");
        plan.replies().forEach(r -> replies.add(r.toString()));
        grid.put("posts_per_client", plan.postsPerClient());
        grid.put("views_per_client", plan.viewsPerClient());
        grid.put("configurations", plan.configurations().size());
        GridPlan.Design d = plan.design();
        grid.put("warmup_per_client", d.warmupPerClient());
        grid.put("repeat", d.repeat());
        grid.put("order", d.order().wireName());
        grid.put("seed", d.seed());
        grid.put("arrival", d.arrival().wireName());
        grid.set("rate_per_s", JSON.valueToTree(d.ratesPerS()));
        grid.put("lab_warmup_per_client", d.labWarmupPerClient());
        ArrayNode schedule = grid.putArray("schedule");
        plan.schedule().forEach(b -> schedule.add(b.id()));
        m.put("failover_strategy", strategyName(strategy));
        m.set("settings", JSON.valueToTree(settings));
        ObjectNode f = m.putObject("faults");
        f.put("origin", faults.origin());
        f.put("count", faults.entries().size());
        ArrayNode kinds = f.putArray("kinds");
        faults.kinds().forEach(k -> kinds.add(k.wireName()));
        if (faults.enabled()) {
            f.put("schedule", FaultSchedule.FILE);
            String text = faults.format();
            FaultSchedule.parse(text, FaultSchedule.FILE).checkBlocks(plan.blockCount()); // reads back, before a lab
            AtomicFiles.write(dir.resolve(FaultSchedule.FILE), text);
        }
        m.put("replicas", replicas);
        m.put("spares", spares);
        m.put("database", database);
        m.set("versions", versions());
        m.put("jvm", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
        ObjectNode host = m.putObject("host");
        host.put("name", hostName());
        host.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                + System.getProperty("os.arch"));
        host.put("cpus", Runtime.getRuntime().availableProcessors());
        host.put("memory_bytes", totalMemory());
        m.put("git_revision", gitRevision(home));
        m.put("start", Instant.now().toString());
        m.putNull("end");
        m.putArray("configs_done");
        m.putArray("partial");
        m.putArray("segments").addObject().put("start", Instant.now().toString());
        RunDirectory run = new RunDirectory(dir, m);
        run.saveManifest();
        return run;
    }

    /** An earlier, unfinished run to resume; refuses a complete one. */
    public static RunDirectory resume(Path dir) throws IOException {
        ObjectNode m = (ObjectNode) JSON.readTree(dir.resolve(MANIFEST).toFile());
        if ("complete".equals(m.path("status").asText())) {
            throw new IllegalArgumentException(dir + " holds a complete run; choose a new --out");
        }
        m.put("status", "running");
        m.putNull("end");
        ((ArrayNode) m.withArray("segments")).addObject().put("start", Instant.now().toString());
        RunDirectory run = new RunDirectory(dir, m);
        run.saveManifest();
        return run;
    }

    public static boolean hasManifest(Path dir) {
        return Files.exists(dir.resolve(MANIFEST));
    }

    /** The plan recorded in the manifest (for a resumed run). */
    public GridPlan plan() {
        JsonNode g = manifest.path("grid");
        List<Integer> clients = new ArrayList<>();
        g.path("clients").forEach(n -> clients.add(n.asInt()));
        List<Integer> think = new ArrayList<>();
        g.path("think_ms").forEach(n -> think.add(n.asInt()));
        List<ReplySize> replies = new ArrayList<>();
        g.path("reply").forEach(n -> replies.add(ReplySize.parse(n.asText())));
        List<Double> rates = new ArrayList<>();
        g.path("rate_per_s").forEach(n -> rates.add(n.asDouble()));
        // A manifest from before the design was recorded: the plain design it was run with.
        GridPlan.Design design = !g.has("order") ? GridPlan.Design.PLAIN
                : new GridPlan.Design(g.path("warmup_per_client").asInt(), g.path("repeat").asInt(1),
                        GridPlan.Order.parse(g.path("order").asText()), g.path("seed").asLong(),
                        GridPlan.Arrival.parse(g.path("arrival").asText("closed")), rates,
                        g.path("lab_warmup_per_client").asInt());
        return new GridPlan(manifest.path("profile").asText(), clients, think, replies,
                g.path("posts_per_client").asInt(), g.path("views_per_client").asInt(), design);
    }

    /** The fail-over strategy's name: a built-in one's, or {@code class:NAME} for a plug-in. */
    public String strategy() {
        return strategyName(manifest.path("failover_strategy").asText());
    }

    private static String strategyName(String given) {
        return PluginStrategies.isPlugin(given) ? given.trim() : Strategies.named(given).name();
    }

    /** The run's knobs; the defaults for a run from before they were recorded. */
    public RunSettings settings() throws IOException {
        JsonNode s = manifest.get("settings");
        return s == null || s.isNull() ? RunSettings.DEFAULTS : JSON.treeToValue(s, RunSettings.class);
    }

    /** Why the run stopped before its end, when it was not a Ctrl-C: one line, in the manifest's {@code error}. */
    public synchronized void recordError(String line) throws IOException {
        manifest.put("error", line);
        saveManifest();
    }

    /** The fault schedule the run was made with: its {@value FaultSchedule#FILE}, or an older manifest's shorthand. */
    public FaultSchedule faults() throws IOException {
        JsonNode f = manifest.path("faults");
        if (f.has("schedule")) {
            Path file = dir.resolve(f.path("schedule").asText());
            return FaultSchedule.parse(Files.readString(file, StandardCharsets.UTF_8), f.path("origin").asText());
        }
        if (f.has("origin")) {
            return FaultSchedule.NONE;
        }
        return FaultSchedule.shorthand(f.path("kind").asText("none"), f.path("every_s").asDouble(),
                f.path("per_config").asInt(), plan().blockCount());
    }

    /** How the schedule was made ({@code none}, a file, a seed, a shorthand). */
    public String faultOrigin() {
        JsonNode f = manifest.path("faults");
        return f.has("origin") ? f.path("origin").asText() : "--faults " + f.path("kind").asText("none");
    }

    public int replicas() {
        return manifest.path("replicas").asInt(2);
    }

    /** Pre-booted spares the lab kept (0 for runs from before spares existed). */
    public int spares() {
        return manifest.path("spares").asInt(0);
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
        ((ArrayNode) manifest.withArray("configs_done")).add(block.id());
        saveManifest();
    }

    /**
     * An interrupted block: the requests it completed, in {@code probes/partial/<block>-seg<N>.csv} (the segment
     * that ran it), listed under the manifest's {@code partial}; the block is not done and runs again on resume.
     */
    public synchronized Path writePartial(GridPlan.Block block, List<ProbeTable> tables) throws IOException {
        Path file = dir.resolve("probes").resolve("partial").resolve(block.id() + "-seg" + segmentCount() + ".csv");
        ProbeTable.writeCsv(file, tables);
        ((ArrayNode) manifest.withArray("partial")).add(dir.relativize(file).toString());
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
        ObjectNode w = ((ArrayNode) manifest.withArray("lab_warmup")).addObject();
        w.put("segment", segmentCount());
        w.put("file", dir.relativize(file).toString());
        w.put("requests_per_client", perClient);
        w.put("seconds", seconds);
        w.put("first_decile_mean_us", firstDecileMeanUs);
        w.put("last_decile_mean_us", lastDecileMeanUs);
        saveManifest();
    }

    /**
     * {@code faults.csv}: one row per injected fault, with the phases of the first replica failure it caused (if
     * any), and one row per failure nobody injected (kind and target empty).
     */
    public synchronized void writeFaults(List<InjectedFault> faults, List<FailureRecord> failures)
            throws IOException {
        Path tmp = dir.resolve("faults.csv.tmp");
        try (BufferedWriter out = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
            out.write(FAULTS_HEADER);
            out.write('\n');
            java.util.Set<String> injected = new java.util.HashSet<>();
            for (InjectedFault f : faults) {
                injected.add(f.faultId());
                List<FailureRecord> caused = failures.stream().filter(r -> r.faultId().equals(f.faultId())).toList();
                FailureRecord first = caused.isEmpty() ? null : caused.get(0);
                FaultSpec spec = f.spec();
                out.write(String.join(",", f.faultId(), spec.kind().wireName(), spec.target().toString(),
                        first != null ? first.replica() : f.replica() == null ? "" : f.replica(),
                        micros(f.injectedEpochUs()), micros(first == null ? 0 : first.detectedEpochUs()),
                        micros(first == null ? 0 : first.promotedEpochUs()),
                        micros(first == null ? 0 : first.restoredEpochUs()),
                        first == null ? "" : Integer.toString(first.sparesReady()), micros(f.repairedEpochUs()),
                        f.repair().wireName(), spec.kind().lasts() ? Long.toString(spec.durationMillis()) : "",
                        spec.kind().amountUnit() == null ? "" : Double.toString(spec.amount()),
                        first == null ? "" : first.verdict().wireName(), Integer.toString(caused.size())));
                out.write('\n');
            }
            for (FailureRecord r : failures) {
                if (!injected.contains(r.faultId())) {
                    out.write(String.join(",", r.faultId(), "", "", r.replica(), "", micros(r.detectedEpochUs()),
                            micros(r.promotedEpochUs()), micros(r.restoredEpochUs()),
                            Integer.toString(r.sparesReady()), "", "", "", "", r.verdict().wireName(), "1"));
                    out.write('\n');
                }
            }
        }
        // A resumed run starts a new Replication Manager with new fault ids; keep each segment's faults.
        Path file = dir.resolve(segmentCount() > 1 ? "faults-" + segmentCount() + ".csv" : "faults.csv");
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    private static String micros(long v) {
        return v == 0 ? "" : Long.toString(v);
    }

    /**
     * Where the lab ran: {@code local}, or {@code netns} with the virtual network's prefix and the namespaces' tag
     * (one entry per segment, in {@code topology}).
     */
    public synchronized void recordTopology(String topology) throws IOException {
        ((ArrayNode) manifest.withArray("topology")).add(topology);
        saveManifest();
    }

    /** Scheduled faults that were never injected, and why, under the manifest's {@code faults.not_injected}. */
    public synchronized void recordNotInjected(List<String> lines) throws IOException {
        ArrayNode a = ((ObjectNode) manifest.path("faults")).putArray("not_injected");
        lines.forEach(a::add);
        saveManifest();
    }

    private int segmentCount() {
        return manifest.withArray("segments").size();
    }

    public synchronized void recordAudit(ExactlyOnceAudit.Result audit) throws IOException {
        ObjectNode a = manifest.putObject("audit");
        a.put("posts_checked", audit.postsChecked());
        a.put("passed", audit.passed());
        a.set("problems", JSON.valueToTree(audit.problems().stream().limit(20).toList()));
        saveManifest();
    }

    /** Ends the run: {@code complete} or {@code aborted}. */
    public synchronized void finish(String status) throws IOException {
        manifest.put("status", status);
        manifest.put("end", Instant.now().toString());
        ArrayNode segments = (ArrayNode) manifest.withArray("segments");
        ((ObjectNode) segments.get(segments.size() - 1)).put("end", Instant.now().toString()).put("status", status);
        saveManifest();
    }

    private void saveManifest() throws IOException {
        Path tmp = dir.resolve(MANIFEST + ".tmp");
        JSON.writeValue(tmp.toFile(), manifest);
        Files.move(tmp, dir.resolve(MANIFEST), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    private static ObjectNode versions() {
        ObjectNode v = JSON.createObjectNode();
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

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static long totalMemory() {
        java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getTotalMemorySize() : -1;
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
