package org.ftlab.harness.analysis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.Arrays;
import java.util.Random;
import java.util.stream.LongStream;
import org.apache.commons.math3.stat.descriptive.DescriptiveStatistics;
import org.junit.jupiter.api.Test;

class LatencyStatsTest {

    @Test
    void oneToHundredHasTheHandComputedStatistics() {
        long[] v = LongStream.rangeClosed(1, 100).map(i -> 101 - i).toArray(); // unsorted on purpose
        LatencyStats s = LatencyStats.of(v);
        assertEquals(100, s.count());
        assertEquals(50.5, s.mean(), 1e-12);
        // sample std of 1..100: sqrt(n(n+1)/12) with n-1 denominator = sqrt(841.666...) = 29.011491975882016
        assertEquals(Math.sqrt(100.0 * 101 / 12), s.std(), 1e-9);
        assertEquals(1, s.min());
        assertEquals(50, s.median()); // rank ceil(0.5*100) = 50
        assertEquals(90, s.p90());
        assertEquals(99, s.p99());
        assertEquals(100, s.p999()); // rank ceil(0.999*100) = 100
        assertEquals(100, s.max());
        assertEquals(50.5, s.trimmedMean(), 1e-12); // drops 1,2 and 99,100: mean of 3..98
        assertEquals(0, s.outliers3Sigma());
        assertFalse(s.c1());
        assertNull(s.p99CiLow(), "100 requests are too few for a 99% interval of p99");
    }

    @Test
    void oneHugeLatencyIsAThreeSigmaOutlierAndTripsC1() {
        long[] v = new long[100];
        Arrays.fill(v, 100);
        v[37] = 10_000;
        LatencyStats s = LatencyStats.of(v);
        assertEquals(199.0, s.mean(), 1e-12); // (99*100 + 10000) / 100
        assertEquals(990.0, s.std(), 1e-9); // sqrt((99*99^2 + 9801^2) / 99) = sqrt(980100)
        assertEquals(1, s.outliers3Sigma()); // |10000 - 199| = 9801 > 3 * 990
        assertTrue(s.c1()); // 10000 > 10 * 199
        assertEquals(100, s.p99()); // rank 99 of 99 x 100, 1 x 10000
        assertEquals(10_000, s.p999());
        assertEquals(100.0, s.trimmedMean(), 1e-12); // the 10000 is trimmed away
    }

    @Test
    void aSingleRequestIsEveryStatisticAndHasNoSpread() {
        LatencyStats s = LatencyStats.of(new long[] {42});
        assertEquals(42, s.median());
        assertEquals(42, s.p999());
        assertEquals(0.0, s.std());
        assertEquals(0, s.outliers3Sigma());
        assertNull(LatencyStats.of(new long[0]));
    }

    /**
     * An independent implementation straight from the definition: the smallest sample value x with at least p% of
     * the sample at or below it, counted in integers. (Commons Math's R_1 estimator is not used as the reference: it
     * computes the rank in floating point, and 2000 × 99.9 / 100 lands just above 1998, one rank too high.)
     */
    private static long byDefinition(long[] v, int perMille) {
        long[] candidates = v.clone();
        Arrays.sort(candidates);
        for (long x : candidates) {
            long atOrBelow = Arrays.stream(v).filter(y -> y <= x).count();
            if (atOrBelow * 1000 >= (long) perMille * v.length) {
                return x;
            }
        }
        throw new AssertionError("unreachable");
    }

    @Test
    void meanStdAndQuartilesAgreeWithCommonsMathToFloatingPointPrecision() {
        Random random = new Random(7);
        for (int n : new int[] {1, 2, 3, 17, 1000, 20_000}) {
            long[] v = new long[n];
            DescriptiveStatistics d =
                    new DescriptiveStatistics();
            for (int i = 0; i < n; i++) {
                v[i] = (long) Math.exp(8 + random.nextGaussian());
                d.addValue(v[i]);
            }
            LatencyStats s = LatencyStats.of(v);
            // Relative 1e-12: the two sum in different orders (ours adds exact integers, Commons Math updates a
            // running mean), so they may differ in the last few bits, never more.
            assertEquals(d.getMean(), s.mean(), 1e-12 * d.getMean(), "mean, n=" + n);
            assertEquals(n > 1 ? d.getStandardDeviation() : 0, s.std(), 1e-12 * d.getStandardDeviation() + 1e-12,
                    "std, n=" + n);
            assertEquals((long) d.getMin(), s.min());
            assertEquals((long) d.getMax(), s.max());
        }
    }

