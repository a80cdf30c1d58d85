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

    @Test
    void strategyAndDegreeAreFactorsCrossedWithTheOthersAndNamedInEveryBlock() {
        GridPlan p = plan(GridPlan.Order.RANDOM, 5, 2).withInfra(new GridPlan.Infra(List.of("preconnected", "active"),
                List.of(2, 3)));
        assertEquals(32, p.configurations().size(), "8 workload configurations x 2 strategies x 2 degrees");
        List<GridPlan.Block> blocks = p.schedule();
        assertEquals(64, blocks.size());
        assertEquals(64, new HashSet<>(blocks.stream().map(GridPlan.Block::id).toList()).size());
        assertTrue(blocks.stream().anyMatch(b -> b.id().equals("c04-t20-r256-sactive-n3-rep2")));
        assertEquals(16, blocks.stream().filter(b -> "active".equals(b.config().strategy())
                && b.config().replicas() == 2).count());
        assertEquals(3, p.infra().maxReplicas());
        assertEquals(2, p.infra().minReplicas());
    }

    @Test
    void oneLevelOfAStrategyOrADegreeIsNoFactorAndKeepsTheBlockNames() {
        GridPlan p = plan(GridPlan.Order.SEQUENTIAL, 0, 1).withInfra(new GridPlan.Infra(List.of("hedged"), List.of(3)));
        assertEquals(8, p.configurations().size());
        assertEquals("c01-t00-rorig", p.schedule().get(0).id());
        assertEquals(List.of("preconnected"), p.strategiesOr("preconnected"), "one level: the run's strategy");
    }

    @Test
    void aFactorLevelGivenTwiceOrADegreeOutOfRangeIsOneClearLine() {
        IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
                () -> new GridPlan.Infra(List.of("active", "active"), List.of()));
        assertTrue(twice.getMessage().contains("twice"), twice.getMessage());
        IllegalArgumentException six = assertThrows(IllegalArgumentException.class,
                () -> new GridPlan.Infra(List.of(), List.of(2, 6)));
        assertEquals("--replicas levels must be 1 to 5, was 6", six.getMessage());
    }

    @Test
    void theInfraProfileCrossesPlatformStrategyAndDegreeWithClientsAndReplySizeEveryBlockBigEnoughForItsP99() {
        GridPlan p = GridPlan.named("infra");
        assertEquals(72, p.configurations().size(), "2 platforms x 3 strategies x 2 degrees x 3 client counts x 2 replies");
        assertEquals(144, p.blockCount());
        assertTrue(p.invocationsPerClient() >= 528, "a 1-client block has the requests the p99 interval needs");
        assertTrue(p.configurations().stream().allMatch(c -> c.platform() != null && c.strategy() != null
                && c.replicas() >= 2), "every level named in every block");
    }
}
