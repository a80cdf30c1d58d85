package org.ftlab.harness.analysis;

import static org.ftlab.harness.analysis.ProbeBlocks.failed;
import static org.ftlab.harness.analysis.ProbeBlocks.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Path;
import java.util.List;
import org.ftlab.harness.analysis.FailoverAnalysis.CorrectedPerformability;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Performability over the latencies corrected for coordinated omission. */
class CorrectedTallyTest {

    @Test
    void aBlockWhoseEveryRequestFailedHasNoFiguresButItsFailuresExceedEveryThresholdInTheRuns(@TempDir Path dir)
            throws Exception {
        CorrectedTally t = new CorrectedTally();
        assertNull(t.accept(ProbeBlocks.block(dir, "c01-t00-rorig", List.of(failed(1, 0, ""),
                failed(2, 100_000, ""))), 2, 0, null));
        assertEquals(new CorrectedPerformability(1, 1, 1, null), t.run(10_000.0));
    }

    @Test
    void oneOpenLoopBlockLeavesTheRunWithoutCorrectedFigures(@TempDir Path dir) throws Exception {
        CorrectedTally t = new CorrectedTally();
        t.accept(ProbeBlocks.block(dir, "c01-t00-rorig", List.of(row(1, 0, 4_000, "r1", "ok", ""))), 0, 1, 4_000.0);
        assertNull(t.accept(ProbeBlocks.block(dir, "c01-rate50-rorig", List.of(row(1, 0, 4_000, "r1", "ok", ""))), 0,
                1, 4_000.0), "open-loop latencies need no correction");
        assertNull(t.run(4_000.0));
    }
}
