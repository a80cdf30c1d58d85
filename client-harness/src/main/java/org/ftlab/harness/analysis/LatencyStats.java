package org.ftlab.harness.analysis;

import java.util.Arrays;
import org.apache.commons.math3.distribution.BinomialDistribution;

/**
 * Descriptive statistics of one set of latencies (microseconds), as defined once for all of ftlab:
 * <ul>
 * <li>percentiles by <b>nearest rank</b>: the p-th percentile is the sorted value at 1-based rank
 * ⌈p·n/100⌉ (the inverse of the empirical distribution function; numpy's {@code inverted_cdf}, R's type 1);</li>
 * <li>standard deviation with the n−1 denominator (0 for a single value);</li>
 * <li>95% trimmed mean: the mean after dropping ⌊0.025·n⌋ values at each end;</li>
 * <li>3σ outliers: values farther than 3 standard deviations from the mean (criterion C2);</li>
 * <li>C1: the maximum exceeds 10 × the mean;</li>
 * <li>a distribution-free 99% confidence interval for the 99th percentile from order statistics: ranks l and u
 * with P(l ≤ B ≤ u−1) ≥ 0.99 for B ~ Binomial(n, 0.99); undefined (null) where n is too small for such ranks.</li>
 * </ul>
 */
public record LatencyStats(int count, double mean, double std, long min, long p25, long median, long p75, long p90,
        long p99, long p999, long max, double trimmedMean, int outliers3Sigma, boolean c1, Long p99CiLow,
        Long p99CiHigh) {

    public static final String PERCENTILE_ESTIMATOR = "nearest-rank (inverse empirical CDF; numpy inverted_cdf, "
            + "R type 1): value at 1-based rank ceil(p*n/100) of the sorted sample";

    /** Statistics of {@code values} (not modified); null for an empty set. */
    public static LatencyStats of(long[] values) {
        int n = values.length;
        if (n == 0) {
            return null;
        }
        long[] s = values.clone();
        Arrays.sort(s);
        return ofSorted(s);
    }

    /** Statistics of values already sorted ascending (not modified); null for an empty set. */
    public static LatencyStats ofSorted(long[] s) {
        int n = s.length;
        if (n == 0) {
            return null;
        }
        double sum = 0;
        for (long v : s) {
            sum += v;
        }
        double mean = sum / n;
        double ss = 0;
        for (long v : s) {
            ss += (v - mean) * (v - mean);
        }
        double std = n > 1 ? Math.sqrt(ss / (n - 1)) : 0;
        int trim = (int) Math.floor(0.025 * n);
        double trimmedSum = 0;
        for (int i = trim; i < n - trim; i++) {
            trimmedSum += s[i];
        }
        double trimmedMean = trimmedSum / (n - 2 * trim);
        int outliers = 0;
        for (long v : s) {
            if (Math.abs(v - mean) > 3 * std) {
                outliers++;
            }
        }
        int[] ci = p99ConfidenceRanks(n);
        return new LatencyStats(n, mean, std, s[0], perMille(s, 250), perMille(s, 500), perMille(s, 750),
                perMille(s, 900), perMille(s, 990),
                perMille(s, 999), s[n - 1], trimmedMean, outliers, s[n - 1] > 10 * mean,
                ci == null ? null : s[ci[0] - 1], ci == null ? null : s[ci[1] - 1]);
    }

    /** Nearest-rank percentile of sorted values, p given in per mille (990 = p99) so that the rank is exact. */
    public static long perMille(long[] sorted, int perMille) {
        long rank = ((long) sorted.length * perMille + 999) / 1000; // ceil(n * p / 1000) in integers
        return sorted[(int) Math.max(rank, 1) - 1];
    }

    /**
     * 1-based ranks {l, u} of the order statistics bounding the 99th percentile with at least 99% confidence, or
     * null when n is too small (l < 1 or u > n).
     */
    public static int[] p99ConfidenceRanks(int n) {
        if (n < 1) {
            return null;
        }
        BinomialDistribution b = new BinomialDistribution(null, n, 0.99);
        double alphaHalf = 0.005;
        int l = b.inverseCumulativeProbability(alphaHalf); // P(B <= l-1) < alpha/2
        int u = b.inverseCumulativeProbability(1 - alphaHalf) + 1; // P(B <= u-1) >= 1 - alpha/2
        if (l < 1 || u > n) {
            return null;
        }
        return new int[] {l, u};
    }

    /**
     * The "magical 1%" verdict: the whole 99% interval of p99 lies within {@code factor} × the mean, so "p99 ≤
     * factor × mean" holds at p < 0.01 (one-sided, the interval's upper end is a 99.5% bound); null when n is too
     * small for the interval.
     */
    public Boolean p99Within(double factor) {
        return p99CiHigh == null ? null : p99CiHigh <= factor * mean;
    }
}
