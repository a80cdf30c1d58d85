package org.ftlab.harness.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class LatencySummaryTest {

    @Test
    void percentilesAreNearestRankOverTheSortedValues() {
        long[] hundred = LongStream.rangeClosed(1, 100).map(i -> 101 - i).toArray(); // 100..1, unsorted
        LatencySummary s = LatencySummary.of(hundred);
        assertEquals(100, s.count());
        assertEquals(50.5, s.meanMicros(), 1e-12);
        assertEquals(50, s.medianMicros()); // rank ceil(0.50 * 100) = 50
        assertEquals(99, s.p99Micros()); // rank ceil(0.99 * 100) = 99
        assertEquals(100, s.maxMicros());
    }

    @Test
    void p99OfFewerThanAHundredValuesIsTheMaximum() {
        LatencySummary s = LatencySummary.of(new long[] {5, 1, 9, 3});
        assertEquals(9, s.p99Micros()); // rank ceil(0.99 * 4) = 4
        assertEquals(1, LatencySummary.nearestRank(new long[] {1, 3, 5, 9}, 25));
        assertEquals(3, LatencySummary.nearestRank(new long[] {1, 3, 5, 9}, 26));
    }

    @Test
    void oneValueIsEveryStatistic() {
        LatencySummary s = LatencySummary.of(new long[] {42});
        assertEquals(42, s.medianMicros());
        assertEquals(42, s.p99Micros());
        assertEquals(42.0, s.meanMicros());
    }

    @Test
    void noValuesGiveACountOfZeroAndAnUndefinedMean() {
        LatencySummary s = LatencySummary.of(new long[0]);
        assertEquals(0, s.count());
        assertEquals(Double.NaN, s.meanMicros());
    }
}
