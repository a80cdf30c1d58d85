package org.ftlab.harness.analysis;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.ftlab.harness.analysis.FailoverAnalysis.RunTimeline;
import org.ftlab.harness.analysis.FailoverAnalysis.Slice;
import org.ftlab.harness.probe.FaultRecord;
import org.ftlab.harness.probe.ProbeFile;

/**
 * The whole run second by second: the latencies of completed requests by the epoch second they were sent in, their
 * completions by the one they ended in, and every fault as a band.
 */
final class RunTimelineTally {
    private final List<FaultRecord> faults;
    private final TreeMap<Long, LongList> bySecond = new TreeMap<>();
    private final Map<Long, Integer> doneBySecond = new HashMap<>();

    RunTimelineTally(List<FaultRecord> faults) {
        this.faults = faults;
    }

    /** Adds the block's completed requests to their seconds. */
    void accept(ProbeFile pf) {
        for (int i = 0; i < pf.size; i++) {
            if (pf.completed(i)) {
                bySecond.computeIfAbsent(Math.floorDiv(pf.sendUs[i], 1_000_000L), k -> new LongList())
                        .add(pf.latencyUs(i));
                doneBySecond.merge(Math.floorDiv(pf.recvUs[i], 1_000_000L), 1, Integer::sum);
            }
        }
    }

    /** The run from the first second a request was sent in to the last; the pauses between blocks are gaps. */
    RunTimeline result() {
        if (bySecond.isEmpty()) {
            return new RunTimeline(List.of(), List.of());
        }
        long first = bySecond.firstKey();
        List<Slice> slices = new ArrayList<>();
        for (Map.Entry<Long, LongList> e : bySecond.entrySet()) {
            slices.add(Slice.of((int) (e.getKey() - first), e.getValue(), doneBySecond.getOrDefault(e.getKey(), 0)));
        }
        long originUs = first * 1_000_000L;
        return new RunTimeline(slices, FaultBands.within(faults, originUs, originUs,
                (bySecond.lastKey() + 1) * 1_000_000L));
    }
}
