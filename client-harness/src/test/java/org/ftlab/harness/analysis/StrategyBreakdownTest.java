package org.ftlab.harness.analysis;

import static org.ftlab.harness.analysis.ProbeBlocks.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.ftlab.harness.analysis.FailoverAnalysis.PhaseStats;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A run that varies the fail-over strategy, strategy by strategy. */
class StrategyBreakdownTest {

    @Test
    void eachStrategyHasItsOwnPhasesAndFaultFreeLatencies(@TempDir Path dir) throws Exception {
        StrategyBreakdown s = new StrategyBreakdown();
        s.accept(ProbeBlocks.block(dir, "c01-t00-rorig-sreactive", List.of(row(1, 0, 4_000, "r1", "ok", ""),
                row(2, 100_000, 30_000, "r2", "retried", "f1"), row(3, 200_000, 6_000, "r2", "ok", "f1"))));
        s.accept(ProbeBlocks.block(dir, "c01-t00-rorig-shedged", List.of(row(1, 300_000, 2_000, "r1", "ok", ""),
                row(2, 400_000, 8_000, "r1", "ok", ""))));
        assertEquals(List.of("hedged", "reactive"), List.copyOf(s.faultFree().keySet()), "alphabetical");
        assertEquals(4_000, s.faultFree().get("reactive").mean(), 1e-9, "the overlapping request is left out");
        assertEquals(5_000, s.faultFree().get("hedged").mean(), 1e-9);
        assertEquals(List.of("reactive"), List.copyOf(s.phases().keySet()), "hedged had no faulty invocation");
        List<PhaseStats> reactive = s.phases().get("reactive");
        assertEquals(InvocationPhases.NAMES, reactive.stream().map(PhaseStats::phase).toList());
        assertEquals(5_000, reactive.get(0).medianUs());
        assertEquals(30_000, reactive.get(3).medianUs(), "the total is the invocation's latency");
    }

    @Test
    void aRunThatDoesNotVaryTheStrategyHasNoBreakdown(@TempDir Path dir) throws Exception {
        StrategyBreakdown s = new StrategyBreakdown();
        s.accept(ProbeBlocks.block(dir, "c01-t00-rorig", List.of(row(1, 0, 4_000, "r1", "ok", ""),
                row(2, 100_000, 30_000, "r2", "retried", "f1"))));
        assertTrue(s.phases().isEmpty());
        assertTrue(s.faultFree().isEmpty());
    }
}
