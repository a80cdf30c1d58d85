package org.ftlab.harness.grid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import org.ftlab.auction.api.ReplySize;
import org.junit.jupiter.api.Test;

class GridPlanTest {
    private static GridPlan plan(GridPlan.Order order, long seed, int repeat) {
        return new GridPlan("custom", List.of(1, 4), List.of(0, 20), List.of(ReplySize.ORIGINAL, ReplySize.ofBytes(256)),
                10, 10, new GridPlan.Design(5, repeat, order, seed, GridPlan.Arrival.CLOSED, List.of(), 0));
    }

    @Test
    void aRandomScheduleRunsEveryReplicateOfEveryConfigurationOnceAndTheSameSeedGivesTheSameOrder() {
        List<GridPlan.Block> a = plan(GridPlan.Order.RANDOM, 7, 2).schedule();
        assertEquals(16, a.size());
        assertEquals(16, new HashSet<>(a.stream().map(GridPlan.Block::id).toList()).size());
        assertTrue(a.stream().allMatch(b -> b.id().endsWith("-rep" + b.replicate())));
        assertEquals(a, plan(GridPlan.Order.RANDOM, 7, 2).schedule());
        assertNotEquals(a, plan(GridPlan.Order.RANDOM, 8, 2).schedule());
        assertNotEquals(a, plan(GridPlan.Order.SEQUENTIAL, 7, 2).schedule());
    }

    @Test
    void aSequentialScheduleIsGridOrderReplicateAfterReplicate() {
        List<String> ids = plan(GridPlan.Order.SEQUENTIAL, 0, 2).schedule().stream().map(GridPlan.Block::id).toList();
        assertEquals("c01-t00-rorig-rep1", ids.get(0));
        assertEquals("c01-t00-r256-rep1", ids.get(1));
        assertEquals("c04-t20-r256-rep1", ids.get(7));
        assertEquals("c01-t00-rorig-rep2", ids.get(8));
        // one replicate: the file is named by the configuration alone, as before replicates existed
        assertEquals("c01-t00-rorig", plan(GridPlan.Order.SEQUENTIAL, 0, 1).schedule().get(0).id());
    }

    @Test
    void openLoopRatesReplaceTheThinkTimeFactor() {
        GridPlan p = new GridPlan("custom", List.of(4), List.of(0), List.of(ReplySize.ORIGINAL), 10, 0,
                new GridPlan.Design(0, 1, GridPlan.Order.SEQUENTIAL, 1L, GridPlan.Arrival.POISSON, List.of(50.0, 12.5),
                        0));
        assertEquals(List.of("c04-rate50-rorig", "c04-rate12.5-rorig"),
                p.configurations().stream().map(GridConfig::id).toList());
        assertEquals(12.5, GridConfig.openLoop(4, 12.5, ReplySize.ORIGINAL).idOf(0).ratePerS());
    }

    @Test
    void badDesignsAreOneLineErrorsThatSayWhatToDo() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new GridPlan.Design(0, 1,
                GridPlan.Order.RANDOM, 1L, GridPlan.Arrival.POISSON, List.of(), 0)).getMessage().contains("--rate"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new GridPlan.Design(0, 1,
                GridPlan.Order.RANDOM, 1L, GridPlan.Arrival.CLOSED, List.of(5.0), 0)).getMessage()
                .contains("--arrival poisson"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new GridPlan.Design(0, 0,
                GridPlan.Order.RANDOM, 1L, GridPlan.Arrival.CLOSED, List.of(), 0)).getMessage().contains("--repeat"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new GridPlan.Design(-1, 1,
                GridPlan.Order.RANDOM, 1L, GridPlan.Arrival.CLOSED, List.of(), 0)).getMessage().contains("--warmup"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> GridPlan.Order.parse("shuffled"))
                .getMessage().contains("random or sequential"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> GridPlan.Arrival.parse("open"))
                .getMessage().contains("closed, uniform or poisson"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> GridPlan.parseRates("50,fast"))
                .getMessage().contains("--rate"));
    }
}
