package org.ftlab.harness.attribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How a run's samples are gathered from its event files. */
class RunEventsTest {
    private static JfrStalls.HostSample host(long start, long end) {
        return new JfrStalls.HostSample(start, end, 2, 1.0, 0, 0);
    }

    @Test
    void aSampleInTwoSegmentsFilesCountsOnceAndNeighboursThatOverlapByMicrosecondsAreAllKept() {
        // the sampler begins each interval just before it ends the one before
        List<JfrStalls.HostSample> samples = List.of(host(20_003, 30_001), host(0, 10_002), host(10_001, 20_004),
                host(10_001, 20_004)); // the last: the same sample, from the next segment's file
        List<JfrStalls.HostSample> once = RunEvents.once(samples, JfrStalls.HostSample::startUs,
                JfrStalls.HostSample::endUs);
        assertEquals(List.of(host(0, 10_002), host(10_001, 20_004), host(20_003, 30_001)), once);
    }

    @TempDir
    Path dir;

    @Test
    void aPauseInTheFilesOfTwoSegmentsCountsOnceAndAListedFileThatIsMissingIsOneProblemLine() throws Exception {
        Files.createDirectories(dir.resolve("events"));
        try (Recording r = new Recording()) {
            r.enable("jdk.GCPhasePause").withThreshold(Duration.ZERO);
            r.enable("jdk.GarbageCollection").withThreshold(Duration.ZERO);
            r.start();
            System.gc();
            r.stop();
            r.dump(dir.resolve("events/r1-seg1.jfr"));
        }
        // a dump cuts whole chunks: the second segment's file can hold what the first's did
        Files.copy(dir.resolve("events/r1-seg1.jfr"), dir.resolve("events/r1-seg2.jfr"));
        Files.writeString(dir.resolve("manifest.json"), """
                {"format_version": 2, "status": "complete", "segments": [
                  {"start": "a", "end": "b", "status": "complete", "events": {"r1": "events/r1-seg1.jfr"}},
                  {"start": "c", "end": "d", "status": "complete",
                   "events": {"r1": "events/r1-seg2.jfr", "r2": "events/r2-seg2.jfr"}}]}
                """);
        RunEvents once = RunEvents.load(dir);
        Files.delete(dir.resolve("events/r1-seg2.jfr"));
        Files.copy(dir.resolve("events/r1-seg1.jfr"), dir.resolve("events/r2-seg2.jfr"));
        RunEvents first = RunEvents.load(dir);
        assertTrue(first.of("r1").stream().anyMatch(s -> s.cause() == Stall.Cause.GC_PAUSE), first.toString());
        assertEquals(first.of("r1"), once.of("r1"), "each pause once");
        assertEquals(List.of("events/r2-seg2.jfr is missing: r2's events are left out"), once.problems());
        assertEquals(List.of("events/r1-seg2.jfr is missing: r1's events are left out"), first.problems());
    }
}
