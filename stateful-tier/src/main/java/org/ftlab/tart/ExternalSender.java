package org.ftlab.tart;

import java.io.Serializable;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.LongSupplier;

/**
 * The virtual clock of a component fed by external inputs that sends on one wire (seed 003's sender): it stamps each
 * input on arrival with real time (strictly increasing, so that the log orders inputs), dequeues inputs in stamp order
 * at {@code max(stamp, its virtual time)}, stamps each output with the dequeue time plus its estimator's estimate of
 * the handling, and answers silence probes with a bound no later output can break:
 * <ul>
 * <li>while handling an input whose work is known before it runs (prescient, as the paper's word count): the tick
 * before that output;</li>
 * <li>with inputs stamped and waiting: the earliest of them dequeued now, plus the least estimate, minus one;</li>
 * <li>idle: real time now (every later stamp is at least that) or its virtual time, whichever is later, plus the
 * least estimate, minus one.</li>
 * </ul>
 * The external inputs and the estimator's changes are what a replay needs; the clock's state ({@link State}) goes
 * into checkpoints.
 */
public final class ExternalSender {
    private final String name;
    private final EstimatorHistory estimators;
    private final LongSupplier realVt;
    private final Deque<Long> stamped = new ArrayDeque<>();
    private long virtualTime;
    private long lastStamp;
    private long handlingOutput = Long.MIN_VALUE;
    private long promised = Long.MIN_VALUE;
    /** A change of estimator decided and being logged: promises made meanwhile must hold under it too. */
    private DeterminismFault changing;

    /**
     * @param realVt real time as virtual ticks (ns since the epoch): what inputs are stamped with; after a recovery it
     *     may lag the old primary's, which {@link State#lastStamp} covers
     */
    public ExternalSender(String name, EstimatorHistory estimators, LongSupplier realVt) {
        this.name = name;
        this.estimators = estimators;
        this.realVt = realVt;
        this.virtualTime = Long.MIN_VALUE;
        this.lastStamp = Long.MIN_VALUE;
    }

    /** A sender that goes on from a checkpoint's state. */
    public static ExternalSender restore(String name, EstimatorHistory estimators, LongSupplier realVt, State state) {
        ExternalSender s = new ExternalSender(name, estimators, realVt);
        s.virtualTime = state.virtualTime();
        s.lastStamp = state.lastStamp();
        return s;
    }

    /** Stamps an arriving external input: real time, or one tick after the last stamp. It waits to be dequeued. */
    public synchronized long stamp() {
        long s = Math.max(realVt.getAsLong(), lastStamp == Long.MIN_VALUE ? Long.MIN_VALUE : lastStamp + 1);
        lastStamp = s;
        stamped.addLast(s);
        return s;
    }

    /**
     * A replay's input: the stamp the log gives (later than the last), waiting to be dequeued as a live one would.
     */
    public synchronized void replayStamp(long stamp) {
        if (lastStamp != Long.MIN_VALUE && stamp <= lastStamp) {
            throw new IllegalArgumentException(name + ": replayed stamp " + stamp + " is not after " + lastStamp);
        }
        lastStamp = stamp;
        stamped.addLast(stamp);
    }

    /** An input stamped and then given up before it was handled (its log write failed): forgotten. */
    public synchronized void withdraw(long stamp) {
        stamped.remove(stamp);
    }

    /**
     * Dequeues the input stamped {@code stamp} (the oldest waiting) whose handling does {@code work}: returns the
     * output's virtual time. Until {@link #sent}, probes are answered with the tick before it.
     */
    public synchronized Handling begin(long stamp, long[] work) {
        Long first = stamped.peekFirst();
        if (first == null || first != stamp) {
            throw new IllegalStateException(name + ": input " + stamp + " dequeued before " + first);
        }
        stamped.removeFirst();
        long dequeue = Math.max(stamp, virtualTime);
        long output = dequeue + estimators.at(dequeue).ticks(work);
        handlingOutput = output;
        return new Handling(stamp, dequeue, output);
    }

    /** The output of {@code h} was delivered to its receiver: the clock moves to its time. */
    public synchronized void sent(Handling h) {
        virtualTime = Math.max(virtualTime, h.outputVt());
        handlingOutput = Long.MIN_VALUE;
    }

    /** What this sender promises now: it sends nothing at or before the returned virtual time but what it sent. */
    public synchronized long silentThrough() {
        long bound;
        if (handlingOutput != Long.MIN_VALUE) {
            bound = handlingOutput - 1;
        } else {
            long earliest = stamped.isEmpty() ? realVt.getAsLong() : stamped.peekFirst();
            long dequeue = Math.max(earliest, virtualTime);
            long least = estimators.minTicksFrom(dequeue);
            if (changing != null) {
                least = Math.min(least, changing.estimator().minTicks());
            }
            bound = dequeue + least - 1;
        }
        promised = Math.max(promised, bound);
        return promised;
    }

    /**
     * Decides a change of estimator (a determinism fault): it takes effect after every virtual time this sender has
     * used, stamped or promised, so no output and no promise made before it changes. Log the fault synchronously, then
     * {@link #apply} it before the next {@link #begin}; promises made meanwhile hold under both estimators.
     */
    public synchronized DeterminismFault recalibrate(Estimator next) {
        long after = Math.max(Math.max(promised, virtualTime), Math.max(lastStamp, handlingOutput));
        changing = estimators.recalibrate(after + 1, next);
        return changing;
    }

    /** Puts a logged change of estimator in effect (live after logging it, or in a replay). */
    public synchronized void apply(DeterminismFault fault) {
        estimators.apply(fault);
        changing = null;
    }

    /** The estimators this sender has used, with their changes. */
    public EstimatorHistory estimators() {
        return estimators;
    }

    /** Inputs stamped and not yet handled. */
    public synchronized int waiting() {
        return stamped.size();
    }

    public synchronized State state() {
        return new State(virtualTime, lastStamp);
    }

    public String name() {
        return name;
    }

    /** One input's handling: its stamp, the virtual time it was dequeued at and its output's. */
    public record Handling(long stamp, long dequeueVt, long outputVt) {
    }

    /** The clock as a checkpoint keeps it: its virtual time and its last stamp. */
    public record State(long virtualTime, long lastStamp) implements Serializable {
    }
}
