package org.ftlab.harness.probe;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.ftlab.os.AtomicFiles;

/**
 * A run directory's {@code manifest.json}, the one reader and writer of it (docs/probe-format.md): how the run was
 * planned and made, where it ran, and how far it got. Written whole at every change ({@link AtomicFiles}), so a reader
 * never sees half a manifest; the grid writes it, the analysis, the bench and the side-by-side view read it.
 *
 * <p>Versions: {@value #FORMAT_VERSION} names the format ({@code format_version}); version 3 added the infrastructure
 * factors ({@code grid.strategy}, {@code grid.replicas}) and the block names that carry their levels, which an ftlab
 * of version 2 would not read; a manifest without it is version 1,
 * the format before it was numbered, whose earliest runs lack the design ({@code grid.order} and the rest), the knobs
 * ({@code settings}) and the fault schedule's {@code origin} (they name {@code faults.kind}). Each of those reads here
 * as what those runs were made with: {@link #readAny}'s callers see one shape.
 *
 * @param formatVersion {@value #FORMAT_VERSION} for runs made now
 * @param status {@code running}, {@code complete} or {@code aborted}
 * @param workload the workload the clients ran ({@code auction}: the only one before the format was numbered)
 * @param audit the workload's checker's verdict ({@code posts_checked}: the requests it checked)
 * @param failoverStrategy a built-in strategy's name, or {@code class:NAME} for a plug-in; in a run that varies the
 *     strategy, its first level
 * @param settings the knobs; null in the earliest runs (then {@link RunSettings#DEFAULTS})
 * @param replicas the replication degree (the lab's, the highest level in a run that varies it); {@code spares}:
 *     pre-booted spares
 * @param configsDone the blocks (configuration × replicate) whose probe files are complete
 * @param partial files of the completed requests of interrupted blocks
 * @param segments one per start or resume of the run
 * @param topology where each segment's lab ran ({@code local}, or {@code netns} with its prefix and tag)
 * @param error why the run stopped before its end, when it was not a Ctrl-C: one line
 * @param platform the middleware the clients reached the service through ({@code ejb}, {@code rest}); in a run that
 *     varies it, its first level; null in runs from before it was recorded (then {@code ejb}, the only one)
 * @param workloadParameters what the workload was given beyond its name, as its options wrote them and as it reads
 *     them back ({@link #workloadParametersOf}, {@link #readWorkloadParameters}); null when it was given nothing
 * @param historyFormat the format of the run's history ({@code history/}, docs/probe-format.md); null in runs from
 *     before histories were recorded
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Manifest(int formatVersion, String status, String profile, String workload, Grid grid,
        String failoverStrategy, RunSettings settings, Faults faults, Integer replicas, Integer spares,
        String database, Map<String, String> versions, String jvm, Host host, String gitRevision, String start,
        String end, List<String> configsDone, List<String> partial, List<Segment> segments,
        List<LabWarmup> labWarmup, List<String> topology, Audit audit, String error, String platform,
        ObjectNode workloadParameters, Integer historyFormat) {
    public static final String FILE = "manifest.json";
    public static final int FORMAT_VERSION = 3;
    /** The workload of every run from before workloads were named. */
    public static final String DEFAULT_WORKLOAD = "auction";
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    /**
     * The plan: the grid's factors, its design, and the order its blocks run in. {@code strategy}, {@code replicas}
     * and {@code platform}: the levels of the infrastructure factors, when the run varies them (version 3; null
     * otherwise: the run's one strategy, degree and platform are {@code failover_strategy}, {@code replicas} and
     * {@code platform}).
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Grid(List<Integer> clients, List<Integer> thinkMs, List<String> reply, int postsPerClient,
            int viewsPerClient, int configurations, Integer warmupPerClient, Integer repeat, String order, Long seed,
            String arrival, List<Double> ratePerS, Integer labWarmupPerClient, List<String> schedule,
            List<String> strategy, List<Integer> replicas, List<String> platform) {
        /** Whether the design was recorded (version 1's earliest runs: no; they ran the plain design). */
        public boolean hasDesign() {
            return order != null;
        }
    }

    /**
     * The fault schedule: how it was made ({@code origin}), its size and kinds, its file, and the scheduled faults that
     * were never injected. Version 1's earliest runs have {@code kind}, {@code every_s} and {@code per_config} instead.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Faults(String origin, Integer count, List<String> kinds, String schedule, List<String> notInjected,
            String kind, Double everyS, Integer perConfig) {
        public static Faults of(String origin, int count, List<String> kinds, String schedule) {
            return new Faults(origin, count, kinds, schedule, null, null, null, null);
        }

        /** The kinds the schedule used, joined ({@code none} for none), or the earliest runs' one kind. */
        public String describeKinds() {
            if (kinds != null) {
                return kinds.isEmpty() ? "none" : String.join(", ", kinds);
            }
            return kind != null ? kind : "unknown";
        }

        Faults withNotInjected(List<String> lines) {
            return new Faults(origin, count, kinds, schedule, List.copyOf(lines), kind, everyS, perConfig);
        }
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Host(String name, String os, int cpus, long memoryBytes) {
        /** This machine's name, as runs and calibrations record it ("unknown" where it has none). */
        public static String localName() {
            try {
                return InetAddress.getLocalHost().getHostName();
            } catch (IOException e) {
                return "unknown";
            }
        }
    }

    /**
     * A start or resume of the run: when it started, ended, and how; the event files its processes wrote (process →
     * file under the run directory) and the processes whose recording could not be written, one line each (both
     * null: the segment recorded no events, {@code --observe off} or a run from before them).
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Segment(String start, String end, String status, Map<String, String> events,
            List<String> eventsFailed) {
        public Segment(String start, String end, String status) {
            this(start, end, status, null, null);
        }
    }

    /** A segment's lab warm-up: its file, its size, and the mean latency of its first and last 10%. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record LabWarmup(int segment, String file, int requestsPerClient, double seconds,
            double firstDecileMeanUs, double lastDecileMeanUs) {
    }

    /** The exactly-once audit: posts checked, the verdict, and its first 20 problems. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Audit(long postsChecked, boolean passed, List<String> problems, String oracle) {
        public Audit(long postsChecked, boolean passed, List<String> problems) {
            this(postsChecked, passed, problems, null);
        }
    }

    /**
     * A workload's parameters, a record of its own, as {@code workload_parameters} records them: the record's JSON,
     * as its annotations name its fields (the manifest's own are snake_case, null fields left out).
     */
    public static ObjectNode workloadParametersOf(Object parameters) {
        return JSON.valueToTree(parameters);
    }

    /**
     * The {@code workload_parameters} a run recorded, read back as the workload's own record {@code type} (null when
     * none were recorded); keys it does not know are left alone, a value of the wrong kind is one line.
     */
    public static <T> T readWorkloadParameters(ObjectNode recorded, Class<T> type) {
        if (recorded == null) {
            return null;
        }
        try {
            return JSON.treeToValue(recorded, type);
        } catch (IOException e) {
            throw new IllegalArgumentException("workload_parameters " + recorded + " cannot be read ("
                    + e.getMessage().lines().findFirst().orElse("") + "): the run directory is damaged");
        }
    }

    /** Whether {@code dir} holds a manifest. */
    public static boolean existsIn(Path dir) {
        return Files.exists(dir.resolve(FILE));
    }

    /** The manifest of {@code dir}, of any version, in this version's shape; a clear error if it is not one. */
    public static Manifest readAny(Path dir) throws IOException {
        Path file = dir.resolve(FILE);
        Manifest m;
        try {
            m = JSON.readValue(file.toFile(), Manifest.class);
        } catch (IOException e) {
            throw new IllegalArgumentException(file + " is not a manifest of ftlab's (" + e.getMessage().lines()
                    .findFirst().orElse("") + "): the run directory is damaged");
        }
        if (m.formatVersion() > FORMAT_VERSION) {
            throw new IllegalArgumentException(file + " has format version " + m.formatVersion() + ", newer than this "
                    + "ftlab's " + FORMAT_VERSION + ": analyse it with the ftlab that made it, or a newer one");
        }
        return m.upgraded();
    }

    /** Writes this manifest to {@code dir}, whole. */
    public void writeTo(Path dir) throws IOException {
        AtomicFiles.write(dir.resolve(FILE), JSON.writeValueAsString(this));
    }

    /** A version 1 manifest in this version's shape: what its runs were made with where it says nothing. */
    private Manifest upgraded() {
        return new Manifest(formatVersion == 0 ? 1 : formatVersion, status, profile,
                workload == null ? DEFAULT_WORKLOAD : workload, grid, failoverStrategy,
                settings == null ? RunSettings.DEFAULTS : settings,
                faults == null ? new Faults(null, null, null, null, null, null, null, null) : faults, replicas, spares, database, versions, jvm,
                host, gitRevision, start, end, orEmpty(configsDone), orEmpty(partial), orEmpty(segments),
                orEmpty(labWarmup), orEmpty(topology), audit, error, platform == null ? "ejb" : platform,
                workloadParameters, historyFormat);
    }

    // ---- changes as a run goes on: each returns the new manifest ------------------------------------------------

    public Manifest withStatus(String newStatus, String newEnd) {
        return copy(newStatus, newEnd, configsDone, partial, segments, labWarmup, topology, faults, audit, error);
    }

    public Manifest withConfigDone(String block) {
        return copy(status, end, append(configsDone, block), partial, segments, labWarmup, topology, faults, audit,
                error);
    }

    public Manifest withPartial(String file) {
        return copy(status, end, configsDone, append(partial, file), segments, labWarmup, topology, faults, audit,
                error);
    }

    /** A new segment starts (a start or a resume): status running, no end. */
    public Manifest withSegmentStarted(String startTime) {
        return copy("running", null, configsDone, partial, append(segments, new Segment(startTime, null, null)),
                labWarmup, topology, faults, audit, error);
    }

    /** The run, and its last segment, ended with {@code newStatus}. */
    public Manifest withFinished(String newStatus, String endTime) {
        List<Segment> s = new ArrayList<>(segments);
        Segment last = s.remove(s.size() - 1);
        s.add(new Segment(last.start(), endTime, newStatus, last.events(), last.eventsFailed()));
        return copy(newStatus, endTime, configsDone, partial, s, labWarmup, topology, faults, audit, error);
    }

    /** The last segment's event files (process → file under the run directory) and the processes that wrote none. */
    public Manifest withEvents(Map<String, String> files, List<String> failed) {
        List<Segment> s = new ArrayList<>(segments);
        Segment last = s.remove(s.size() - 1);
        s.add(new Segment(last.start(), last.end(), last.status(), Map.copyOf(files), List.copyOf(failed)));
        return copy(status, end, configsDone, partial, s, labWarmup, topology, faults, audit, error);
    }

    public Manifest withLabWarmup(LabWarmup w) {
        return copy(status, end, configsDone, partial, segments, append(labWarmup, w), topology, faults, audit, error);
    }

    public Manifest withTopology(String t) {
        return copy(status, end, configsDone, partial, segments, labWarmup, append(topology, t), faults, audit, error);
    }

    public Manifest withNotInjected(List<String> lines) {
        return copy(status, end, configsDone, partial, segments, labWarmup, topology, faults.withNotInjected(lines),
                audit, error);
    }

    public Manifest withAudit(Audit a) {
        return copy(status, end, configsDone, partial, segments, labWarmup, topology, faults, a, error);
    }

    public Manifest withError(String line) {
        return copy(status, end, configsDone, partial, segments, labWarmup, topology, faults, audit, line);
    }

    private Manifest copy(String status, String end, List<String> configsDone, List<String> partial,
            List<Segment> segments, List<LabWarmup> labWarmup, List<String> topology, Faults faults, Audit audit,
            String error) {
        return new Manifest(formatVersion, status, profile, workload, grid, failoverStrategy, settings, faults,
                replicas, spares, database, versions, jvm, host, gitRevision, start, end, configsDone, partial,
                segments, labWarmup, topology, audit, error, platform, workloadParameters, historyFormat);
    }

    private static <T> List<T> append(List<T> list, T item) {
        List<T> out = new ArrayList<>(list);
        out.add(item);
        return List.copyOf(out);
    }

    private static <T> List<T> orEmpty(List<T> list) {
        return list == null ? List.of() : List.copyOf(list);
    }
}
