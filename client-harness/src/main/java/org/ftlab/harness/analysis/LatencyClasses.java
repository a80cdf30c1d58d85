package org.ftlab.harness.analysis;

import java.util.Arrays;
import org.ftlab.harness.probe.ProbeFile;

/**
 * The latencies of the run's completed requests by {@link RowClass}: faulty invocations, fault-free requests, and
 * requests that overlapped a fault without failing over.
 */
final class LatencyClasses {
    private final LongList faultFree = new LongList();
    private final LongList faulty = new LongList();
    private final LongList overlapping = new LongList();

    /** Files each completed request of the block under its class. */
    void accept(ProbeFile pf) {
        for (int i = 0; i < pf.size; i++) {
            switch (RowClass.of(pf, i)) {
                case FAULTY -> faulty.add(pf.latencyUs(i));
                case FAULT_FREE -> faultFree.add(pf.latencyUs(i));
                case OVERLAPPING -> overlapping.add(pf.latencyUs(i));
                case FAILED -> {
                }
            }
        }
    }

    /** The fault-free latencies, µs, ascending. */
    long[] faultFreeSortedUs() {
        return sorted(faultFree);
    }

    /** The faulty invocations' latencies, µs, ascending. */
    long[] faultySortedUs() {
        return sorted(faulty);
    }

    /** Statistics of the latencies that overlapped a fault; null when none did. */
    LatencyStats overlapping() {
        return LatencyStats.of(overlapping.toArray());
    }

    private static long[] sorted(LongList l) {
        long[] v = l.toArray();
        Arrays.sort(v);
        return v;
    }
}
