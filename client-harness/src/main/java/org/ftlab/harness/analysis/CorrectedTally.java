package org.ftlab.harness.analysis;

import java.util.Arrays;
import org.HdrHistogram.Histogram;
import org.ftlab.harness.analysis.FailoverAnalysis.CorrectedPerformability;
import org.ftlab.harness.probe.ProbeFile;

/**
 * Performability over the latencies corrected for coordinated omission (closed loop only: open-loop latencies need
 * no correction), per block and for the run: the share of requests over each of
 * {@link PerformabilityTally#THRESHOLDS_US}, a failed request exceeding every one, and punctuality against the
 * fault-free mean.
 */
final class CorrectedTally {
    private final long[] over = new long[3];
    private long total;
    private long completed;
    private double sumUs;
    private boolean anyOpenLoop;

    /**
     * The block's corrected performability, added to the run's: {@code failed} and {@code completed} requests,
     * fault-free mean {@code idealMeanUs} (null when the block had no fault-free request). Null in open loop and when
     * every request failed.
     */
    CorrectedPerformability accept(ProbeFile pf, int failed, int completedCount, Double idealMeanUs) {
        if (pf.openLoop()) {
            anyOpenLoop = true;
            return null;
        }
        if (completedCount == 0) {
            // every request failed: each exceeds every threshold, corrected or not
            for (int k = 0; k < 3; k++) {
                over[k] += failed;
            }
            total += failed;
            return null;
        }
        Histogram h = correctedHistogram(pf);
        long blockTotal = h.getTotalCount() + failed;
        double[] p = new double[3];
        for (int k = 0; k < 3; k++) {
            long exceeding = CoordinatedOmission.countAbove(h, PerformabilityTally.THRESHOLDS_US[k]) + failed;
            over[k] += exceeding;
            p[k] = PerformabilityTally.frac(exceeding, blockTotal);
        }
        total += blockTotal;
        completed += h.getTotalCount();
        sumUs += h.getMean() * h.getTotalCount();
        return new CorrectedPerformability(p[0], p[1], p[2], idealMeanUs == null ? null : idealMeanUs / h.getMean());
    }

    /**
     * The run's corrected performability against its fault-free mean {@code faultFreeMeanUs} (null when it had no
     * fault-free request); null when a block ran in open loop or no block was corrected.
     */
    CorrectedPerformability run(Double faultFreeMeanUs) {
        if (anyOpenLoop || total == 0) {
            return null;
        }
        return new CorrectedPerformability(PerformabilityTally.frac(over[0], total),
                PerformabilityTally.frac(over[1], total), PerformabilityTally.frac(over[2], total),
                faultFreeMeanUs == null || completed == 0 ? null : faultFreeMeanUs / (sumUs / completed));
    }

    /** The block's completed latencies corrected for coordinated omission (interval: think time + median). */
    private static Histogram correctedHistogram(ProbeFile pf) {
        LongList done = new LongList();
        for (int i = 0; i < pf.size; i++) {
            if (pf.completed(i)) {
                done.add(pf.latencyUs(i));
            }
        }
        long[] v = done.toArray();
        Arrays.sort(v);
        return CoordinatedOmission.corrected(v, CoordinatedOmission.expectedIntervalUs(pf.thinkMillis,
                LatencyStats.perMille(v, 500)));
    }
}
