package org.ftlab.harness.analysis;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ftlab.harness.lab.ManagedLab;

/**
 * What the Fault Detector's log ({@code fd/detector.log}) says about its suspicions: every raw suspicion of a replica
 * whose process was alive, and every failure it reported. A raw suspicion of a replica that reported no failure near
 * it (within {@link #WINDOW_US} either side) was a false suspicion, cleared by JGroups' VERIFY_SUSPECT: the heartbeat
 * timeout fired on a healthy replica. A false suspicion that verification confirmed is a failure nobody injected, and
 * is counted with those (faults.csv), not here.
 */
public final class DetectorLog {
    /** How near a failure of the same replica a raw suspicion must be to belong to it, µs. */
    static final long WINDOW_US = 5_000_000;
    private static final Pattern LINE = Pattern.compile("^(\\d+) (suspicion|failure) replica=(\\S+)");

    private DetectorLog() {
    }

    /** Raw suspicions of live replicas that no failure followed or preceded; null when the run has no log. */
    public static Integer clearedSuspicions(Path runDir) throws IOException {
        Path log = runDir.resolve(ManagedLab.DETECTOR_LOG);
        if (!Files.exists(log)) {
            return null;
        }
        Map<String, List<Long>> failures = new HashMap<>();
        List<String[]> suspicions = new ArrayList<>();
        for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
            Matcher m = LINE.matcher(line);
            if (!m.find()) {
                continue;
            }
            if (m.group(2).equals("failure")) {
                failures.computeIfAbsent(m.group(3), r -> new ArrayList<>()).add(Long.parseLong(m.group(1)));
            } else if (line.contains("process alive")) {
                suspicions.add(new String[] {m.group(1), m.group(3)});
            }
        }
        int cleared = 0;
        for (String[] s : suspicions) {
            long at = Long.parseLong(s[0]);
            boolean nearAFailure = failures.getOrDefault(s[1], List.of()).stream()
                    .anyMatch(f -> Math.abs(f - at) <= WINDOW_US);
            if (!nearAFailure) {
                cleared++;
            }
        }
        return cleared;
    }
}
