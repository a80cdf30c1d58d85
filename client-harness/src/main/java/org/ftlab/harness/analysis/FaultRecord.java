package org.ftlab.harness.analysis;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.ftlab.rm.api.FaultKind;

/**
 * One row of a run's {@code faults.csv} (or {@code faults-N.csv} of a resumed segment): an injected fault, with the
 * phases of the replica failure it caused if it caused one, or a failure nobody injected ({@code kind} null: a real
 * one or a false suspicion). Times are µs since the epoch; {@link ProbeFile#NONE} where a step did not happen.
 * Columns are read by name, so files from before a column existed still read (the column's value is unknown).
 *
 * @param kind the injected fault's kind, null for a failure nobody injected
 * @param target the fault's target as written in schedules ({@code primary}, {@code fd|backup}), or empty
 * @param replica the replica that failed, or the one the fault acted on, or empty
 * @param sparesReady booted spares when the failure was handled (0: the degree waited for a boot), or
 *     {@link #UNKNOWN} (no failure, or a file from before that column)
 * @param repairedUs when the lab undid the fault or the manager fenced its replica
 * @param repair how it ended ({@code undone}, {@code fenced}, {@code replaced}, {@code at-shutdown}), or empty
 * @param durationMillis the fault's planned duration, 0 if none
 * @param amount in the kind's unit, 0 if none
 * @param failures replica failures the fault caused (1 for a failure nobody injected)
 */
public record FaultRecord(String id, FaultKind kind, String target, String replica, long injectedUs,
        long detectedUs, long promotedUs, long restoredUs, int sparesReady, long repairedUs, String repair,
        long durationMillis, double amount, int failures) {
    public static final int UNKNOWN = -1;

    static final String[] REQUIRED = {"fault_id", "kind", "replica", "injected_epoch_us", "detected_epoch_us",
        "promoted_epoch_us", "restored_epoch_us"};

    /** The kind's name, or {@code unprovoked} for a failure nobody injected. */
    public String label() {
        return kind == null ? "unprovoked" : kind.wireName();
    }

    /** Whether the fault made the manager fail a replica (detection, promotion and restoration apply). */
    public boolean failedAReplica() {
        return detectedUs != ProbeFile.NONE;
    }

    /** When the fault began: its injection, or its detection for a failure nobody injected. */
    public long startUs() {
        return injectedUs != ProbeFile.NONE ? injectedUs : detectedUs;
    }

    /**
     * When the service was whole again: restored, else promoted, else detected (the last step that happened); for a
     * fault that failed no replica, its repair.
     */
    public long endUs() {
        for (long t : new long[] {restoredUs, promotedUs, detectedUs}) {
            if (t != ProbeFile.NONE) {
                return t;
            }
        }
        return repairedUs != ProbeFile.NONE ? repairedUs : startUs();
    }

    /** Fault Detector detection time (detected − injected), µs; null when either is unknown. */
    public Long detectionUs() {
        return injectedUs == ProbeFile.NONE || detectedUs == ProbeFile.NONE ? null : detectedUs - injectedUs;
    }

    public Long promotionUs() {
        return injectedUs == ProbeFile.NONE || promotedUs == ProbeFile.NONE ? null : promotedUs - injectedUs;
    }

    public Long restorationUs() {
        return injectedUs == ProbeFile.NONE || restoredUs == ProbeFile.NONE ? null : restoredUs - injectedUs;
    }

    /** From injection to repair, µs; null when either is unknown. */
    public Long repairUs() {
        return injectedUs == ProbeFile.NONE || repairedUs == ProbeFile.NONE ? null : repairedUs - injectedUs;
    }

    /** Every fault of a run directory, from faults.csv and the faults-N.csv of resumed segments, in file order. */
    public static List<FaultRecord> readAll(Path runDir) throws IOException {
        List<Path> files;
        try (Stream<Path> list = Files.list(runDir)) {
            files = list.filter(p -> p.getFileName().toString().matches("faults(-\\d+)?\\.csv"))
                    .sorted((a, b) -> Integer.compare(segment(a), segment(b))).toList();
        }
        List<FaultRecord> out = new ArrayList<>();
        for (Path file : files) {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            Map<String, Integer> col = new HashMap<>();
            String[] header = lines.isEmpty() ? new String[0] : lines.get(0).split(",", -1);
            for (int i = 0; i < header.length; i++) {
                col.put(header[i], i);
            }
            for (String name : REQUIRED) {
                if (!col.containsKey(name)) {
                    throw new IllegalArgumentException(file + ": missing or unknown header (no column " + name
                            + "); expected the columns of docs/probe-format.md");
                }
            }
            for (int i = 1; i < lines.size(); i++) {
                String[] f = lines.get(i).split(",", -1);
                if (f.length < header.length) {
                    throw new IllegalArgumentException(file + " line " + (i + 1) + " has " + f.length
                            + " fields, expected " + header.length + ": the file is truncated or damaged");
                }
                try {
                    String kind = get(f, col, "kind");
                    out.add(new FaultRecord(get(f, col, "fault_id"), kind.isEmpty() ? null : FaultKind.parse(kind),
                            get(f, col, "target"), get(f, col, "replica"), time(get(f, col, "injected_epoch_us")),
                            time(get(f, col, "detected_epoch_us")), time(get(f, col, "promoted_epoch_us")),
                            time(get(f, col, "restored_epoch_us")), count(get(f, col, "spares_ready")),
                            time(get(f, col, "repaired_epoch_us")), get(f, col, "repair"),
                            number(get(f, col, "duration_ms")), amount(get(f, col, "amount")),
                            get(f, col, "failures").isEmpty() ? (kind.isEmpty() ? 1 : UNKNOWN)
                                    : Integer.parseInt(get(f, col, "failures"))));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException(file + " line " + (i + 1) + ": a number is malformed: the "
                            + "file is damaged");
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(file + " line " + (i + 1) + ": " + e.getMessage());
                }
            }
        }
        return out;
    }

    private static String get(String[] fields, Map<String, Integer> col, String name) {
        Integer i = col.get(name);
        return i == null ? "" : fields[i];
    }

    private static int segment(Path p) {
        String n = p.getFileName().toString();
        return n.equals("faults.csv") ? 1 : Integer.parseInt(n.replaceAll("\\D", ""));
    }

    private static long time(String s) {
        return s.isEmpty() ? ProbeFile.NONE : Long.parseLong(s);
    }

    private static long number(String s) {
        return s.isEmpty() ? 0 : Long.parseLong(s);
    }

    private static double amount(String s) {
        return s.isEmpty() ? 0 : Double.parseDouble(s);
    }

    private static int count(String s) {
        return s.isEmpty() ? UNKNOWN : Integer.parseInt(s);
    }
}
