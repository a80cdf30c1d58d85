package org.ftlab.stateful;

import org.ftlab.tart.DeterminismFault;

/**
 * Where the tier logs what replay cannot recompute: external inputs and estimator changes. Both calls return once the
 * record is durable (the live tier waits for them); an implementation may group concurrent appends into one write.
 */
public interface InputLog {
    /**
     * Logs an input. Throws {@link AlreadyLogged} if an input with the same {@code (clientId, seq)} is logged (a
     * retry), and {@link Fenced} if this replica may no longer append (a newer primary's epoch).
     */
    void append(LoggedInput input) throws Fenced, AlreadyLogged;

    /** Logs an estimator change, before it takes effect. */
    void appendFault(int gateway, DeterminismFault fault) throws Fenced;

    /** This replica's epoch is not the log's: a newer primary owns it. */
    final class Fenced extends Exception {
        private static final long serialVersionUID = 1L;

        public Fenced(String message) {
            super(message);
        }
    }

    /** The input is logged already (a retry of a request). */
    final class AlreadyLogged extends Exception {
        private static final long serialVersionUID = 1L;

        public AlreadyLogged(String key) {
            super(key + " is logged already");
        }
    }
}
