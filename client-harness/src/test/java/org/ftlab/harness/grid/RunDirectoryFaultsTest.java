package org.ftlab.harness.grid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.ftlab.auction.api.ReplySize;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunDirectoryFaultsTest {
    @TempDir
    Path tmp;

    private static final GridPlan PLAN = new GridPlan("custom", List.of(1, 4), List.of(0), List.of(ReplySize.ORIGINAL),
            10, 0);

    private RunDirectory create(String name, FaultSchedule faults) throws Exception {
        return RunDirectory.create(tmp.resolve(name), PLAN, "preconnected", faults, 2, 1, "embedded MariaDB",
                Path.of(".."));
    }

    @Test
    void theSameFaultSeedTwiceWritesTheSameScheduleToBothRunsAndAResumedRunReadsItBack() throws Exception {
        FaultSchedule a = FaultSchedule.random(42, FaultSchedule.Mix.ALL, 3, PLAN.blockCount());
        FaultSchedule b = FaultSchedule.random(42, FaultSchedule.Mix.ALL, 3, PLAN.blockCount());
        create("a", a).finish("aborted");
        create("b", b);
        String first = Files.readString(tmp.resolve("a").resolve(FaultSchedule.FILE));
        assertEquals(first, Files.readString(tmp.resolve("b").resolve(FaultSchedule.FILE)));
        assertTrue(first.contains("--fault-seed 42"), first);
        assertEquals(a.entries(), RunDirectory.resume(tmp.resolve("a")).faults().entries(),
                "the resumed run runs the same schedule");
    }

    @Test
    void aRunWithoutFaultsWritesNoScheduleAndReadsBackNone() throws Exception {
        create("none", FaultSchedule.NONE);
        assertTrue(Files.notExists(tmp.resolve("none").resolve(FaultSchedule.FILE)));
        assertEquals(FaultSchedule.NONE.entries(), RunDirectory.resume(tmp.resolve("none")).faults().entries());
    }
}
