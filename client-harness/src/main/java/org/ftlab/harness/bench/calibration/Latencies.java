package org.ftlab.harness.bench.calibration;

import org.HdrHistogram.Histogram;

/**
 * One client's round: its requests answered and failed, and their service time (from the actual send to the answer,
 * as an external load generator measures it) in microseconds.
 *
 * @param requests requests answered
 * @param errors requests that failed (a status other than 200, an exception)
 * @param p50Us median
 * @param p99Us 99th percentile
 * @param maxUs the slowest
 * @param meanUs the mean
 * @param lateP99Us how late its sends were on their schedule, 99th percentile (-1: the client does not say)
 * @param beanP50Us the bean's own time (the reply's server probes: from the bean's start to its reply), median (-1:
 *     the client does not read it); the service time less this is what the two legs and the client took
 */
public record Latencies(long requests, long errors, double p50Us, double p99Us, double maxUs, double meanUs,
        double lateP99Us, double beanP50Us) {

    /** From nanosecond histograms of the service times, the sends' lateness and the beans' times (empty: unknown). */
    static Latencies ofNanos(Histogram service, Histogram late, Histogram bean, long errors) {
        if (service.getTotalCount() == 0) {
            return new Latencies(0, errors, Double.NaN, Double.NaN, Double.NaN, Double.NaN, -1, -1);
        }
        return new Latencies(service.getTotalCount(), errors, service.getValueAtPercentile(50) / 1e3,
                service.getValueAtPercentile(99) / 1e3, service.getMaxValue() / 1e3, service.getMean() / 1e3,
                late.getTotalCount() == 0 ? -1 : late.getValueAtPercentile(99) / 1e3,
                bean.getTotalCount() == 0 ? -1 : bean.getValueAtPercentile(50) / 1e3);
    }

    /** What one open loop measured. */
    static Latencies of(OpenLoop.Result r) {
        return ofNanos(r.serviceNanos(), r.lateNanos(), r.beanNanos(), r.errors());
    }
}
