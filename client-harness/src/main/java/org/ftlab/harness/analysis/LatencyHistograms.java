package org.ftlab.harness.analysis;

import org.HdrHistogram.Histogram;
import org.ftlab.harness.analysis.RunAnalysis.BlockHistograms;
import org.ftlab.harness.analysis.RunAnalysis.Entry;
import org.ftlab.harness.probe.ProbeFile;

/**
 * A block's latency histograms over all methods: as recorded, and a second one, corrected for coordinated omission
 * (closed loop) or of the service time (open loop).
 */
final class LatencyHistograms {
    private LatencyHistograms() {
    }

    /**
     * The histograms of the block's completed requests; {@code all} is the block's entry for all methods (its
     * correction's expected interval). Start and end: the first intended send and the last receive, ms since the
     * epoch.
     */
    static BlockHistograms of(ProbeFile pf, Entry all) {
        LongList latency = new LongList();
        LongList service = new LongList();
        long start = Long.MAX_VALUE;
        long end = Long.MIN_VALUE;
        for (int i = 0; i < pf.size; i++) {
            start = Math.min(start, pf.intendedUs[i]);
            end = Math.max(end, pf.recvUs[i]);
            if (pf.completed(i)) {
                latency.add(pf.latencyUs(i));
                service.add(pf.serviceUs(i));
            }
        }
        long[] v = latency.toArray();
        Histogram recorded = CoordinatedOmission.recorded(v);
        Histogram second = pf.openLoop() ? CoordinatedOmission.recorded(service.toArray())
                : all.corrected() == null ? CoordinatedOmission.recorded(new long[0])
                : CoordinatedOmission.corrected(v, all.corrected().expectedIntervalUs());
        return new BlockHistograms(pf.block, recorded, second, pf.openLoop() ? "service" : "corrected",
                start == Long.MAX_VALUE ? 0 : start / 1000, end == Long.MIN_VALUE ? 0 : end / 1000);
    }
}
