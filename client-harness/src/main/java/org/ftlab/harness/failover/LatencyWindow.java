package org.ftlab.harness.failover;

import java.util.Arrays;

/**
 * The last {@code capacity} latencies of one kind (µs) and their high quantiles, for policies that adapt to what a
 * healthy replica has recently taken. Thread-safe. Quantiles are nearest-rank over a sorted snapshot that is
 * refreshed at most every {@code capacity / 16} additions, or at once when a value above the snapshot's largest
 * arrives (a new stall must raise the bounds built on the maximum without delay); between refreshes a quantile
 * costs an array read on the request path.
 */
final class LatencyWindow {
    private final long[] ring;
    private final int refreshEvery;
    private int next;
    private int count;
    private long added;
    private long snapshotAt = Long.MIN_VALUE;
    private long[] sorted = new long[0];
    private boolean newMaximum;

    LatencyWindow(int capacity) {
        if (capacity < 16) {
            throw new IllegalArgumentException("a latency window needs at least 16 values, was " + capacity);
        }
        ring = new long[capacity];
        refreshEvery = capacity / 16;
    }

    synchronized void add(long micros) {
        ring[next] = micros;
        next = (next + 1) % ring.length;
        count = Math.min(count + 1, ring.length);
        added++;
        if (sorted.length == 0 || micros > sorted[sorted.length - 1]) {
            newMaximum = true;
        }
    }

    /** How many latencies the window holds (at most its capacity). */
    synchronized int count() {
        return count;
    }

    /** The latency at quantile {@code q} (0 &lt; q ≤ 1, nearest rank) of the window; -1 while it is empty. */
    synchronized long quantile(double q) {
        if (count == 0) {
            return -1;
        }
        if (newMaximum || added - snapshotAt >= refreshEvery) {
            sorted = Arrays.copyOf(ring, count);
            Arrays.sort(sorted);
            snapshotAt = added;
            newMaximum = false;
        }
        int rank = (int) Math.ceil(q * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    /** The largest latency in the window; -1 while it is empty. */
    synchronized long max() {
        return quantile(1.0);
    }
}
