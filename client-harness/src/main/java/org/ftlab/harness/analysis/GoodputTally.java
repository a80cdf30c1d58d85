package org.ftlab.harness.analysis;

import java.util.List;
import org.ftlab.harness.probe.FaultRecord;
import org.ftlab.harness.probe.ProbeFile;

/**
 * Goodput: completions per second over a span ÷ completions per second in its whole 1-s slices that no fault
 * touched, per block and, from the blocks that have one, for the run.
 */
final class GoodputTally {
    private final List<FaultRecord> faults;
    private double fullSliceCompletions;
    private double idealSliceCompletions;

    GoodputTally(List<FaultRecord> faults) {
        this.faults = faults;
    }

    /**
     * The block's goodput from the whole 1-s slices of its span, added to the run's; null when no slice is whole,
     * none is free of faults or none is touched by one.
     */
    Double accept(ProbeFile pf) {
        if (pf.size == 0) {
            return null;
        }
        BlockSpan span = BlockSpan.of(pf);
        long minSend = span.firstSendUs();
        int full = (int) ((span.lastRecvUs() - minSend) / 1_000_000);
        if (full < 1) {
            return null;
        }
        int[] done = completionsPerSlice(pf, minSend, full);
        double freeSum = 0;
        int free = 0;
        double allSlices = 0;
        for (int s = 0; s < full; s++) {
            allSlices += done[s];
            if (!touched(minSend + s * 1_000_000L, minSend + (s + 1) * 1_000_000L)) {
                freeSum += done[s];
                free++;
            }
        }
        if (free > 0 && free < full && freeSum > 0) {
            double ideal = freeSum / free;
            fullSliceCompletions += allSlices;
            idealSliceCompletions += ideal * full;
            return (allSlices / full) / ideal;
        }
        return null;
    }

    /** The run's goodput over the blocks that have one; null when none has. */
    Double run() {
        return idealSliceCompletions > 0 ? fullSliceCompletions / idealSliceCompletions : null;
    }

    /** Completions in each of the {@code full} whole 1-s slices from {@code minSend}. */
    private static int[] completionsPerSlice(ProbeFile pf, long minSend, int full) {
        int[] done = new int[full];
        for (int i = 0; i < pf.size; i++) {
            int s = (int) ((pf.recvUs[i] - minSend) / 1_000_000);
            if (pf.completed(i) && s < full) {
                done[s]++;
            }
        }
        return done;
    }

    /** Whether a fault was on at some time in [fromUs, toUs). */
    private boolean touched(long fromUs, long toUs) {
        for (FaultRecord f : faults) {
            if (f.startUs() != ProbeFile.NONE && f.startUs() < toUs && f.endUs() >= fromUs) {
                return true;
            }
        }
        return false;
    }
}
