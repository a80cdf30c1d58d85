package org.ftlab.harness.attribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import jdk.jfr.Recording;
import org.ftlab.os.jfr.DatabaseLockWait;
import org.ftlab.os.jfr.DatabaseMetadataLockWait;
import org.ftlab.os.jfr.HostCpuSample;
import org.ftlab.os.jfr.ProcessSample;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Safepoints and GC pauses of a recording turned into stalls. */
class JfrStallsTest {
    @TempDir
    Path dir;

    @Test
    void aSafepointInWhichACollectionPausedIsAGcPauseFromItsBeginToItsEnd() {
        Map<Long, long[]> safepoints = new TreeMap<>(Map.of(7L, new long[] {1_000, 9_000}, 8L,
                new long[] {20_000, 20_500}));
        List<Stall> stalls = JfrStalls.stalls("r1", safepoints, Map.of(7L, "G1CollectFull", 8L, "Cleanup"),
                List.of(new long[] {2_000, 8_000, 3}), Map.of(3L, "G1Full (Diagnostic Command)"));
        assertEquals(List.of(new Stall("r1", Stall.Cause.GC_PAUSE, 1_000, 9_000, "G1Full (Diagnostic Command)"),
                new Stall("r1", Stall.Cause.SAFEPOINT, 20_000, 20_500, "safepoint: Cleanup")), stalls);
    }

    @Test
    void aPauseWithoutItsSafepointAndASafepointCutByTheRecordingsEdge() {
        Map<Long, long[]> safepoints = new TreeMap<>(Map.of(1L, new long[] {Long.MIN_VALUE, 500}));
        List<Stall> stalls = JfrStalls.stalls("harness", safepoints, Map.of(), List.of(new long[] {3_000, 4_000, 9}),
                Map.of());
        assertEquals(List.of(new Stall("harness", Stall.Cause.GC_PAUSE, 3_000, 4_000, "GC 9")), stalls);
    }

    @Test
    void aForcedCollectionRecordedInThisJvmIsReadBackAsAGcPause() throws Exception {
        Path file = dir.resolve("harness-seg1.jfr");
        try (Recording r = new Recording()) {
            for (String e : List.of("jdk.GCPhasePause", "jdk.GarbageCollection", "jdk.SafepointBegin",
                    "jdk.SafepointEnd", "jdk.ExecuteVMOperation")) {
                r.enable(e).withThreshold(Duration.ZERO);
            }
            r.start();
            long before = JfrStalls.us(Instant.now());
            System.gc();
            long after = JfrStalls.us(Instant.now());
            r.stop();
            r.dump(file);
            List<Stall> gcs = JfrStalls.read(file, "harness").stream()
                    .filter(s -> s.cause() == Stall.Cause.GC_PAUSE).toList();
            assertTrue(gcs.stream().anyMatch(s -> s.startUs() >= before - 1_000 && s.endUs() <= after + 1_000
                    && s.detail().contains("System.gc()")), "the collection, on the probes' clock: " + gcs);
        }
    }

    @Test
    void theManagersRecordedLockWaitIsAStallOfTheDatabaseForTheConnectionThatWaited() throws Exception {
        Path file = dir.resolve("rm-seg1.jfr");
        try (Recording r = new Recording()) {
            r.enable(DatabaseLockWait.NAME).withThreshold(Duration.ZERO);
            r.start();
            long before = JfrStalls.us(Instant.now());
            DatabaseLockWait wait = new DatabaseLockWait();
            wait.begin();
            wait.connection = 41;
            wait.transaction = "1207";
            wait.waitedBeforeMicros = 5_000; // it had waited 5 ms when the sampler first saw it
            Thread.sleep(20);
            wait.commit();
            long after = JfrStalls.us(Instant.now());
            r.stop();
            r.dump(file);
            List<Stall> stalls = JfrStalls.read(file, "rm");
            assertEquals(1, stalls.stream().filter(s -> s.cause() == Stall.Cause.ROW_LOCK_WAIT).count(),
                    stalls.toString());
            Stall s = stalls.stream().filter(x -> x.cause() == Stall.Cause.ROW_LOCK_WAIT).findFirst().orElseThrow();
            assertEquals("db", s.process(), "a wait in the database, whichever process sampled it");
            assertEquals(41, s.connection());
            assertTrue(s.holdsUp(41) && !s.holdsUp(42));
            assertTrue(s.startUs() >= before - 5_000 && s.startUs() < after - 5_000 && s.endUs() <= after
                    && s.durationUs() >= 24_000, "begins 5 ms before the event: " + s);
            assertEquals("db-lock-wait(db)", s.label());
        }
    }

