package org.ftlab.harness.analysis;

import static org.ftlab.harness.analysis.ProbeBlocks.failed;
import static org.ftlab.harness.analysis.ProbeBlocks.row;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.ftlab.harness.probe.ProbeFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a probe row counts as in the fail-over figures. */
class RowClassTest {

    @Test
    void aFailedRequestIsFailedWhetherOrNotAFaultWasOn(@TempDir Path dir) throws Exception {
        ProbeFile pf = ProbeBlocks.block(dir, "c01-t00-rorig", List.of(failed(1, 0, ""), failed(2, 10_000, "f1")));
        assertEquals(RowClass.FAILED, RowClass.of(pf, 0));
        assertEquals(RowClass.FAILED, RowClass.of(pf, 1));
    }

    @Test
    void aFailedOverRequestIsAFaultyInvocationWhetherOrNotAFaultWasOn(@TempDir Path dir) throws Exception {
        ProbeFile pf = ProbeBlocks.block(dir, "c01-t00-rorig", List.of(row(1, 0, 20_000, "r2", "retried", "f1"),
                row(2, 100_000, 20_000, "r2", "retried", "")));
        assertEquals(RowClass.FAULTY, RowClass.of(pf, 0));
        assertEquals(RowClass.FAULTY, RowClass.of(pf, 1), "a false suspicion is still a failed-over invocation");
    }

    @Test
    void aHedgedAnswerIsAFaultyInvocationOnlyWhileAFaultIsOn(@TempDir Path dir) throws Exception {
        ProbeFile pf = ProbeBlocks.block(dir, "c01-t00-rorig", List.of(row(1, 0, 5_000, "r2", "hedged", "f1"),
                row(2, 100_000, 5_000, "r2", "hedged", "")));
        assertEquals(RowClass.FAULTY, RowClass.of(pf, 0));
        assertEquals(RowClass.FAULT_FREE, RowClass.of(pf, 1), "a hedge with no fault on is only a hedge");
    }

    @Test
    void anAnswerWithoutFailOverIsFaultFreeOrOverlappingByWhetherAFaultWasOn(@TempDir Path dir) throws Exception {
        ProbeFile pf = ProbeBlocks.block(dir, "c01-t00-rorig", List.of(row(1, 0, 5_000, "r1", "ok", ""),
                row(2, 100_000, 5_000, "r1", "ok", "f1")));
        assertEquals(RowClass.FAULT_FREE, RowClass.of(pf, 0));
        assertEquals(RowClass.OVERLAPPING, RowClass.of(pf, 1));
    }
}
