package org.ftlab.harness.history.check;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Whether one key's operations are linearizable: Wing and Gong's search for an order of the operations that the
 * model accepts and that respects real time (an operation that completed before another was invoked comes first),
 * with Lowe's memoization (a configuration — the operations placed so far and the model's state — is explored once).
 * This is the algorithm of Knossos's {@code wgl} checker and of Porcupine.
 *
 * <p>The history is a doubly linked list of call and return entries; the search walks it, placing an operation at its
 * call when the model accepts it there and removing both its entries, and backtracks at a return whose operation is
 * not placed yet. An operation whose outcome is unknown has its return at the end: it may be placed anywhere after
 * its invocation, or not at all (the search ends when every operation with a known outcome is placed).
 *
 * <p>An operation that leaves the model's state as it is where it is placed (a read, an outbid offer) is placed there
 * and not tried later: any order that places it later stays valid with it moved forward, so those orders need no
 * search of their own (Lowe's observation for read-only operations; it keeps histories full of reads, and of reads of
 * unknown outcome, from blowing the search up).
 *
 * <p>The set of placed operations is kept as the operations before a frontier minus a few holes (operations are
 * numbered in the order they were invoked, and only the operations in flight and those of unknown outcome can be
 * holes), so a remembered configuration costs a few words, not a bit per operation.
 */
public final class Linearizability {
    /** How much the search may take before it answers {@code unknown}. */
    public record Budget(long maxConfigurations, long deadlineNanos) {
        /** No deadline, at most {@code maxConfigurations} remembered configurations. */
        public static Budget configurations(long maxConfigurations) {
            return new Budget(maxConfigurations, Long.MAX_VALUE);
        }
    }

    /** A key's verdict. */
    public enum Verdict {
        VALID, INVALID, UNKNOWN;

        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * How the search ended.
     *
     * @param configurations the configurations it remembered
     * @param anomaly when invalid: where every order broke down
     * @param why when unknown: which budget ran out
     */
    public record Result(Verdict verdict, int operations, long configurations, Anomaly anomaly, String why) {
    }

    /**
     * Where the search got furthest before every order failed: the operation that could not be placed before its
     * completion ({@code blocked}), the state the model was in there, the operations placed last before it (oldest
     * first), and the operations in flight with it.
     */
    public record Anomaly(Operation blocked, String state, List<Operation> placedBefore, List<Operation> concurrent,
            String explanation) {
    }

    private static final int SHOWN = 8;
    private static final int NIL = -1;

    private Linearizability() {
    }

    /**
     * Checks {@code ops}, one key's operations (any order; each with its own id, 0 to n-1, in the order they were
     * invoked), against {@code model}.
     */
    public static <S> Result check(Model<S> model, List<Operation> ops, Budget budget) {
        int n = ops.size();
        Operation[] op = new Operation[n];
        for (Operation o : ops) {
            if (o.id() < 0 || o.id() >= n || op[o.id()] != null) {
                throw new IllegalArgumentException("operation ids must be 0 to " + (n - 1) + ", each once");
            }
            op[o.id()] = o;
        }
        int entries = 2 * n;
        int head = entries;
        int[] next = new int[entries + 1];
        int[] prev = new int[entries + 1];
        link(op, next, prev, head);
        int known = 0;
        for (Operation o : op) {
            if (!o.outcomeUnknown()) {
                known++;
            }
        }
        int[] stackEntry = new int[n];
        Object[] stackState = new Object[n];
        boolean[] stackForced = new boolean[n];
        int top = 0;
        S state = model.init();
        Placed placed = new Placed();
        Set<Configuration> seen = new HashSet<>();
        int bestDepth = -1;
        int bestBlocked = -1;
        Object bestState = null;
        int[] bestPath = new int[0];
        long steps = 0;
        int entry = next[head];
        while (known > 0) {
            if (++steps % 4096 == 0 && System.nanoTime() - budget.deadlineNanos() > 0) {
                return new Result(Verdict.UNKNOWN, n, seen.size(), null, "the time budget ran out after "
                        + seen.size() + " configurations");
            }
            boolean backtrack;
            if ((entry & 1) == 0) { // a call
                Operation o = op[entry >> 1];
                S after = model.step(state, o.input(), o.output());
                if (after == null) {
                    entry = next[entry];
                    continue;
                }
                // An operation that leaves the state as it is (an outbid offer, a view) is placed at once, and no
                // order that places it later is tried: moving it forward to here keeps every such order valid.
                boolean forced = after.equals(state);
                placed.add(o.id());
                if (seen.add(new Configuration(placed.frontier, placed.holes(), after))) {
                    if (seen.size() > budget.maxConfigurations()) {
                        return new Result(Verdict.UNKNOWN, n, seen.size(), null, "the search budget of "
                                + budget.maxConfigurations() + " configurations ran out");
                    }
                    stackEntry[top] = entry;
                    stackState[top] = state;
                    stackForced[top++] = forced;
                    state = after;
                    lift(entry, next, prev);
                    if (!o.outcomeUnknown()) {
                        known--;
                    }
                    entry = next[head];
                    continue;
                }
                placed.remove(o.id());
                if (!forced) {
                    entry = next[entry];
                    continue;
                }
                backtrack = true; // placed here it was explored already: so was every order without it here
            } else { // the return of an operation not placed yet
                backtrack = true;
                if (top > bestDepth) {
                    bestDepth = top;
                    bestBlocked = entry >> 1;
                    bestState = state;
                    bestPath = Arrays.copyOfRange(stackEntry, Math.max(0, top - SHOWN), top);
                }
            }
            while (backtrack) { // undo the last placement that had alternatives
                if (top == 0) {
                    return invalid(model, op, bestBlocked, bestState, bestPath, seen.size());
                }
                entry = stackEntry[--top];
                @SuppressWarnings("unchecked")
                S before = (S) stackState[top];
                state = before;
                stackState[top] = null;
                Operation o = op[entry >> 1];
                placed.remove(o.id());
                unlift(entry, next, prev);
                if (!o.outcomeUnknown()) {
                    known++;
                }
                backtrack = stackForced[top];
                entry = next[entry];
            }
        }
        return new Result(Verdict.VALID, n, seen.size(), null, null);
    }