    @Test
    void theManagersRecordedMetadataLockWaitIsAStallOfTheDatabaseForTheConnectionThatWaitedAtItsStatement()
            throws Exception {
        Path file = dir.resolve("rm-seg1.jfr");
        try (Recording r = new Recording()) {
            r.enable(DatabaseMetadataLockWait.NAME).withThreshold(Duration.ZERO);
            r.start();
            long before = JfrStalls.us(Instant.now());
            DatabaseMetadataLockWait wait = new DatabaseMetadataLockWait();
            wait.begin();
            wait.connection = 17;
            wait.state = "Waiting for backup lock";
            wait.statement = "COMMIT";
            Thread.sleep(20);
            wait.commit();
            long after = JfrStalls.us(Instant.now());
            r.stop();
            r.dump(file);
            List<Stall> stalls = JfrStalls.read(file, "rm");
            assertEquals(1, stalls.size(), stalls.toString());
            Stall s = stalls.get(0);
            assertEquals(Stall.Cause.METADATA_LOCK_WAIT, s.cause());
            assertEquals("db", s.process(), "a wait in the database, whichever process sampled it");
            assertTrue(s.holdsUp(17) && !s.holdsUp(12));
            assertTrue(s.startUs() >= before && s.endUs() <= after && s.durationUs() >= 19_000,
                    "from the first sample that saw it to the first that did not: " + s);
            assertEquals("connection 17 waiting for backup lock (COMMIT)", s.detail());
            assertEquals("db-mdl-wait(db)", s.label());
        }
    }

    @Test
    void theManagersHostAndProcessSamplesAreReadBackWithTheirIntervalsAndUnits() throws Exception {
        Path file = dir.resolve("rm-seg1.jfr");
        try (Recording r = new Recording()) {
            r.enable(HostCpuSample.NAME).withThreshold(Duration.ZERO);
            r.enable(ProcessSample.NAME).withThreshold(Duration.ZERO);
            r.start();
            HostCpuSample h = new HostCpuSample();
            h.begin();
            ProcessSample p = new ProcessSample();
            p.begin();
            Thread.sleep(15);
            h.cpus = 2;
            h.busyCpus = 1.5;
            h.stealCpus = 0.25;
            h.pressureMicros = 4_000;
            h.commit();
            p.process = "db";
            p.pid = 42;
            p.userMicros = 30_000;
            p.systemMicros = 10_000;
            p.minorFaults = 7;
            p.majorFaults = 1;
            p.residentBytes = 300L << 20;
            p.commit();
            r.stop();
            r.dump(file);
        }
        JfrStalls.Recording rec = JfrStalls.readAll(file, "rm");
        assertEquals(1, rec.host().size());
        JfrStalls.HostSample hs = rec.host().get(0);
        assertEquals(2, hs.cpus());
        assertEquals(1.5, hs.busyCpus(), 1e-9);
        assertEquals(0.25, hs.stealCpus(), 1e-9);
        assertEquals(4_000, hs.pressureUs());
        assertTrue(hs.endUs() - hs.startUs() >= 15_000, "the event spans its interval: " + hs);
        assertEquals(List.of(new JfrStalls.ProcessUse("db", rec.processes().get(0).startUs(),
                rec.processes().get(0).endUs(), 30_000, 10_000, 7, 1, 300L << 20)), rec.processes());
    }

    @Test
    void theMachinesContextSwitchRateIsTheSampleNearestEachCpuLoadWithinASecond() {
        TreeMap<Long, Double> switches = new TreeMap<>(Map.of(1_000_120L, 4_000.0,
                2_000_090L, 6_000.0));
        assertEquals(4_000.0, JfrStalls.nearest(switches, 1_000_100));
        assertEquals(6_000.0, JfrStalls.nearest(switches, 2_000_000));
        assertTrue(Double.isNaN(JfrStalls.nearest(switches, 9_000_000)), "none within a second");
        assertTrue(Double.isNaN(JfrStalls.nearest(new TreeMap<>(), 1)));
    }

    @Test
    void aFileThatIsNotARecordingIsOneClearError() throws Exception {
        Path file = dir.resolve("r1-seg1.jfr");
        Files.writeString(file, "not a recording");
        IOException e = assertThrows(IOException.class, () -> JfrStalls.read(file, "r1"));
        assertTrue(e.getMessage().startsWith("r1-seg1.jfr is not a readable JFR recording"), e.getMessage());
    }
}
