package org.ftlab.harness.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.ftlab.harness.attribution.Attribution;
import org.ftlab.harness.attribution.InjectedStalls;
import org.ftlab.harness.grid.FaultSchedule;
import org.ftlab.harness.probe.FaultRecord;
import org.ftlab.harness.probe.ProbeFile;
import org.ftlab.rm.api.FaultKind;
import org.junit.jupiter.api.Test;

/** How the attribution bench scores a run: recall per injected stall, precision per named cause. */
class AttributionBenchTest {
    private static final FaultKind CPU_HOG = FaultKind.parse("cpu-hog");
    private static final FaultKind DB_LOCK = FaultKind.parse("db-lock");
    private static final FaultKind DB_BACKUP = FaultKind.parse("db-backup");
    private static final FaultKind GC = FaultKind.parse("gc");
    private static final long T0 = 1_700_000_000_000_000L;

    private static FaultRecord fault(String id, FaultKind kind, String replica, long fromMs, long toMs) {
        long none = ProbeFile.NONE;
        return new FaultRecord(id, kind, "primary", replica, T0 + fromMs * 1000, none, none, none,
                FaultRecord.UNKNOWN, T0 + toMs * 1000, "undone", toMs - fromMs, 0, "", 0);
    }

    private static Attribution.Outlier slow(long sendMs, long latencyMs, String cause, String detail) {
        return new Attribution.Outlier("c04-t00-rorig", "c1", sendMs, "postAuction", T0 + sendMs * 1000,
                latencyMs * 1000, latencyMs * 1000, false, cause, 0, 0.5, "statements",
                List.of(new Attribution.Evidence("r1", "gc-pause", detail, 0, 0, 0)), Map.of());
    }

