package org.ftlab.harness.analysis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.ftlab.harness.analysis.FailoverAnalysis.Slice;
import org.ftlab.harness.analysis.FailoverAnalysis.Timeline;
import org.ftlab.harness.probe.FaultRecord;
import org.ftlab.harness.probe.ProbeFile;

/**
 * A timeline around each fault: latency quantiles and completions per 1-s slice from {@value #TIMELINE_BEFORE_S} s
 * before its start to {@value #TIMELINE_AFTER_S} s after its end (at least 10 s after its start, at most
 * {@value #TIMELINE_MAX_S} s), drawn from the block it struck in.
 */
final class FaultTimelines {
    /** Seconds before a fault's start that its timeline shows. */
    static final int TIMELINE_BEFORE_S = 5;
    /** Seconds after a fault's end (restoration) that its timeline shows, within {@link #TIMELINE_MAX_S}. */
    static final int TIMELINE_AFTER_S = 5;
    static final int TIMELINE_MAX_S = 40;

    private final List<FaultRecord> faults;
    private final FaultJoin join;
    private final Map<String, Timeline> byFault = new LinkedHashMap<>();

    /** Timelines of {@code faults}; {@code join} must have accepted each block before this does. */
    FaultTimelines(List<FaultRecord> faults, FaultJoin join) {
        this.faults = faults;
        this.join = join;
    }

    /**
     * Draws the timeline of every fault that has none yet and belongs to this block: the block a row first
     * overlapped it in, or, for a fault no row overlapped, the block its start falls in.
     */
    void accept(ProbeFile pf) {
        if (pf.size == 0) {
            return;
        }
        BlockSpan span = BlockSpan.of(pf);
        for (FaultRecord f : faults) {
            long start = f.startUs();
            String block = join.blockOf(f.id());
            boolean here = pf.block.equals(block) || (block == null && span.covers(start));
            if (start == ProbeFile.NONE || !here || byFault.containsKey(f.id())) {
                continue;
            }
            byFault.put(f.id(), timeline(pf, span, f));
        }
    }

    /** The timelines drawn, in the order they were. */
    List<Timeline> timelines() {
        return List.copyOf(byFault.values());
    }

    private Timeline timeline(ProbeFile pf, BlockSpan span, FaultRecord f) {
        long start = f.startUs();
        long endRel = Math.min(Math.max(f.endUs() - start, 0) / 1_000_000 + TIMELINE_AFTER_S + 1, TIMELINE_MAX_S);
        endRel = Math.max(endRel, 10);
        int n = (int) endRel + TIMELINE_BEFORE_S;
        LongList[] lat = new LongList[n];
        int[] done = new int[n];
        for (int i = 0; i < pf.size; i++) {
            if (!pf.completed(i)) {
                continue;
            }
            int s = slice(pf.sendUs[i], start);
            if (s >= 0 && s < n) {
                (lat[s] == null ? lat[s] = new LongList() : lat[s]).add(pf.latencyUs(i));
            }
            int r = slice(pf.recvUs[i], start);
            if (r >= 0 && r < n) {
                done[r]++;
            }
        }
        List<Slice> slices = new ArrayList<>();
        for (int s = 0; s < n; s++) {
            long sliceStart = start + (s - TIMELINE_BEFORE_S) * 1_000_000L;
            if (sliceStart < span.firstSendUs() - 1_000_000 || sliceStart > span.lastRecvUs()) {
                continue; // outside the configuration: nothing was being measured
            }
            slices.add(Slice.of(s - TIMELINE_BEFORE_S, lat[s], done[s]));
        }
        return new Timeline(f.id(), f.label(), pf.block, rel(f.detectedUs(), start), rel(f.promotedUs(), start),
                rel(f.restoredUs(), start), rel(f.repairedUs(), start), slices, FaultBands.within(faults, start,
                        start - TIMELINE_BEFORE_S * 1_000_000L, start + endRel * 1_000_000L));
    }

    /** The slice of the timeline {@code tUs} falls in: 0 is the first, {@value #TIMELINE_BEFORE_S} s before start. */
    private static int slice(long tUs, long startUs) {
        return (int) Math.floorDiv(tUs - startUs, 1_000_000L) + TIMELINE_BEFORE_S;
    }

    /** {@code tUs} in seconds after {@code startUs}; null when it never happened. */
    private static Double rel(long tUs, long startUs) {
        return tUs == ProbeFile.NONE ? null : (tUs - startUs) / 1e6;
    }
}
