package org.ftlab.harness.failover;

/**
 * How long one attempt on a replica may take before the client counts that replica as failed: a hung replica never
 * answers, so this bound is how the client notices a hang by itself. Adaptive, for every strategy: {@value #FACTOR}
 * times the slowest of the client's last {@value #WINDOW} successful attempts, within [{@value #FLOOR_MILLIS} ms,
 * {@value #CEILING_MILLIS} ms]; the ceiling until {@value #MIN_SAMPLES} attempts have been seen.
 *
 * <p>Why the maximum and not a percentile: every timeout that fires on a healthy replica is a false suspicion, and
 * costs a fail-over. A bound three times the slowest healthy answer of the last thousand leaves room for the stalls
 * a 2-core host produces now and then (a garbage collection, a busy neighbour), and still notices a hang in tens of
 * milliseconds when normal latency is a few. The floor keeps a run of very fast answers from turning the next
 * ordinary stall into a suspicion; the ceiling is the fixed timeout the client had before.
 */
public final class InvocationTimeout {
    static final int WINDOW = 1024;
    static final int MIN_SAMPLES = 100;
    static final int FACTOR = 3;
    public static final long FLOOR_MILLIS = 25;
    public static final long CEILING_MILLIS = 1000;

    private final LatencyWindow healthy = new LatencyWindow(WINDOW);
    /** A fixed timeout ({@code --invocation-timeout-ms}), ms; 0: adaptive. */
    private final long fixedMillis;

    /** The adaptive timeout. */
    public InvocationTimeout() {
        this(0);
    }

    private InvocationTimeout(long fixedMillis) {
        this.fixedMillis = fixedMillis;
    }

    /** A timeout that stays at {@code millis} whatever the replicas' latency (a lab's knob). */
    public static InvocationTimeout fixed(long millis) {
        if (millis <= 0) {
            throw new IllegalArgumentException("a fixed invocation timeout must be positive, was " + millis + " ms");
        }
        return new InvocationTimeout(millis);
    }

    /** Records how long a successful attempt took (µs). */
    public void record(long attemptMicros) {
        healthy.add(attemptMicros);
    }

    /** The timeout for the next attempt, ms. */
    public long currentMillis() {
        if (fixedMillis > 0) {
            return fixedMillis;
        }
        if (healthy.count() < MIN_SAMPLES) {
            return CEILING_MILLIS;
        }
        long millis = (FACTOR * healthy.max() + 999) / 1000;
        return Math.max(FLOOR_MILLIS, Math.min(CEILING_MILLIS, millis));
    }
}
