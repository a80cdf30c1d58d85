package org.ftlab.tart;

import java.io.Serializable;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Queue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * The input side of a component with several senders (seed 003's merger): hands the component its messages one at a
 * time, in strict virtual-time order (ties by wire), each only once every other wire is known silent through its time
 * — a message on a later wire at the same time waits for silence through the tick before. Pessimistic, never rolled
 * back. The wait of a message the component was free to handle is its <em>pessimism delay</em>.
 *
 * <p>What each wire is known through comes from its messages (a message at t accounts for every tick up to t: lazy
 * silence), from {@link #silence} calls (a sender that announces itself), and in {@link SilenceMode#CURIOSITY} from
 * probes: a receiver held by pessimism asks the senders of the wires it waits on, and waits until the answer would
 * suffice if the sender stays idle (its promise then grows with real time), or until something arrives.
 *
 * <p>A message at or below its wire's last data time is a duplicate (a sender replaying after a recovery) and is
 * dropped; one at or below a promised silence, but after the last data, breaks the promise: a bug, thrown.
 *
 * <p>With {@link Order#ARRIVAL} (the negative control) messages are handed over in the order they arrived and nothing
 * waits.
 *
 * <p>Counted per message: its pessimism delay, the probes sent while it waited, and whether it arrived out of order
 * (after a message of another wire with a later virtual time had arrived).
 */
public final class MergeScheduler<T extends Serializable> {
    /** Least wait between two rounds of probes that did not unblock the head, ns. */
    static final long MIN_PROBE_WAIT_NANOS = 10_000;
    /** Most wait between two rounds of probes, ns. */
    static final long MAX_PROBE_WAIT_NANOS = 1_000_000;

    private final int wires;
    private final Order order;
    private final SilenceMode mode;
    private final SilenceSource senders;
    private final LongSupplier nanoClock;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final long[] known;
    private final long[] lastData;
    private final long[] latestArrived;
    private final Queue<Pending<T>> pending;
    private final Stats stats = new Stats();

    /**
     * @param wires how many senders (wires 0 … wires−1)
     * @param senders what curiosity probes ask; unused in lazy mode
     * @param nanoClock real time, ns (System::nanoTime)
     */
    public MergeScheduler(int wires, Order order, SilenceMode mode, SilenceSource senders, LongSupplier nanoClock) {
        this(wires, order, mode, senders, nanoClock, null);
    }

    private MergeScheduler(int wires, Order order, SilenceMode mode, SilenceSource senders, LongSupplier nanoClock,
            State<T> from) {
        if (wires < 1) {
            throw new IllegalArgumentException("a receiver needs at least one wire");
        }
        this.wires = wires;
        this.order = order;
        this.mode = mode;
        this.senders = senders;
        this.nanoClock = nanoClock;
        this.known = new long[wires];
        this.lastData = new long[wires];
        this.latestArrived = new long[wires];
        Arrays.fill(known, Long.MIN_VALUE);
        Arrays.fill(lastData, Long.MIN_VALUE);
        Arrays.fill(latestArrived, Long.MIN_VALUE);
        this.pending = order == Order.VIRTUAL_TIME
                ? new PriorityQueue<>((a, b) -> a.message.before(b.message) ? -1 : b.message.before(a.message) ? 1 : 0)
                : new ArrayDeque<>();
        if (from != null) {
            if (from.known().length != wires) {
                throw new IllegalArgumentException("a state of " + from.known().length + " wires for " + wires);
            }
            System.arraycopy(from.known(), 0, known, 0, wires);
            System.arraycopy(from.lastData(), 0, lastData, 0, wires);
            long now = nanoClock.getAsLong();
            for (Message<T> m : from.pending()) {
                pending.add(new Pending<>(m, now, false));
            }
        }
    }

    /** A scheduler that goes on from {@code state} (a checkpoint's): the same wires known, the same messages held. */
    public static <T extends Serializable> MergeScheduler<T> restore(State<T> state, Order order, SilenceMode mode,
            SilenceSource senders, LongSupplier nanoClock) {
        return new MergeScheduler<>(state.known().length, order, mode, senders, nanoClock, state);
    }

    /** A message arrives from its sender. Returns false for a duplicate, which is dropped. */
    public boolean deliver(Message<T> m) {
        check(m.wire());
        lock.lock();
        try {
            int w = m.wire();
            if (m.vt() <= lastData[w]) {
                stats.duplicates++;
                return false;
            }
            if (m.vt() <= known[w]) {
                throw new IllegalStateException("wire " + w + " promised silence through " + known[w]
                        + " and then sent a message at " + m.vt());
            }
            boolean late = false;
            for (int o = 0; o < wires; o++) {
                if (o != w && (latestArrived[o] > m.vt() || latestArrived[o] == m.vt() && o < w)) {
                    late = true;
                    break;
                }
            }
            latestArrived[w] = Math.max(latestArrived[w], m.vt());
            lastData[w] = m.vt();
            known[w] = m.vt();
            pending.add(new Pending<>(m, nanoClock.getAsLong(), late));
            changed.signalAll();
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** The sender of {@code wire} promises it sends nothing at or before {@code throughVt} but what it has sent. */
    public void silence(int wire, long throughVt) {
        check(wire);
        lock.lock();
        try {
            if (throughVt > known[wire]) {
                known[wire] = throughVt;
                changed.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * The next message the component may handle, waiting for it at most {@code timeout}; null if none could be
     * handed over by then. The component calls this when it is free: the time from then (or from the message's
     * arrival, if later) to its hand-over is the message's pessimism delay.
     */
    public Dispatch<T> take(long timeout, TimeUnit unit) throws InterruptedException {
        long free = nanoClock.getAsLong();
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        int probes = 0;
        lock.lockInterruptibly();
        try {
            while (true) {
                Pending<T> head = pending.peek();
                long left = deadline - System.nanoTime();
                if (head == null) {
                    if (left <= 0) {
                        return null;
                    }
                    changed.awaitNanos(left);
                    continue;
                }
                List<Integer> waitingOn = waitingOn(head.message);
                if (waitingOn.isEmpty()) {
                    pending.remove();
                    // only a message that was held for silence has a pessimism delay (not the scheduler's own cost)
                    long delay = head.waited ? Math.max(0, nanoClock.getAsLong() - Math.max(free, head.arrivedNanos))
                            : 0;
                    stats.count(delay, head.late);
                    return new Dispatch<>(head.message, delay, probes, head.late);
                }
                head.waited = true;
                if (left <= 0) {
                    return null;
                }
                long wait = left;
                if (mode == SilenceMode.CURIOSITY) {
                    // ask outside the lock: a sender answering may be delivering to this scheduler meanwhile
                    long[] answers = new long[waitingOn.size()];
                    lock.unlock();
                    try {
                        for (int i = 0; i < answers.length; i++) {
                            answers[i] = senders.silentThrough(waitingOn.get(i));
                        }
                    } finally {
                        lock.lock();
                    }
                    probes += answers.length;
                    stats.probes += answers.length;
                    long shortfall = 0;
                    for (int i = 0; i < answers.length; i++) {
                        int w = waitingOn.get(i);
                        known[w] = Math.max(known[w], answers[i]);
                        shortfall = Math.max(shortfall, needed(head.message, w) - answers[i]);
                    }
                    if (shortfall <= 0) {
                        continue; // the answers suffice (unless a message came first: the next pass sees)
                    }
                    // an idle sender's promise grows with real time: ask again when it would suffice
                    wait = Math.min(left, Math.max(MIN_PROBE_WAIT_NANOS, Math.min(MAX_PROBE_WAIT_NANOS, shortfall)));
                }
                changed.awaitNanos(wait);
            }
        } finally {
            lock.unlock();
        }
    }

    /** The wires whose silence {@code m} still waits for (none in arrival order). */
    private List<Integer> waitingOn(Message<T> m) {
        List<Integer> out = new ArrayList<>(0);
        if (order == Order.ARRIVAL) {
            return out;
        }
        for (int w = 0; w < wires; w++) {
            if (w != m.wire() && known[w] < needed(m, w)) {
                out.add(w);
            }
        }
        return out;
    }

    /** How far wire {@code w} must be known before {@code m} may go: its time, or the tick before on a later wire. */
    private static long needed(Message<?> m, int w) {
        return w < m.wire() ? m.vt() : m.vt() - 1;
    }

    /** For a checkpoint: what each wire is known through, its last data time, and the messages held, in order. */
    public State<T> snapshot() {
        lock.lock();
        try {
            List<Pending<T>> held = new ArrayList<>(pending);
            if (order == Order.VIRTUAL_TIME) {
                held.sort((a, b) -> a.message.before(b.message) ? -1 : b.message.before(a.message) ? 1 : 0);
            }
            return new State<>(known.clone(), lastData.clone(), held.stream().map(p -> p.message).toList());
        } finally {
            lock.unlock();
        }
    }

    public Stats stats() {
        lock.lock();
        try {
            return stats.copy();
        } finally {
            lock.unlock();
        }
    }

    /** Messages held now. */
    public int held() {
        lock.lock();
        try {
            return pending.size();
        } finally {
            lock.unlock();
        }
    }

    private void check(int wire) {
        if (wire < 0 || wire >= wires) {
            throw new IllegalArgumentException("wire " + wire + " of a receiver with " + wires);
        }
    }

    /** A message held, with when it arrived, whether out of order, and whether it has had to wait. */
    private static final class Pending<T extends Serializable> {
        final Message<T> message;
        final long arrivedNanos;
        final boolean late;
        boolean waited;

        Pending(Message<T> message, long arrivedNanos, boolean late) {
            this.message = message;
            this.arrivedNanos = arrivedNanos;
            this.late = late;
        }
    }

    /** One message handed to the component, with what its scheduling cost it. */
    public record Dispatch<T extends Serializable>(Message<T> message, long pessimismDelayNanos, int probes,
            boolean outOfOrder) {
    }

    /** A scheduler's state, as a checkpoint keeps it. */
    public record State<T extends Serializable>(long[] known, long[] lastData, List<Message<T>> pending)
            implements Serializable {
    }

    /** Totals since the scheduler began. */
    public static final class Stats {
        private long messages;
        private long pessimismDelayNanos;
        private long delayed;
        private long probes;
        private long outOfOrder;
        private long duplicates;

        void count(long delay, boolean late) {
            messages++;
            pessimismDelayNanos += delay;
            if (delay > 0) {
                delayed++;
            }
            if (late) {
                outOfOrder++;
            }
        }

        Stats copy() {
            Stats s = new Stats();
            s.messages = messages;
            s.pessimismDelayNanos = pessimismDelayNanos;
            s.delayed = delayed;
            s.probes = probes;
            s.outOfOrder = outOfOrder;
            s.duplicates = duplicates;
            return s;
        }

        public long messages() {
            return messages;
        }

        public long pessimismDelayNanos() {
            return pessimismDelayNanos;
        }

        /** Messages that waited at all. */
        public long delayed() {
            return delayed;
        }

        public long probes() {
            return probes;
        }

        public long outOfOrder() {
            return outOfOrder;
        }

        public long duplicates() {
            return duplicates;
        }
    }
}
