package org.ftlab.harness.attribution;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.ftlab.os.jfr.DatabaseLockWait;
import org.ftlab.os.jfr.DatabaseMetadataLockWait;
import org.ftlab.os.jfr.HostCpuSample;
import org.ftlab.os.jfr.ProcessSample;

/**
 * The stalls in one process's JDK Flight Recorder file ({@code events/<process>-seg<N>.jfr}): each safepoint, from
 * the moment the VM began stopping threads ({@code jdk.SafepointBegin}) to the moment it let them go
 * ({@code jdk.SafepointEnd}), is a {@link Stall.Cause#GC_PAUSE} if a collection paused in it ({@code jdk.GCPhasePause})
 * and a {@link Stall.Cause#SAFEPOINT} otherwise, named by its VM operation ({@code jdk.ExecuteVMOperation}). A GC pause
 * the file has no safepoint for is a stall on its own. The manager's file also holds the database's row-lock waits
 * ({@code ftlab.DatabaseLockWait}): each a {@link Stall.Cause#ROW_LOCK_WAIT} of process {@code db} for the one
 * connection that waited; and its metadata-lock waits ({@code ftlab.DatabaseMetadataLockWait}: a commit blocked by a
 * backup, …), each a {@link Stall.Cause#METADATA_LOCK_WAIT} of {@code db} for its connection. JFR's timestamps are the host's wall clock, as the probes'.
 */
public final class JfrStalls {
    private JfrStalls() {
    }

    /**
     * What a process's recording says of its load once a second: its own CPU use (user, kernel) and the machine's,
     * each a fraction of all the machine's CPUs ({@code jdk.CPULoad}), and the machine's context switches per second
     * ({@code jdk.ThreadContextSwitchRate}, NaN where not recorded).
     */
    public record LoadSample(long atUs, double user, double system, double machine, double switchesPerS) {
    }

    /**
     * The host's CPUs over one interval, as the manager sampled them ({@code ftlab.HostCpu}): CPUs busy (all
     * processes), CPUs stolen by the hypervisor, and how long some task waited for a CPU (µs, -1: unknown).
     */
    public record HostSample(long startUs, long endUs, int cpus, double busyCpus, double stealCpus,
            long pressureUs) {
    }

    /**
     * One process of the lab over one interval, as the manager sampled it ({@code ftlab.ProcessSample}): CPU time in
     * user and kernel mode (µs), page faults, resident set at its end.
     */
    public record ProcessUse(String process, long startUs, long endUs, long userUs, long systemUs, long minorFaults,
            long majorFaults, long residentBytes) {
    }

    /** A file's stalls by start, its load samples by time, and (the manager's file) the host's and processes'. */
    public record Recording(List<Stall> stalls, List<LoadSample> load, List<HostSample> host,
            List<ProcessUse> processes) {
        public Recording(List<Stall> stalls, List<LoadSample> load) {
            this(stalls, load, List.of(), List.of());
        }
    }

    /** The file's stalls (of {@code process}, and lock waits of {@code db}), by start. */
    public static List<Stall> read(Path file, String process) throws IOException {
        return readAll(file, process).stalls();
    }