    private static AttributionBench.KindResult kind(List<AttributionBench.KindResult> r, String name) {
        return r.stream().filter(k -> k.kind().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void aStallIsFoundWhenMostOfTheSlowRequestsItDelayedNameItsCause() {
        List<FaultRecord> faults = List.of(fault("f1", GC, "r1", 1_000, 1_100),
                fault("f2", GC, "r1", 5_000, 5_100), fault("f3", DB_LOCK, null, 9_000, 9_300),
                fault("f4", CPU_HOG, "r1", 20_000, 20_500));
        List<Attribution.Outlier> outliers = List.of(
                slow(1_050, 80, "gc-pause(r1)", "G1Full (Diagnostic Command)"),
                slow(1_060, 70, "gc-pause(r1)", "G1Full (Diagnostic Command)"),
                slow(1_070, 60, "unexplained", ""),
                // f2 delayed two slow requests, named otherwise: missed
                slow(5_050, 80, "cpu-runqueue(r1)", ""),
                slow(5_060, 80, "unexplained", ""),
                slow(9_100, 300, "db-lock-wait(db)", "connection 12 waited"),
                // a young collection nobody injected: a natural cause, not a right one
                slow(30_000, 40, "gc-pause(r1)", "G1New (G1 Evacuation Pause)"),
                // a process outside the lab that nobody started held the CPUs
                slow(31_000, 40, "cpu-outside(host)", ""));
        List<AttributionBench.KindResult> r = AttributionBench.score(outliers, faults);
        AttributionBench.KindResult gc = kind(r, "gc");
        assertEquals(2, gc.injected());
        assertEquals(1, gc.found());
        assertEquals(0.5, gc.recall(), 1e-9);
        assertEquals(3, gc.attributions());
        assertEquals(2, gc.right());
        assertEquals(1, gc.natural());
        assertTrue(gc.missed().get(0).startsWith("f2: 0 of 2"), gc.missed().toString());
        AttributionBench.KindResult lock = kind(r, "db-lock");
        assertEquals(1.0, lock.recall(), 1e-9);
        assertEquals(1.0, lock.precision(), 1e-9);
        AttributionBench.KindResult hog = kind(r, "cpu-hog");
        assertEquals(1, hog.delayedNone(), "no slow request was in flight during the cpu-hog");
        assertTrue(Double.isNaN(hog.recall()));
        assertEquals(1, hog.attributions(), "a wait for a CPU the lab's own processes held is not a hog's");
        assertEquals(0.0, hog.precision(), 1e-9, "the one naming fell outside every cpu-hog");
    }

    @Test
    void aStallDelaysTheRequestsInFlightWhileItWasOnAndNoOthers() {
        FaultRecord gc = fault("f1", GC, "r1", 1_000, 1_400);
        assertTrue(!InjectedStalls.overlaps(slow(900, 90, "cpu-runqueue(r1)", ""), gc), "done before it");
        assertTrue(InjectedStalls.overlaps(slow(990, 250, "gc-pause(r1)", ""), gc), "in flight when it began");
        assertTrue(InjectedStalls.overlaps(slow(1_200, 250, "gc-pause(r1)", ""), gc), "sent during it");
        FaultRecord lock = fault("f2", DB_LOCK, null, 2_000, 2_300);
        assertTrue(InjectedStalls.overlaps(slow(2_010, 90, "db-lock-wait(db)", ""), lock));
        assertTrue(!InjectedStalls.overlaps(slow(2_300, 20, "unexplained", ""), lock), "sent once it was undone");
    }

    @Test
    void theScheduleHasOneStallOfEachKindInEveryBlock() {
        FaultSchedule s = AttributionBench.schedule(3);
        assertEquals(12, s.entries().size());
        assertEquals(List.of(GC, CPU_HOG, DB_LOCK, DB_BACKUP), s.kinds());
        s.checkBlocks(3);
    }

    @Test
    void theCostRunObservesOneBlockOfEachPairInTheOrderOnOffOffOn() {
        List<Boolean> order = IntStream.rangeClosed(1, 8).mapToObj(AttributionBench::observedIn)
                .toList();
        assertEquals(List.of(true, false, false, true, true, false, false, true), order);
    }

    @Test
    void theObservationCostIsTheMedianOverNeighbouringPairsAndTheP99IsJudgedAgainstTheUnobservedBlocksRange() {
        List<AttributionBench.CostBlock> blocks = List.of(
                new AttributionBench.CostBlock(1, true, 8000, 1030, 9000),
                new AttributionBench.CostBlock(2, false, 8000, 1000, 8000),
                new AttributionBench.CostBlock(3, false, 8000, 1100, 10000),
                new AttributionBench.CostBlock(4, true, 8000, 1111, 9500),
                new AttributionBench.CostBlock(5, true, 8000, 1050, 30000),
                new AttributionBench.CostBlock(6, false, 8000, 1050, 9900));
        AttributionBench.ObservationCost c = AttributionBench.ObservationCost.of(blocks);
        assertEquals(1050, c.meanObservedUs(), 1e-9);
        assertEquals(1050, c.meanUnobservedUs(), 1e-9);
        assertEquals(1.01, c.meanRatio(), 1e-9, "pairs 1.03, 1.01, 1.00");
        assertEquals(1.0, c.pairMeanRatioMin(), 1e-9);
        assertEquals(1.03, c.pairMeanRatioMax(), 1e-9);
        assertEquals(9500, c.p99ObservedUs(), 1e-9);
        assertEquals(1.125, c.p99Ratio(), 1e-9, "pairs 9000/8000, 9500/10000, 30000/9900");
        assertEquals(8000, c.p99UnobservedMinUs());
        assertEquals(10000, c.p99UnobservedMaxUs());
        assertTrue(c.meanWithinTarget());
        assertTrue(c.p99WithinSpread());
        AttributionBench.ObservationCost slower = AttributionBench.ObservationCost.of(List.of(
                new AttributionBench.CostBlock(1, true, 8000, 1100, 12000),
                new AttributionBench.CostBlock(2, false, 8000, 1000, 9000)));
        assertEquals(1.1, slower.meanRatio(), 1e-9);
        assertFalse(slower.meanWithinTarget());
        assertFalse(slower.p99WithinSpread());
    }

    @Test
    void anObservationCostNeedsBlocksOfBothKinds() {
        assertThrows(IllegalArgumentException.class, () -> AttributionBench.ObservationCost.of(List.of(
                new AttributionBench.CostBlock(1, true, 8000, 1100, 12000))));
    }
}
