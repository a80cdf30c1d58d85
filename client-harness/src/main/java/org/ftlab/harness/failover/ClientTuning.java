package org.ftlab.harness.failover;

/**
 * A client's knobs: two timings, each adaptive unless fixed, and its shadow traffic. The invocation timeout (how long
 * one attempt may take before the replica counts as failed; adaptive: {@link InvocationTimeout}) and the hedge delay
 * (how long a hedged client waits before it sends the same request to a second replica; adaptive: {@link
 * HedgeDelay}); labs fix them to see what each costs ({@code --invocation-timeout-ms}, {@code --hedge-delay-ms}). The
 * shadow share ({@code --shadow}): the share of the client's answered requests it sends again to every backup as a
 * shadow ({@link Shadow}).
 *
 * @param invocationTimeoutMillis null: adaptive; else 1 to {@value #MAX_MILLIS} ms
 * @param hedgeDelayMillis null: adaptive; else 0 (send to two replicas at once) to {@value #MAX_MILLIS} ms
 * @param shadowShare 0 (no shadows) to 1 (every request)
 */
public record ClientTuning(Long invocationTimeoutMillis, Long hedgeDelayMillis, double shadowShare) {
    /** The bound on both timings, ms: half the bound on one request's fail-overs. */
    public static final long MAX_MILLIS = 30_000;
    /** Both timings adaptive, no shadows. */
    public static final ClientTuning ADAPTIVE = new ClientTuning(null, null);

    /** Timings without shadows. */
    public ClientTuning(Long invocationTimeoutMillis, Long hedgeDelayMillis) {
        this(invocationTimeoutMillis, hedgeDelayMillis, 0);
    }

    public ClientTuning {
        if (!(shadowShare >= 0 && shadowShare <= 1)) {
            throw new IllegalArgumentException("--shadow must be a share from 0 to 1 (0.1: one request in ten), was "
                    + shadowShare);
        }
        if (invocationTimeoutMillis != null && (invocationTimeoutMillis < 1 || invocationTimeoutMillis > MAX_MILLIS)) {
            throw new IllegalArgumentException("--invocation-timeout-ms must be 1 to " + MAX_MILLIS
                    + " (or adaptive), was " + invocationTimeoutMillis);
        }
        if (hedgeDelayMillis != null && (hedgeDelayMillis < 0 || hedgeDelayMillis > MAX_MILLIS)) {
            throw new IllegalArgumentException("--hedge-delay-ms must be 0 to " + MAX_MILLIS + " (or adaptive), was "
                    + hedgeDelayMillis);
        }
    }

    /** A knob's command-line value: {@code adaptive} or a number of milliseconds. */
    public static Long parseMillis(String option, String text) {
        if (text == null || text.isBlank() || text.trim().equalsIgnoreCase("adaptive")) {
            return null;
        }
        try {
            return Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " must be a whole number of milliseconds or 'adaptive', was '"
                    + text.trim() + "'");
        }
    }

    /** How a report names a knob's value. */
    public static String describe(Long millis) {
        return millis == null ? "adaptive" : millis + " ms";
    }
}