    @Test
    void percentilesAgreeWithTheirDefinitionToTheLastRank() {
        Random r = new Random(7);
        for (int t = 0; t < 300; t++) {
            int n = 1 + r.nextInt(2000);
            long[] v = new long[n];
            for (int i = 0; i < n; i++) {
                v[i] = r.nextInt(100_000);
            }
            long[] sorted = v.clone();
            Arrays.sort(sorted);
            for (int pm : new int[] {500, 900, 990, 999}) {
                assertEquals(byDefinition(v, pm), LatencyStats.perMille(sorted, pm), "n=" + n + " p=" + pm / 10.0);
            }
        }
        long[] twoThousand = LongStream.rangeClosed(1, 2000).toArray();
        assertEquals(1998, LatencyStats.perMille(twoThousand, 999), "rank ceil(2000 * 0.999) = 1998 exactly");
    }

    /** The ranks from an independent, exact binomial computation (BigDecimal sums, no library). */
    private static int[] exactRanks(int n) {
        MathContext mc = new MathContext(60);
        BigDecimal p = new BigDecimal("0.99");
        BigDecimal q = new BigDecimal("0.01");
        BigDecimal[] pmf = new BigDecimal[n + 1];
        BigInteger choose = BigInteger.ONE;
        for (int k = 0; k <= n; k++) {
            if (k > 0) {
                choose = choose.multiply(BigInteger.valueOf(n - k + 1)).divide(BigInteger.valueOf(k));
            }
            pmf[k] = new BigDecimal(choose).multiply(p.pow(k, mc), mc).multiply(q.pow(n - k, mc), mc);
        }
        BigDecimal half = new BigDecimal("0.005");
        BigDecimal cdf = BigDecimal.ZERO;
        int l = -1;
        int u = -1;
        for (int k = 0; k <= n; k++) {
            cdf = cdf.add(pmf[k], mc);
            if (l < 0 && cdf.compareTo(half) >= 0) {
                l = k; // smallest k with P(B <= k) >= 0.005, so P(B <= l-1) < 0.005
            }
            if (u < 0 && cdf.compareTo(BigDecimal.ONE.subtract(half)) >= 0) {
                u = k + 1; // P(B <= u-1) >= 0.995
            }
        }
        return l < 1 || u > n ? null : new int[] {l, u};
    }

    @Test
    void p99ConfidenceRanksMatchAnExactBinomialComputation() {
        for (int n : new int[] {100, 458, 459, 500, 527, 528, 1000, 2500, 5000}) {
            assertArrayEquals(exactRanks(n), LatencyStats.p99ConfidenceRanks(n), "n=" + n);
        }
        // A two-sided 99% interval needs P(B = n) = 0.99^n <= 0.005: n >= 528 (ln 0.005 / ln 0.99 = 527.2).
        assertNull(LatencyStats.p99ConfidenceRanks(527));
        assertArrayEquals(exactRanks(528), LatencyStats.p99ConfidenceRanks(528));
        assertEquals(528, LatencyStats.p99ConfidenceRanks(528)[1]);
        int[] thousand = LatencyStats.p99ConfidenceRanks(1000);
        assertTrue(thousand[0] < 990 && thousand[1] > 990, Arrays.toString(thousand));
    }

    @Test
    void p99IntervalBoundsTheP99() {
        long[] v = LongStream.rangeClosed(1, 10_000).toArray();
        LatencyStats s = LatencyStats.of(v);
        assertTrue(s.p99CiLow() <= s.p99() && s.p99() <= s.p99CiHigh(), s.toString());
        assertTrue(s.p99Within(10)); // p99 ~ 9900 <= 10 * 5000.5
        assertFalse(s.p99Within(1));
    }
}
