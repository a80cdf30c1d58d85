package org.ftlab.harness.analysis;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.ftlab.harness.analysis.FailoverAnalysis.Redundancy;
import org.ftlab.harness.probe.ProbeFile;

/**
 * What redundancy cost and bought, over the run's completed requests: the copies sent beyond one per request, the
 * answers from a hedge or an active replica, the false suspicions (a fail-over with no fault on) and who answered.
 */
final class RedundancyTally {
    private final Map<String, Long> answeredBy = new TreeMap<>();
    private long completed;
    private long extraRequests;
    private long hedgedAnswers;
    private long falseSuspicions;

    /** Counts the block's completed requests. */
    void accept(ProbeFile pf) {
        for (int i = 0; i < pf.size; i++) {
            if (!pf.completed(i)) {
                continue;
            }
            completed++;
            extraRequests += Math.max(0, pf.sentTo[i] - 1);
            if (pf.replica[i] >= 0) {
                answeredBy.merge(pf.replicaNames.get(pf.replica[i]), 1L, Long::sum);
            }
            if (pf.outcome[i] == ProbeFile.HEDGED) {
                hedgedAnswers++;
            }
            if (pf.outcome[i] == ProbeFile.RETRIED && FaultJoin.faultOf(pf, i) == null) {
                falseSuspicions++;
            }
        }
    }

    /** The run's figures; replicas in alphabetical order. */
    Redundancy result() {
        return new Redundancy(completed, extraRequests, hedgedAnswers, falseSuspicions,
                Collections.unmodifiableMap(new LinkedHashMap<>(answeredBy)));
    }
}
