package org.ftlab.harness.analysis;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.ftlab.harness.analysis.FailoverAnalysis.FaultSummary;
import org.ftlab.harness.analysis.FailoverAnalysis.Handover;
import org.ftlab.harness.probe.FaultRecord;
import org.ftlab.harness.probe.ProbeFile;

/**
 * What each fault did to the requests that overlapped it: their latencies (spread and maximum), how many were
 * faulty invocations, how many failed.
 */
final class FaultImpact {
    private final Map<String, LongList> latencyByFault = new HashMap<>();
    private final Map<String, Integer> faultyByFault = new HashMap<>();
    private final Map<String, Integer> failedByFault = new HashMap<>();

    /** Adds the block's rows that overlapped a fault to that fault's figures. */
    void accept(ProbeFile pf) {
        for (int i = 0; i < pf.size; i++) {
            String faultId = FaultJoin.faultOf(pf, i);
            if (faultId == null) {
                continue;
            }
            RowClass c = RowClass.of(pf, i);
            if (c == RowClass.FAILED) {
                failedByFault.merge(faultId, 1, Integer::sum);
                continue;
            }
            if (c == RowClass.FAULTY) {
                faultyByFault.merge(faultId, 1, Integer::sum);
            }
            latencyByFault.computeIfAbsent(faultId, k -> new LongList()).add(pf.latencyUs(i));
        }
    }

    /**
     * One summary per fault, in the order of {@code faults}: the block {@code join} met it in, its figures (jitter:
     * the standard deviation of the latencies that overlapped it, given two or more) and its hand-over, if any.
     */
    List<FaultSummary> summaries(List<FaultRecord> faults, FaultJoin join, Map<String, Handover> handovers) {
        List<FaultSummary> summaries = new ArrayList<>();
        for (FaultRecord f : faults) {
            LongList l = latencyByFault.get(f.id());
            Double jitter = null;
            Long max = null;
            if (l != null && l.size() > 0) {
                LatencyStats s = LatencyStats.of(l.toArray());
                max = s.max();
                if (s.count() > 1) {
                    jitter = s.std();
                }
            }
            summaries.add(new FaultSummary(f, join.blockOf(f.id()), faultyByFault.getOrDefault(f.id(), 0),
                    l == null ? 0 : l.size(), jitter, max, handovers.get(f.id()),
                    failedByFault.getOrDefault(f.id(), 0)));
        }
        return summaries;
    }
}
