package org.ftlab.harness.analysis;

import java.util.ArrayList;
import java.util.List;
import org.ftlab.harness.analysis.FailoverAnalysis.PhaseStats;
import org.ftlab.harness.probe.ProbeFile;

/**
 * The three phases of the faulty invocations whose client timed them (seed 004): fault detection, fail-over and
 * fault-free retry, and their total (the invocation's latency), µs.
 */
final class InvocationPhases {
    /** The phases' names, in the order {@link #stats} gives them. */
    static final List<String> NAMES = List.of("detection", "failover", "retry", "total");

    private final LongList[] phases = {new LongList(), new LongList(), new LongList(), new LongList()};

    /** Adds the block's timed faulty invocations. */
    void accept(ProbeFile pf) {
        for (int i = 0; i < pf.size; i++) {
            if (timed(pf, i)) {
                add(pf, i);
            }
        }
    }

    /** Whether row {@code i} is a faulty invocation with its phases recorded. */
    static boolean timed(ProbeFile pf, int i) {
        return RowClass.of(pf, i) == RowClass.FAULTY && pf.detectUs[i] != ProbeFile.NONE;
    }

    /** Adds the phases of row {@code i}, a {@link #timed} faulty invocation. */
    void add(ProbeFile pf, int i) {
        phases[0].add(pf.detectUs[i]);
        phases[1].add(pf.failoverUs[i]);
        phases[2].add(pf.retryUs[i]);
        phases[3].add(pf.latencyUs(i));
    }

    /** Statistics of each phase that has values, in the order of {@link #NAMES}. */
    List<PhaseStats> stats() {
        List<PhaseStats> stats = new ArrayList<>();
        for (int k = 0; k < phases.length; k++) {
            PhaseStats p = PhaseStats.of(NAMES.get(k), phases[k].toArray());
            if (p != null) {
                stats.add(p);
            }
        }
        return stats;
    }
}
