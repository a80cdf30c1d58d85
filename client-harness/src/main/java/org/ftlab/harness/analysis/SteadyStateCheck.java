package org.ftlab.harness.analysis;

import java.util.ArrayList;
import java.util.List;
import org.ftlab.harness.analysis.RunAnalysis.SteadyState;
import org.ftlab.harness.probe.ProbeFile;

/**
 * Whether a method's requests ran at steady state: the mean latency of each client's first and last 10% of its
 * fault-free completed requests, pooled over clients ({@link SteadyState} judges them).
 */
final class SteadyStateCheck {
    /** Fewest fault-free requests of a method for the check (so a decile has at least 3). */
    static final int STEADY_STATE_MIN = 30;

    private SteadyStateCheck() {
    }

    /**
     * First vs last decile of each client's fault-free completed requests of method index {@code method}, in the
     * order the file holds them; null when the method has fewer than {@value #STEADY_STATE_MIN} such requests.
     */
    static SteadyState of(ProbeFile pf, int method) {
        List<LongList> perClient = new ArrayList<>();
        for (int c = 0; c < pf.clientIds.size(); c++) {
            perClient.add(new LongList());
        }
        int n = 0;
        for (int i = 0; i < pf.size; i++) {
            if (pf.method[i] == method && pf.completed(i) && pf.fault[i] < 0) {
                perClient.get(pf.client[i]).add(pf.latencyUs(i));
                n++;
            }
        }
        if (n < STEADY_STATE_MIN) {
            return null;
        }
        double first = 0;
        double last = 0;
        int count = 0;
        for (LongList l : perClient) {
            long[] v = l.toArray();
            int decile = (int) Math.ceil(v.length / 10.0);
            for (int k = 0; k < decile; k++) {
                first += v[k];
                last += v[v.length - 1 - k];
                count++;
            }
        }
        return count == 0 ? null : new SteadyState(count, first / count, last / count);
    }
}
