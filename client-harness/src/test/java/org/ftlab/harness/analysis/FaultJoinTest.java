package org.ftlab.harness.analysis;

import static org.ftlab.harness.analysis.ProbeBlocks.failed;
import static org.ftlab.harness.analysis.ProbeBlocks.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Path;
import java.util.List;
import org.ftlab.harness.probe.ProbeFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Probe rows joined to the faults they overlapped. */
class FaultJoinTest {

    @Test
    void aRowsFaultIsItsFaultIdAndNoneWithout(@TempDir Path dir) throws Exception {
        ProbeFile pf = ProbeBlocks.block(dir, "c01-t00-rorig", List.of(row(1, 0, 5_000, "r1", "ok", "f1"),
                row(2, 100_000, 5_000, "r1", "ok", "")));
        assertEquals("f1", FaultJoin.faultOf(pf, 0));
        assertNull(FaultJoin.faultOf(pf, 1));
    }

    @Test
    void aFaultBelongsToTheFirstBlockWhoseRowsOverlappedItFailedRowsIncluded(@TempDir Path dir) throws Exception {
        ProbeFile first = ProbeBlocks.block(dir, "c01-t00-rorig", List.of(row(1, 0, 5_000, "r1", "ok", ""),
                failed(2, 100_000, "f1")));
        ProbeFile second = ProbeBlocks.block(dir, "c04-t00-rorig", List.of(row(1, 200_000, 5_000, "r2", "ok", "f1"),
                row(2, 300_000, 5_000, "r2", "ok", "f2")));
        FaultJoin join = new FaultJoin();
        join.accept(first);
        join.accept(second);
        assertEquals("c01-t00-rorig", join.blockOf("f1"), "a later block that also met it does not take it");
        assertEquals("c04-t00-rorig", join.blockOf("f2"));
        assertNull(join.blockOf("f3"), "a fault no row overlapped has no block");
    }
}