    /** The file's stalls (of {@code process}, and lock waits of {@code db}), by start. A file JFR cannot read is an {@link IOException} saying so. */
    public static Recording readAll(Path file, String process) throws IOException {
        Map<Long, double[]> cpu = new TreeMap<>(); // at -> {user, system, machine}
        TreeMap<Long, Double> switches = new TreeMap<>();
        Map<Long, long[]> safepoints = new TreeMap<>(); // id -> {begin, end}
        Map<Long, String> operations = new HashMap<>();
        List<long[]> pauses = new ArrayList<>(); // {start, end, gcId}
        Map<Long, String> collections = new HashMap<>();
        List<Stall> lockWaits = new ArrayList<>();
        List<HostSample> host = new ArrayList<>();
        List<ProcessUse> processes = new ArrayList<>();
        try (RecordingFile in = new RecordingFile(file)) {
            while (in.hasMoreEvents()) {
                RecordedEvent e = in.readEvent();
                switch (e.getEventType().getName()) {
                    case "jdk.SafepointBegin" -> safepoints.computeIfAbsent(e.getLong("safepointId"),
                            id -> new long[] {Long.MIN_VALUE, Long.MIN_VALUE})[0] = us(e.getStartTime());
                    case "jdk.SafepointEnd" -> safepoints.computeIfAbsent(e.getLong("safepointId"),
                            id -> new long[] {Long.MIN_VALUE, Long.MIN_VALUE})[1] = us(e.getEndTime());
                    case "jdk.ExecuteVMOperation" -> {
                        if (e.getBoolean("safepoint")) {
                            operations.put(e.getLong("safepointId"), e.getString("operation"));
                        }
                    }
                    case "jdk.GCPhasePause" -> pauses.add(new long[] {us(e.getStartTime()), us(e.getEndTime()),
                            e.getLong("gcId")});
                    case "jdk.CPULoad" -> cpu.put(us(e.getStartTime()), new double[] {e.getFloat("jvmUser"),
                            e.getFloat("jvmSystem"), e.getFloat("machineTotal")});
                    case "jdk.ThreadContextSwitchRate" -> switches.put(us(e.getStartTime()),
                            (double) e.getFloat("switchRate"));
                    case "jdk.GarbageCollection" -> collections.put(e.getLong("gcId"),
                            e.getString("name") + " (" + e.getString("cause") + ")");
                    case DatabaseLockWait.NAME -> lockWaits.add(new Stall(Attribution.DATABASE,
                            Stall.Cause.ROW_LOCK_WAIT, us(e.getStartTime())
                                    - (e.hasField(DatabaseLockWait.WAITED_BEFORE)
                                    ? e.getDuration(DatabaseLockWait.WAITED_BEFORE).toNanos() / 1000 : 0),
                            us(e.getEndTime()), "connection "
                                    + e.getLong(DatabaseLockWait.CONNECTION) + " waited for a row lock (transaction "
                                    + e.getString(DatabaseLockWait.TRANSACTION) + ")",
                            e.getLong(DatabaseLockWait.CONNECTION)));
                    case DatabaseMetadataLockWait.NAME -> lockWaits.add(new Stall(Attribution.DATABASE,
                            Stall.Cause.METADATA_LOCK_WAIT, us(e.getStartTime()), us(e.getEndTime()), "connection " + e.getLong(DatabaseMetadataLockWait.CONNECTION)
                                    + " " + lowerFirst(e.getString(DatabaseMetadataLockWait.STATE)) + " ("
                                    + e.getString(DatabaseMetadataLockWait.STATEMENT) + ")",
                            e.getLong(DatabaseMetadataLockWait.CONNECTION)));
                    case HostCpuSample.NAME -> host.add(new HostSample(us(e.getStartTime()), us(e.getEndTime()),
                            e.getInt(HostCpuSample.CPUS), e.getDouble(HostCpuSample.BUSY),
                            e.getDouble(HostCpuSample.STEAL), micros(e, HostCpuSample.PRESSURE)));
                    case ProcessSample.NAME -> processes.add(new ProcessUse(e.getString(ProcessSample.PROCESS),
                            us(e.getStartTime()), us(e.getEndTime()), micros(e, ProcessSample.USER),
                            micros(e, ProcessSample.SYSTEM), e.getLong(ProcessSample.MINOR_FAULTS),
                            e.getLong(ProcessSample.MAJOR_FAULTS), e.getLong(ProcessSample.RESIDENT)));
                    default -> {
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            throw new IOException(file.getFileName() + " is not a readable JFR recording (" + e.getMessage() + ")", e);
        }
        List<Stall> out = new ArrayList<>(stalls(process, safepoints, operations, pauses, collections));
        out.addAll(lockWaits);
        out.sort(Comparator.comparingLong(Stall::startUs));
        List<LoadSample> load = new ArrayList<>();
        cpu.forEach((at, c) -> load.add(new LoadSample(at, c[0], c[1], c[2], nearest(switches, at))));
        host.sort(Comparator.comparingLong(HostSample::startUs));
        processes.sort(Comparator.comparingLong(ProcessUse::startUs));
        return new Recording(out, load, host, processes);
    }


    /** Safepoints and pauses joined into stalls (separate from reading: the rules, tested on hand-made events). */
    static List<Stall> stalls(String process, Map<Long, long[]> safepoints, Map<Long, String> operations,
            List<long[]> pauses, Map<Long, String> collections) {
        List<Stall> out = new ArrayList<>();
        boolean[] covered = new boolean[pauses.size()];
        safepoints.forEach((id, be) -> {
            if (be[0] == Long.MIN_VALUE || be[1] == Long.MIN_VALUE || be[1] < be[0]) {
                return; // cut off by the recording's start or end
            }
            String gc = null;
            for (int i = 0; i < pauses.size(); i++) {
                long[] p = pauses.get(i);
                if (p[0] < be[1] && p[1] > be[0]) {
                    covered[i] = true;
                    gc = collections.getOrDefault(p[2], "GC " + p[2]);
                }
            }
            String op = operations.get(id);
            out.add(gc != null ? new Stall(process, Stall.Cause.GC_PAUSE, be[0], be[1], gc)
                    : new Stall(process, Stall.Cause.SAFEPOINT, be[0], be[1],
                            "safepoint: " + (op == null ? "unknown operation" : op)));
        });
        for (int i = 0; i < pauses.size(); i++) {
            long[] p = pauses.get(i);
            if (!covered[i] && p[1] >= p[0]) {
                out.add(new Stall(process, Stall.Cause.GC_PAUSE, p[0], p[1],
                        collections.getOrDefault(p[2], "GC " + p[2])));
            }
        }
        out.sort(Comparator.comparingLong(Stall::startUs));
        return out;
    }

    /**
     * The value sampled nearest to {@code atUs}, within a second (JFR takes its periodic samples of one period at
     * nearly, not exactly, the same time); NaN if none.
     */
    static double nearest(TreeMap<Long, Double> samples, long atUs) {
        Map.Entry<Long, Double> below = samples.floorEntry(atUs);
        Map.Entry<Long, Double> above = samples.ceilingEntry(atUs);
        Map.Entry<Long, Double> best = below == null ? above : above == null ? below
                : atUs - below.getKey() <= above.getKey() - atUs ? below : above;
        return best == null || Math.abs(best.getKey() - atUs) > 1_000_000 ? Double.NaN : best.getValue();
    }

    /** {@code Waiting for backup lock} as a sentence's verb: {@code waiting for backup lock}. */
    private static String lowerFirst(String s) {
        return s == null || s.isEmpty() ? "waiting" : Character.toLowerCase(s.charAt(0)) + s.substring(1);
    }

    /** A timespan field in µs, whatever unit it was declared in. */
    private static long micros(RecordedEvent e, String field) {
        return e.getDuration(field).toNanos() / 1000;
    }

    static long us(Instant t) {
        return t.getEpochSecond() * 1_000_000L + t.getNano() / 1_000;
    }
}
