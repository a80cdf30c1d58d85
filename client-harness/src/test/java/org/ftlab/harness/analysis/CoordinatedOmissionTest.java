package org.ftlab.harness.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class CoordinatedOmissionTest {

    /** 99 requests of 1 ms and one stall of 100 ms, think time 0: the stall hid 99 requests. */
    private static long[] stalled() {
        long[] v = new long[100];
        Arrays.fill(v, 1_000);
        v[50] = 100_000;
        return v;
    }

    @Test
    void theExpectedIntervalIsThinkTimePlusMedianLatency() {
        assertEquals(21_500, CoordinatedOmission.expectedIntervalUs(20, 1_500));
        assertEquals(1_000, CoordinatedOmission.expectedIntervalUs(0, 1_000));
    }

    @Test
    void aStallAddsTheWaitsOfTheRequestsItHidAndTheCorrectedP99SeesIt() {
        // Expected interval 1 ms: the 100-ms value adds 99, 98, ..., 1 ms (99 values): 199 in all, 100 of them 1 ms.
        CoordinatedOmission.Corrected c = CoordinatedOmission.correct(stalled(), 1_000);
        assertEquals(199, c.count());
        assertEquals(1_000, c.p50Us(), 1);
        // HdrHistogram's p99 is the value at the nearest rank ⌈0.99·199⌉ = 198 of the sorted values: 99 ms,
        // reported as the highest value equivalent to it at 3 significant digits (within 0.1%).
        assertEquals(99_000, c.p99Us(), 99);
        assertEquals(100_000, c.maxUs(), 100);
        // mean: (100·1 + (2 + ... + 100)) / 199 ms = (100 + 5049) / 199 ms
        assertEquals(5149.0 / 199 * 1000, c.meanUs(), 5149.0 / 199);
        // recorded: the stall is a single value above p99
        Histogram recorded = CoordinatedOmission.recorded(stalled());
        assertEquals(1_000, recorded.getValueAtPercentile(99), 1);
    }

    @Test
    void latenciesBelowTheExpectedIntervalAreNotCorrected() {
        CoordinatedOmission.Corrected c = CoordinatedOmission.correct(stalled(), 200_000);
        assertEquals(100, c.count());
    }

    @Test
    void fractionAboveCountsTheCorrectedValuesOverAThreshold() {
        Histogram h = CoordinatedOmission.corrected(stalled(), 1_000);
        // values above 50 ms: 51..100 ms = 50 of 199
        assertEquals(50.0 / 199, CoordinatedOmission.fractionAbove(h, 50_000), 1.0 / 199);
    }

    @Test
    void theSpectrumRisesToTheMaxAndEndsAtOneHundredPercent() {
        List<CoordinatedOmission.SpectrumPoint> s = CoordinatedOmission.spectrum(
                CoordinatedOmission.corrected(stalled(), 1_000));
        assertEquals(100, s.get(s.size() - 1).percentile());
        assertEquals(100_000, s.get(s.size() - 1).valueUs(), 100);
        for (int i = 1; i < s.size(); i++) {
            assertTrue(s.get(i).percentile() >= s.get(i - 1).percentile());
            assertTrue(s.get(i).valueUs() >= s.get(i - 1).valueUs());
        }
    }
}
