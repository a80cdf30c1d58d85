package org.ftlab.harness.analysis;

import org.ftlab.harness.probe.ProbeFile;

/** What a probe row counts as in the fail-over figures: every fail-over tally sorts its rows by this. */
enum RowClass {
    /** The request failed. */
    FAILED,
    /**
     * A faulty invocation: completed after its client failed over, or answered by a hedge while a fault was on
     * ({@link ProbeFile#faultyInvocation}).
     */
    FAULTY,
    /** Completed with no fault on (no {@code fault_id}). */
    FAULT_FREE,
    /** Completed while a fault was on, without failing over. */
    OVERLAPPING;

    /** The class of row {@code i}. */
    static RowClass of(ProbeFile pf, int i) {
        if (!pf.completed(i)) {
            return FAILED;
        }
        if (pf.faultyInvocation(i)) {
            return FAULTY;
        }
        return pf.fault[i] < 0 ? FAULT_FREE : OVERLAPPING;
    }
}
