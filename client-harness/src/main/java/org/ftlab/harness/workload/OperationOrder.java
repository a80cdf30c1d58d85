package org.ftlab.harness.workload;

import java.util.ArrayList;
import java.util.List;

/**
 * The order in which a client sends a workload's operations in each block: stretches, each of one operation (an
 * index into {@link Workload#operations()}) sent a number of times, one stretch after the other. A workload chooses
 * it ({@link Workload#order}); the grid sends it. Any number of stretches, of any operations, in any order; a
 * stretch of none is left out.
 *
 * <p>Warm-up requests mix the stretches in their proportions, spread evenly: the first stretch's operation takes
 * its share of the requests, evenly spaced; the second takes its share of the rest; and so on, the last taking what
 * remains. Two stretches of 70 each alternate; 30 and 10 give three of the first to one of the second.
 */
public final class OperationOrder {
    /** {@code count} requests of operation {@code operation}, one after the other. */
    public record Stretch(int operation, int count) {
        public Stretch {
            if (operation < 0 || count < 0) {
                throw new IllegalArgumentException("a stretch is an operation's index and a count, both at least 0, "
                        + "was " + operation + " x " + count);
            }
        }
    }

    private final List<Stretch> stretches;
    /** Where each stretch ends: the number of requests up to and including it. */
    private final int[] ends;

    private OperationOrder(List<Stretch> stretches) {
        this.stretches = List.copyOf(stretches);
        this.ends = new int[this.stretches.size()];
        int sum = 0;
        for (int k = 0; k < ends.length; k++) {
            sum = Math.addExact(sum, this.stretches.get(k).count());
            ends[k] = sum;
        }
        if (sum == 0) {
            throw new IllegalArgumentException("each client needs at least one invocation per configuration");
        }
    }

    /** The stretches in the order given, those of no request left out. */
    public static OperationOrder of(Stretch... stretches) {
        List<Stretch> kept = new ArrayList<>();
        for (Stretch s : stretches) {
            if (s.count() > 0) {
                kept.add(s);
            }
        }
        return new OperationOrder(kept);
    }

    /**
     * The order of a workload of one operation: {@code posts} requests of it (the plan's first count); the plan's
     * second count ({@code views}) has nothing to count and must be 0.
     */
    public static OperationOrder single(Workload workload, int posts, int views) {
        if (views > 0) {
            throw new IllegalArgumentException("workload " + workload.name() + " has one operation ("
                    + workload.operations().get(0) + "): give --views 0");
        }
        return of(new Stretch(0, posts));
    }

    public List<Stretch> stretches() {
        return stretches;
    }

    /** The requests of a client's share of a block, all stretches together. */
    public int size() {
        return ends[ends.length - 1];
    }

    /** The operation of the {@code i}-th request ({@code 0 <= i < size()}). */
    public int operationAt(int i) {
        return stretches.get(stretchAt(i)).operation();
    }

    /** The stretch the {@code i}-th request belongs to. */
    public int stretchAt(int i) {
        if (i < 0 || i >= size()) {
            throw new IndexOutOfBoundsException("request " + i + " of " + size());
        }
        int k = 0;
        while (i >= ends[k]) {
            k++;
        }
        return k;
    }

    /** The index of the last request of stretch {@code k}. */
    public int lastOf(int k) {
        return ends[k] - 1;
    }

    /**
     * The operation of the {@code i}-th warm-up request (any {@code i >= 0}): the stretches mixed in their
     * proportions, spread evenly (see the class comment); the mix repeats every {@link #size()} requests.
     */
    public int warmupOperation(int i) {
        long index = i;
        long total = size();
        for (int k = 0; k < stretches.size() - 1; k++) {
            long count = stretches.get(k).count();
            if ((index + 1) * count / total > index * count / total) {
                return stretches.get(k).operation();
            }
            index -= index * count / total; // its place among the requests the later stretches share
            total -= count;
        }
        return stretches.get(stretches.size() - 1).operation();
    }
}