    @SuppressWarnings("unchecked")
    private static <S> Result invalid(Model<S> model, Operation[] op, int blocked, Object state, int[] path,
            long configurations) {
        Operation b = op[blocked];
        List<Operation> before = new ArrayList<>();
        for (int e : path) {
            before.add(op[e >> 1]);
        }
        List<Operation> concurrent = new ArrayList<>();
        for (Operation o : op) {
            if (o != b && o.callIndex() < b.returnIndex() && o.returnIndex() > b.callIndex()
                    && concurrent.size() < SHOWN) {
                concurrent.add(o);
            }
        }
        S s = (S) state;
        Anomaly a = new Anomaly(b, model.show(s), before, concurrent, model.why(s, b.input(), b.output()));
        return new Result(Verdict.INVALID, op.length, configurations, a, null);
    }

    /** Orders the entries (2i: call of operation i, 2i+1: its return) by history index into a list after head. */
    private static void link(Operation[] op, int[] next, int[] prev, int head) {
        int n = op.length;
        long[] at = new long[2 * n];
        Integer[] order = new Integer[2 * n];
        for (int i = 0; i < n; i++) {
            at[2 * i] = op[i].callIndex();
            at[2 * i + 1] = op[i].returnIndex();
            order[2 * i] = 2 * i;
            order[2 * i + 1] = 2 * i + 1;
        }
        Arrays.sort(order, (x, y) -> {
            int c = Long.compare(at[x], at[y]);
            return c != 0 ? c : Integer.compare(x, y);
        });
        int last = head;
        for (int e : order) {
            next[last] = e;
            prev[e] = last;
            last = e;
        }
        next[last] = NIL;
        prev[head] = NIL;
    }

    /** Removes a call entry and its return from the list. */
    private static void lift(int call, int[] next, int[] prev) {
        int ret = call + 1;
        next[prev[call]] = next[call];
        if (next[call] != NIL) {
            prev[next[call]] = prev[call];
        }
        next[prev[ret]] = next[ret];
        if (next[ret] != NIL) {
            prev[next[ret]] = prev[ret];
        }
    }

    /** Puts back what {@link #lift} removed, in the reverse order. */
    private static void unlift(int call, int[] next, int[] prev) {
        int ret = call + 1;
        next[prev[ret]] = ret;
        if (next[ret] != NIL) {
            prev[next[ret]] = ret;
        }
        next[prev[call]] = call;
        if (next[call] != NIL) {
            prev[next[call]] = call;
        }
    }

    /**
     * The placed operations: every id below {@code frontier} except the holes (sorted), none at or above it.
     */
    static final class Placed {
        int frontier;
        private int[] holes = new int[16];
        private int size;

        void add(int id) {
            if (id >= frontier) {
                for (int h = frontier; h < id; h++) {
                    append(h);
                }
                frontier = id + 1;
            } else {
                int at = Arrays.binarySearch(holes, 0, size, id);
                if (at < 0) {
                    throw new IllegalStateException("operation " + id + " placed twice");
                }
                System.arraycopy(holes, at + 1, holes, at, size - at - 1);
                size--;
            }
        }

        void remove(int id) {
            if (id == frontier - 1) {
                frontier = id;
                while (size > 0 && holes[size - 1] == frontier - 1) {
                    size--;
                    frontier--;
                }
            } else {
                int at = Arrays.binarySearch(holes, 0, size, id);
                if (at >= 0 || id >= frontier) {
                    throw new IllegalStateException("operation " + id + " was not placed");
                }
                int ins = -at - 1;
                grow();
                System.arraycopy(holes, ins, holes, ins + 1, size - ins);
                holes[ins] = id;
                size++;
            }
        }

        boolean contains(int id) {
            return id < frontier && Arrays.binarySearch(holes, 0, size, id) < 0;
        }

        int[] holes() {
            return Arrays.copyOf(holes, size);
        }

        private void append(int id) {
            grow();
            holes[size++] = id;
        }

        private void grow() {
            if (size == holes.length) {
                holes = Arrays.copyOf(holes, size * 2);
            }
        }
    }

    /** A configuration the search has been in: the placed operations and the model's state. */
    private static final class Configuration {
        private final int frontier;
        private final int[] holes;
        private final Object state;
        private final int hash;

        Configuration(int frontier, int[] holes, Object state) {
            this.frontier = frontier;
            this.holes = holes;
            this.state = state;
            this.hash = (31 * frontier + Arrays.hashCode(holes)) * 31 + state.hashCode();
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Configuration c && c.hash == hash && c.frontier == frontier
                    && Arrays.equals(c.holes, holes) && c.state.equals(state);
        }
    }
}
