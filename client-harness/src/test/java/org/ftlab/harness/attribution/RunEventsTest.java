package org.ftlab.harness.attribution;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

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
}
