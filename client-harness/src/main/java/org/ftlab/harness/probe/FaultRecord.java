package org.ftlab.harness.probe;

import java.util.Locale;
import org.ftlab.rm.api.FaultKind;
import org.ftlab.rm.api.ReplicaStatus;


/**
 * One row of a run's {@code faults.csv} (or {@code faults-N.csv} of a resumed segment): an injected fault, with the
 * phases of the replica failure it caused if it caused one, or a failure nobody injected ({@code kind} null: a real
 * one or a false suspicion). Times are µs since the epoch; {@link ProbeFile#NONE} where a step did not happen.
 * {@link FaultsCsv} reads and writes them.
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
 * @param verdict the manager's verdict on the replica failure ({@code crash}, {@code hang}), or empty
 * @param failures replica failures the fault caused (1 for a failure nobody injected)
 * @param promoted the replica promoted to primary in the failed one's place, or empty
 * @param promotedTopTierShare its share of the request path compiled at the top tier as last read before its
 *     promotion (docs/architecture.md, "hot"), NaN where unknown
 */
public record FaultRecord(String id, FaultKind kind, String target, String replica, long injectedUs,
        long detectedUs, long promotedUs, long restoredUs, int sparesReady, long repairedUs, String repair,
        long durationMillis, double amount, String verdict, int failures, String promoted,
        double promotedTopTierShare) {
    public static final int UNKNOWN = -1;

    /** A row without the promoted replica (no promotion, or a file from before those columns). */
    public FaultRecord(String id, FaultKind kind, String target, String replica, long injectedUs, long detectedUs,
            long promotedUs, long restoredUs, int sparesReady, long repairedUs, String repair, long durationMillis,
            double amount, String verdict, int failures) {
        this(id, kind, target, replica, injectedUs, detectedUs, promotedUs, restoredUs, sparesReady, repairedUs, repair,
                durationMillis, amount, verdict, failures, "", Double.NaN);
    }

    /**
     * {@code r2: 64% (not hot)}: the promoted replica's share of the request path at the top tier when promoted, and
     * whether that is hot; null where unknown.
     */
    public String promotedHotness() {
        Boolean hot = promotedHot();
        return hot == null ? null : String.format(Locale.ROOT, "%s: %.0f%% (%s)", promoted,
                100 * promotedTopTierShare, hot ? "hot" : "not hot");
    }

    /** Whether the promoted replica was hot when promoted; null where unknown (no promotion, or no reading). */
    public Boolean promotedHot() {
        if (Double.isNaN(promotedTopTierShare) || promoted.isEmpty()) {
            return null;
        }
        return promotedTopTierShare >= ReplicaStatus.HOT_SHARE;
    }

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
}
