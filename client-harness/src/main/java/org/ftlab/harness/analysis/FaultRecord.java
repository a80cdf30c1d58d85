package org.ftlab.harness.analysis;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * One row of a run's {@code faults.csv} (or {@code faults-N.csv} of a resumed segment): a replica failure and when
 * each step of handling it happened, µs since the epoch; {@link ProbeFile#NONE} where a step did not happen.
 * {@code sparesReady}: booted spares when the failure was handled (0: the degree waited for a boot), or
 * {@link #UNKNOWN} for a file from before that column.
 */
public record FaultRecord(String id, String kind, String replica, long injectedUs, long detectedUs, long promotedUs,
        long restoredUs, int sparesReady) {
    public static final int UNKNOWN = -1;

    static final String HEADER = "fault_id,kind,replica,injected_epoch_us,detected_epoch_us,promoted_epoch_us,"
            + "restored_epoch_us";

    /** When the fault began: its injection, or its detection for a failure nobody injected. */
    public long startUs() {
        return injectedUs != ProbeFile.NONE ? injectedUs : detectedUs;
    }

    /** When the service was whole again: restored, else promoted, else detected (the last step that happened). */
    public long endUs() {
        for (long t : new long[] {restoredUs, promotedUs, detectedUs}) {
            if (t != ProbeFile.NONE) {
                return t;
            }
        }
        return startUs();
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
            if (lines.isEmpty() || !lines.get(0).startsWith(HEADER)) {
                throw new IllegalArgumentException(file + ": missing or unknown header; expected " + HEADER);
            }
            for (int i = 1; i < lines.size(); i++) {
                String[] f = lines.get(i).split(",", -1);
                if (f.length < 7) {
                    throw new IllegalArgumentException(file + " line " + (i + 1) + " has " + f.length
                            + " fields, expected 7: the file is truncated or damaged");
                }
                try {
                    out.add(new FaultRecord(f[0], f[1], f[2], time(f[3]), time(f[4]), time(f[5]), time(f[6]),
                            f.length > 7 && !f[7].isEmpty() ? Integer.parseInt(f[7]) : UNKNOWN));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException(file + " line " + (i + 1) + ": a time is not a number: the "
                            + "file is damaged");
                }
            }
        }
        return out;
    }

    private static int segment(Path p) {
        String n = p.getFileName().toString();
        return n.equals("faults.csv") ? 1 : Integer.parseInt(n.replaceAll("\\D", ""));
    }

    private static long time(String s) {
        return s.isEmpty() ? ProbeFile.NONE : Long.parseLong(s);
    }
}
