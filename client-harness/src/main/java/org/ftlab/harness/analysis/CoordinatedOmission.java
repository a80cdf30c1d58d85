package org.ftlab.harness.analysis;

import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * Coordinated omission, reported beside the recorded latencies and never applied twice. A closed-loop client sends
 * nothing while it waits, so one slow request stands for every request a user would have sent meanwhile; the
 * correction is HdrHistogram's {@link Histogram#recordValueWithExpectedInterval}: a latency L above the expected
 * interval I between requests adds the values L − I, L − 2I, … down to I, the waits of the requests that were not
 * sent. For a grid client I = its think time + the configuration's median latency (the interval a client that
 * never met a stall would keep). Open-loop runs need no correction: their latency already counts from the
 * intended send time, and they are left alone.
 *
 * <p>Histograms are in µs with 3 significant digits (a value's bucket is within 0.1% of it), auto-resizing.
 * Percentiles from a histogram are HdrHistogram's: the nearest rank, as in {@link LatencyStats}, reported as the
 * highest value equivalent to it, so within 0.1% of the nearest-rank value.
 */
public final class CoordinatedOmission {
    static final int SIGNIFICANT_DIGITS = 3;
    /** Percentile-spectrum resolution: ticks per halving of the distance to 100% (HdrHistogram's own default). */
    static final int TICKS_PER_HALF_DISTANCE = 5;

    /** The percentiles reported corrected and recorded, in percent. */
    public static final double[] PERCENTILES = {50, 90, 99, 99.9, 99.99};

    /**
     * Statistics of a corrected histogram, µs: the expected interval used; the count with the added values; the mean;
     * p50, p90, p99, p99.9, p99.99 ({@link #PERCENTILES}); the max (unchanged by the correction).
     */
    public record Corrected(long expectedIntervalUs, long count, double meanUs, long[] percentilesUs, long maxUs) {
        public long p50Us() {
            return percentilesUs[0];
        }

        public long p90Us() {
            return percentilesUs[1];
        }

        public long p99Us() {
            return percentilesUs[2];
        }

        public long p999Us() {
            return percentilesUs[3];
        }

        public long p9999Us() {
            return percentilesUs[4];
        }
    }

    /** One point of a percentile spectrum: the percentile (0–100) and the value at it, µs. */
    public record SpectrumPoint(double percentile, long valueUs) {
    }

    private CoordinatedOmission() {
    }

    /** The latencies as recorded, in a histogram. */
    public static Histogram recorded(long[] latenciesUs) {
        Histogram h = new Histogram(SIGNIFICANT_DIGITS);
        for (long v : latenciesUs) {
            h.recordValue(Math.max(0, v));
        }
        return h;
    }

    /** The latencies with the correction for an expected interval of {@code expectedIntervalUs} between requests. */
    public static Histogram corrected(long[] latenciesUs, long expectedIntervalUs) {
        Histogram h = new Histogram(SIGNIFICANT_DIGITS);
        for (long v : latenciesUs) {
            h.recordValueWithExpectedInterval(Math.max(0, v), expectedIntervalUs);
        }
        return h;
    }

    /** A closed-loop client's expected interval between requests: think time + median latency, µs. */
    public static long expectedIntervalUs(int thinkMillis, long medianLatencyUs) {
        return Math.max(1, thinkMillis * 1000L + medianLatencyUs);
    }

    /** The corrected statistics of {@code latenciesUs}; null for no latencies. */
    public static Corrected correct(long[] latenciesUs, long expectedIntervalUs) {
        if (latenciesUs.length == 0) {
            return null;
        }
        return summarize(corrected(latenciesUs, expectedIntervalUs), expectedIntervalUs);
    }

    static Corrected summarize(Histogram h, long expectedIntervalUs) {
        long[] p = new long[PERCENTILES.length];
        for (int k = 0; k < p.length; k++) {
            p[k] = h.getValueAtPercentile(PERCENTILES[k]);
        }
        return new Corrected(expectedIntervalUs, h.getTotalCount(), h.getMean(), p, h.getMaxValue());
    }

    /** How many of the histogram's values lie above {@code thresholdUs}. */
    public static long countAbove(Histogram h, long thresholdUs) {
        return h.getTotalCount() - h.getCountBetweenValues(0, thresholdUs);
    }

    /** Fraction of the histogram's values above {@code thresholdUs}. */
    public static double fractionAbove(Histogram h, long thresholdUs) {
        long total = h.getTotalCount();
        return total == 0 ? 0 : (double) countAbove(h, thresholdUs) / total;
    }

    /**
     * The percentile spectrum of a histogram, as HdrHistogram prints it ({@code outputPercentileDistribution}):
     * points closer together towards 100%, up to and including the max. Plotted on a 1/(1 − p) axis.
     */
    public static List<SpectrumPoint> spectrum(Histogram h) {
        List<SpectrumPoint> out = new ArrayList<>();
        if (h.getTotalCount() == 0) {
            return out;
        }
        for (HistogramIterationValue v : h.percentiles(TICKS_PER_HALF_DISTANCE)) {
            double pct = v.getPercentileLevelIteratedTo();
            long value = h.highestEquivalentValue(v.getValueIteratedTo());
            if (pct >= 100) {
                out.add(new SpectrumPoint(100, h.getMaxValue()));
                break;
            }
            out.add(new SpectrumPoint(pct, value));
        }
        return out;
    }
}
