package org.ftlab.harness.analysis;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.ftlab.harness.analysis.FailoverAnalysis.PhaseStats;
import org.ftlab.harness.probe.ConfigId;
import org.ftlab.harness.probe.ProbeFile;

/**
 * A run that varies the fail-over strategy, strategy by strategy (side by side in one run): each strategy's
 * faulty-invocation phases and fault-free latencies. Empty when the run does not vary it.
 */
final class StrategyBreakdown {
    private final Map<String, InvocationPhases> phases = new TreeMap<>();
    private final Map<String, LongList> faultFree = new TreeMap<>();

    /** Adds the block's timed faulty invocations and fault-free latencies to its strategy's, if it names one. */
    void accept(ProbeFile pf) {
        String strategy = strategyOf(pf);
        if (strategy == null) {
            return;
        }
        for (int i = 0; i < pf.size; i++) {
            if (InvocationPhases.timed(pf, i)) {
                phases.computeIfAbsent(strategy, s -> new InvocationPhases()).add(pf, i);
            } else if (RowClass.of(pf, i) == RowClass.FAULT_FREE) {
                faultFree.computeIfAbsent(strategy, s -> new LongList()).add(pf.latencyUs(i));
            }
        }
    }

    /** Each strategy's phases, strategies in alphabetical order. */
    Map<String, List<PhaseStats>> phases() {
        Map<String, List<PhaseStats>> out = new LinkedHashMap<>();
        phases.forEach((s, p) -> out.put(s, p.stats()));
        return Collections.unmodifiableMap(out);
    }

    /** Each strategy's fault-free latencies, strategies in alphabetical order. */
    Map<String, LatencyStats> faultFree() {
        Map<String, LatencyStats> out = new LinkedHashMap<>();
        faultFree.forEach((s, l) -> out.put(s, LatencyStats.of(l.toArray())));
        return Collections.unmodifiableMap(out);
    }

    /** The block's strategy, as its name has it when the run varies the strategy; else null. */
    private static String strategyOf(ProbeFile pf) {
        ConfigId id = ConfigId.parse(pf.block);
        return id == null ? null : id.strategy();
    }
}
