package org.ftlab.os.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.ftlab.os.jfr.HostCpuSample;
import org.ftlab.os.jfr.ProcessSample;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the host sampler reads from /proc, and what it records. */
class HostSamplerTest {
    private static final String STAT = """
            cpu  2372499 220685 472268 1598871 14570 100 59011 13813 0 0
            cpu0 1186249 110342 236134 799435 7285 50 29505 6906 0 0
            cpu1 1186250 110343 236134 799436 7285 50 29506 6907 0 0
            intr 1
            ctxt 2
            """;

    @TempDir
    Path dir;

    @Test
    void theHostsBusyTicksAreUserNiceSystemIrqAndSoftirqAndStealIsApart() {
        HostSampler.HostCounters c = HostSampler.hostCounters(STAT, 77);
        assertEquals(2372499L + 220685 + 472268 + 100 + 59011, c.busyTicks(), "idle and iowait are not busy");
        assertEquals(13813, c.stealTicks());
        assertEquals(77, c.pressureMicros());
        assertEquals(2, HostSampler.cpus(STAT));
        assertThrows(IllegalArgumentException.class, () -> HostSampler.hostCounters("intr 1 2 3\n", -1));
    }

    @Test
    void cpuPressureIsTheSomeLinesTotal() {
        assertEquals(9946105018L, HostSampler.somePressureMicros("""
                some avg10=80.55 avg60=65.24 avg300=34.84 total=9946105018
                full avg10=0.00 avg60=0.00 avg300=0.00 total=0
                """));
        assertThrows(IllegalArgumentException.class, () -> HostSampler.somePressureMicros("full total=3\n"));
    }

    @Test
    void aProcessStatLineIsReadAfterItsCommandNameEvenWithSpacesAndParenthesesInIt() {
        String line = "16462 (java (r1) x) S 1 16462 16462 0 -1 4194560 51234 7 3 0 12001 345 0 0 20 0 212 0 "
                + "5871 3375312896 129675 18446744073709551615 1 1 0 0 0 0 0 4096 16391 0 0 0 17 1 0 0 0 0 0\n";
        HostSampler.ProcessCounters c = HostSampler.processCounters(line);
        assertEquals(51234, c.minorFaults());
        assertEquals(3, c.majorFaults());
        assertEquals(12001, c.userTicks());
        assertEquals(345, c.systemTicks());
        assertEquals(129675, c.residentPages());
    }

    @Test
    void theSamplerRecordsTheHostEvery10MsAndEachProcessEvery50MsAsEventsSpanningTheirIntervals()
            throws Exception {
        if (!Files.isReadable(Path.of("/proc/stat"))) {
            return; // not Linux: nothing to sample, and the sampler says so
        }
        Path file = dir.resolve("rm.jfr");
        long self = ProcessHandle.current().pid();
        try (Recording r = new Recording()) {
            r.enable(HostCpuSample.NAME).withThreshold(java.time.Duration.ZERO);
            r.enable(ProcessSample.NAME).withThreshold(java.time.Duration.ZERO);
            r.start();
            try (HostSampler s = HostSampler.start(() -> new java.util.HashMap<>(Map.of("rm", self)))) {
                long spin = System.nanoTime() + 400_000_000L;
                double sink = 0;
                while (System.nanoTime() < spin) {
                    sink += Math.sqrt(sink + 1); // CPU this process uses, which its samples must show
                }
                assertTrue(sink > 0);
            }
            r.stop();
            r.dump(file);
        }
        int host = 0;
        long userUs = 0;
        int process = 0;
        try (RecordingFile in = new RecordingFile(file)) {
            while (in.hasMoreEvents()) {
                RecordedEvent e = in.readEvent();
                if (e.getEventType().getName().equals(HostCpuSample.NAME)) {
                    host++;
                    assertTrue(e.getDouble(HostCpuSample.BUSY) >= 0 && e.getInt(HostCpuSample.CPUS) >= 1);
                    assertTrue(e.getDuration().toMillis() < 1000, "one interval: " + e);
                } else if (e.getEventType().getName().equals(ProcessSample.NAME)) {
                    process++;
                    assertEquals("rm", e.getString(ProcessSample.PROCESS));
                    assertEquals(self, e.getLong(ProcessSample.PID));
                    assertTrue(e.getLong(ProcessSample.RESIDENT) > 0);
                    userUs += e.getDuration(ProcessSample.USER).toNanos() / 1000;
                }
            }
        }
        assertTrue(host >= 10, "about 40 host samples in 0.4 s on an idle machine, " + host + " on this one");
        assertTrue(process >= 2, "about 8 process samples, " + process + " here");
        assertTrue(userUs > 0, "the spinning thread's CPU is in its process's samples");
    }
}
