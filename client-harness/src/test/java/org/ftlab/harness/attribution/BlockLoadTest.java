package org.ftlab.harness.attribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What each process did while a block ran, from its recorded load samples and pauses. */
class BlockLoadTest {
    @Test
    void aBlocksMetricsAreTheMeansOfTheSamplesInsideItAndThePausesThatBeganInIt() {
        List<JfrStalls.LoadSample> harness = List.of(
                new JfrStalls.LoadSample(500, 0.9, 0.9, 0.9, 99_999), // before the block: left out
                new JfrStalls.LoadSample(1_000, 0.10, 0.02, 0.80, 4_000),
                new JfrStalls.LoadSample(2_000, 0.20, 0.04, 0.60, 6_000));
        List<JfrStalls.LoadSample> r1 = List.of(new JfrStalls.LoadSample(1_500, 0.40, 0.10, 0.70, Double.NaN));
        List<Stall> r1Stalls = List.of(
                new Stall("r1", Stall.Cause.GC_PAUSE, 1_200, 4_200, "G1New"),
                new Stall("r1", Stall.Cause.SAFEPOINT, 1_300, 1_400, "safepoint: Cleanup"),
                new Stall("r1", Stall.Cause.GC_PAUSE, 2_500, 3_000, "G1New")); // began after the block
        RunEvents events = new RunEvents(true, Map.of("r1", r1Stalls), List.of(),
                Map.of("harness", harness, "r1", r1));
        Map<String, Double> m = BlockLoad.of(events, 900, 2_100);
        assertEquals(0.15, m.get("harness.user_cpu"), 1e-9);
        assertEquals(0.03, m.get("harness.kernel_cpu"), 1e-9);
        assertEquals(0.70, m.get("machine.cpu"), 1e-9);
        assertEquals(5_000, m.get("machine.context_switches_per_s"), 1e-9);
        assertEquals(0.40, m.get("r1.user_cpu"), 1e-9);
        assertEquals(1.0, m.get("r1.gc_pauses"), "the safepoint is not a collection");
        assertEquals(3.0, m.get("r1.gc_pause_ms"), 1e-9);
        assertEquals(0.0, m.get("harness.gc_pauses"));
        assertFalse(m.containsKey("r1.context_switches_per_s"), "the machine's rate is the harness's only");
    }

    @Test
    void theManagersSamplesGiveEachProcesssPageFaultsAndResidentSetTheDatabasesCpuAndTheHostsStealAndPressure() {
        List<JfrStalls.ProcessUse> db = List.of(
                new JfrStalls.ProcessUse("db", 0, 50_000, 9_000, 9_000, 99, 9, 1L << 30), // before the block
                new JfrStalls.ProcessUse("db", 1_000_000, 1_050_000, 40_000, 10_000, 20, 1, 100L << 20),
                new JfrStalls.ProcessUse("db", 1_050_000, 1_100_000, 20_000, 10_000, 30, 0, 300L << 20));
        List<JfrStalls.ProcessUse> r1 = List.of(
                new JfrStalls.ProcessUse("r1", 1_000_000, 1_100_000, 50_000, 0, 10, 0, 512L << 20));
        List<JfrStalls.LoadSample> r1Load = List.of(new JfrStalls.LoadSample(1_050_000, 0.40, 0.10, 0.70, Double.NaN));
        List<JfrStalls.HostSample> host = List.of(
                new JfrStalls.HostSample(1_000_000, 1_050_000, 2, 1.5, 0.2, 10_000),
                new JfrStalls.HostSample(1_050_000, 1_100_000, 2, 1.5, 0.0, 30_000));
        RunEvents events = new RunEvents(true, Map.of(), List.of(), Map.of("r1", r1Load), host,
                Map.of("db", db, "r1", r1));
        Map<String, Double> m = BlockLoad.of(events, 1_000_000, 1_100_000);
        assertEquals(500, m.get("db.minor_faults_per_s"), 1e-9, "50 faults in 0.1 s");
        assertEquals(10, m.get("db.major_faults_per_s"), 1e-9);
        assertEquals(200, m.get("db.resident_mib"), 1e-9, "the mean of 100 and 300 MiB");
        assertEquals(0.3, m.get("db.user_cpu"), 1e-9, "60 ms of CPU in 0.1 s, of 2 CPUs");
        assertEquals(0.1, m.get("db.kernel_cpu"), 1e-9);
        assertEquals(0.40, m.get("r1.user_cpu"), 1e-9, "a JVM's own samples are kept");
        assertEquals(100, m.get("r1.minor_faults_per_s"), 1e-9);
        assertEquals(0.05, m.get("machine.steal_cpu"), 1e-9, "0.1 CPU stolen on average, of 2");
        assertEquals(0.4, m.get("machine.cpu_pressure"), 1e-9, "40 ms of 100 with a task waiting");
    }
}
