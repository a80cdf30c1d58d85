package org.ftlab.harness.analysis;

import java.util.Arrays;

/** A growable long array: latencies without boxing. */
final class LongList {
    private long[] values = new long[64];
    private int size;

    void add(long v) {
        if (size == values.length) {
            values = Arrays.copyOf(values, size * 2);
        }
        values[size++] = v;
    }

    int size() {
        return size;
    }

    long[] toArray() {
        return Arrays.copyOf(values, size);
    }
}
