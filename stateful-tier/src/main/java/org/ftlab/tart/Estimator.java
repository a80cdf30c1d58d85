package org.ftlab.tart;

import java.io.Serializable;

/**
 * How many ticks of virtual time a component's handling of one message takes, from what the handling did: the
 * execution counts of its basic blocks ({@code work}, seed 003 §II.H's ξ). A message a handler sends is stamped with
 * the handler's dequeue time plus this estimate, so the estimate must depend on nothing but the message and the
 * component's state (never on a clock): replaying the same inputs then gives the same virtual times.
 *
 * <p>A virtual time is a count of ticks; a tick is a nanosecond, as in the paper's implementation.
 */
public interface Estimator extends Serializable {
    /** Ticks the handling that did {@code work} takes: at least 1, so causally later events are later. */
    long ticks(long[] work);

    /**
     * The fewest ticks any handling takes: a lower bound on {@link #ticks} for every possible {@code work}, which a
     * sender's silence promises rest on.
     */
    long minTicks();

    /** One line for logs and reports: the kind and its coefficients. */
    String describe();
}
