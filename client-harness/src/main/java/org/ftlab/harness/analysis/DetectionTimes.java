package org.ftlab.harness.analysis;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.ftlab.harness.analysis.FailoverAnalysis.PhaseStats;
import org.ftlab.harness.probe.FaultRecord;

/** The Fault Detector's detection times, from {@code faults.csv}: one set of statistics per fault kind. */
final class DetectionTimes {
    private DetectionTimes() {
    }

    /**
     * Per fault kind, in order of first appearance, statistics of its faults' detection times, µs; a kind none of
     * whose faults was detected is left out.
     */
    static List<PhaseStats> byKind(List<FaultRecord> faults) {
        List<PhaseStats> detection = new ArrayList<>();
        for (String kind : faults.stream().map(FaultRecord::label).distinct().toList()) {
            PhaseStats d = PhaseStats.of(kind, faults.stream().filter(f -> f.label().equals(kind))
                    .map(FaultRecord::detectionUs).filter(Objects::nonNull).mapToLong(Long::longValue).toArray());
            if (d != null) {
                detection.add(d);
            }
        }
        return detection;
    }
}
