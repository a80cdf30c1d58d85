package org.ftlab.harness.attribution;

import java.util.List;
import java.util.function.IntToLongFunction;
import java.util.function.ToLongFunction;

/** Binary search over what is sorted by a time: events by start, samples by start, end or instant. */
final class Sorted {
    private Sorted() {
    }

    /** The first of {@code size} indexes whose key is at least {@code value} ({@code size} if none); keys ascending. */
    static int firstAtLeast(int size, IntToLongFunction keyAt, long value) {
        int lo = 0;
        int hi = size;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (keyAt.applyAsLong(mid) < value) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** The first element of {@code list} whose key is at least {@code value}, as an index. */
    static <T> int firstAtLeast(List<T> list, ToLongFunction<T> key, long value) {
        return firstAtLeast(list.size(), i -> key.applyAsLong(list.get(i)), value);
    }
}
