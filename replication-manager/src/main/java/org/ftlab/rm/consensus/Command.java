package org.ftlab.rm.consensus;

/**
 * A change of a deterministic state {@code S} with its result {@code R}. Applied to equal states in the same order,
 * commands leave them equal: a command carries every input its change needs (times, readings), and reads no clock,
 * file or random number of the member applying it. A command and its result travel between members as JSON.
 */
public interface Command<S, R> {
    /** Changes {@code state} and answers the result (null for none). */
    R applyTo(S state);

    /** The result's class, which the member that asked reads the answer as. */
    Class<R> resultType();
}
