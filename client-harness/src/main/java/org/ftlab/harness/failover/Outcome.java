package org.ftlab.harness.failover;

/**
 * What one invocation through a fail-over strategy gave: the result, which replica answered, to how many replicas
 * the request was sent, and how it was served.
 *
 * @param phases the fail-over phases when another replica than the first choice answered (null when it did)
 * @param sentTo replicas the request was sent to (1 unless hedged, replicated actively or failed over)
 */
public record Outcome<T>(T result, Served served, FailoverPhases phases, String servedBy, int sentTo) {

    /** How a request was served. */
    public enum Served {
        /** By the first replica it was sent to, which had not failed it. */
        FIRST_CHOICE("ok"),
        /**
         * By another replica it was sent to while the first choice had neither answered nor failed (a hedge, or an
         * active replica that answered first).
         */
        HEDGE("hedged"),
        /** By another replica after the first choice failed it (an error or the invocation timeout): a fail-over. */
        FAIL_OVER("retried");

        private final String wireName;

        Served(String wireName) {
            this.wireName = wireName;
        }

        /** The probe file's outcome for it. */
        public String wireName() {
            return wireName;
        }
    }

    /** Answered by {@code replica}, the first the request was sent to, which had not failed it. */
    public static <T> Outcome<T> firstChoice(T result, String replica, int sentTo) {
        return new Outcome<>(result, Served.FIRST_CHOICE, null, replica, sentTo);
    }

    /**
     * Answered by {@code replica} after the first choice failed the request: a fail-over, with its phases (which
     * name the failed replica and count the attempts; the request went to {@code phases.attempts()} replicas).
     */
    public static <T> Outcome<T> failedOver(T result, String replica, FailoverPhases phases) {
        return new Outcome<>(result, Served.FAIL_OVER, phases, replica, phases.attempts());
    }

    /** Whether the client failed over: the first replica it chose failed this request. */
    public boolean faulty() {
        return served == Served.FAIL_OVER;
    }
}
