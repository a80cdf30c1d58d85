package org.ftlab.harness.analysis;

import java.util.Arrays;

/**
 * Count, mean, median, 99th percentile and maximum of a set of latencies, in microseconds. Percentiles use the
 * nearest-rank definition: the p-th percentile is the smallest value with at least p% of values at or below it
 * (sorted value at rank ceil(p/100 * n), 1-based).
 */
public record LatencySummary(int count, double meanMicros, long medianMicros, long p99Micros, long maxMicros) {

    public static LatencySummary of(long[] latenciesMicros) {
        int n = latenciesMicros.length;
        if (n == 0) {
            return new LatencySummary(0, Double.NaN, 0, 0, 0);
        }
        long[] sorted = latenciesMicros.clone();
        Arrays.sort(sorted);
        double sum = 0;
        for (long v : sorted) {
            sum += v;
        }
        return new LatencySummary(n, sum / n, nearestRank(sorted, 50), nearestRank(sorted, 99), sorted[n - 1]);
    }

    /**
     * The nearest-rank percentile of sorted values ({@code percent} to 0.1). One definition for all of ftlab:
     * {@link LatencyStats#perMille}, whose rank is computed in integers (a floating-point ⌈p·n/100⌉ can land one
     * rank too high).
     */
    public static long nearestRank(long[] sorted, double percent) {
        return LatencyStats.perMille(sorted, (int) Math.round(percent * 10));
    }
}
