package org.ftlab.rm.consensus;

import java.util.List;
import java.util.function.Function;

/**
 * A deterministic state kept by a group of members, changed only by {@link Command}s that the group applies in one
 * order; one member leads at a time, and only the leader may change the state (and so act on it). With one member
 * ({@link LocalState}) it leads for ever.
 */
public interface ReplicatedState<S> extends AutoCloseable {
    /**
     * Applies {@code command} on every member (a majority before it returns) and answers its result as this member
     * applied it.
     *
     * @throws NotLeaderException if this member does not lead (now, or any more by the time the group would agree)
     */
    <R> R apply(Command<S, R> command) throws NotLeaderException;

    /**
     * A reading of this member's copy, made while no command changes it. A follower's copy may lag, and so may a new
     * leader's until it has applied a command of its own.
     */
    <R> R read(Function<S, R> query);

    /** This member's id. */
    String member();

    /** Every member's id, this one's included. */
    List<String> members();

    /** The member this one believes leads now, or null (an election, or no majority). */
    String leader();

    /** Whether this member leads now. */
    boolean leads();

    /** The current term: grows with every new leader (with one member: 1). */
    long term();

    @Override
    void close();
}
