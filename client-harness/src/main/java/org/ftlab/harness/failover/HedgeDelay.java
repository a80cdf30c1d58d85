package org.ftlab.harness.failover;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * When a hedged client sends the same request to a second replica: after the {@value #QUANTILE} quantile of the
 * operation's last {@value #WINDOW} successful attempts (Dean and Barroso's choice in "The Tail at Scale": about 5%
 * more requests), per operation because a post takes several times as long as a view. Bounded below by
 * {@value #MIN_MICROS} µs, so that a run of very fast answers does not make ordinary scheduling jitter a reason to
 * load a second replica, and above by half the invocation timeout, so that a hedge always goes out well before the
 * first replica would be declared failed (after that it would only be a retry). Until {@value #MIN_SAMPLES}
 * attempts of an operation have been seen, the upper bound.
 */
public final class HedgeDelay {
    static final int WINDOW = 512;
    static final int MIN_SAMPLES = 50;
    static final double QUANTILE = 0.95;
    static final long MIN_MICROS = 1_000;

    private final InvocationTimeout timeout;
    private final Map<String, LatencyWindow> byOperation = new ConcurrentHashMap<>();
    /** A fixed delay ({@code --hedge-delay-ms}), µs; negative: adaptive. */
    private final long fixedMicros;

    /** The adaptive delay, bounded by {@code timeout}. */
    public HedgeDelay(InvocationTimeout timeout) {
        this(timeout, -1);
    }

    private HedgeDelay(InvocationTimeout timeout, long fixedMicros) {
        this.timeout = timeout;
        this.fixedMicros = fixedMicros;
    }

    /** A delay that stays at {@code millis} (0: every request goes to two replicas at once; a lab's knob). */
    public static HedgeDelay fixed(long millis) {
        if (millis < 0) {
            throw new IllegalArgumentException("a fixed hedge delay must be 0 or more, was " + millis + " ms");
        }
        return new HedgeDelay(null, millis * 1000);
    }

    /** Records a successful attempt of {@code operation} (µs). */
    public void record(String operation, long attemptMicros) {
        byOperation.computeIfAbsent(operation, o -> new LatencyWindow(WINDOW)).add(attemptMicros);
    }

    /** How long to wait for the first replica before hedging the next {@code operation}, µs. */
    public long currentMicros(String operation) {
        if (fixedMicros >= 0) {
            return fixedMicros;
        }
        long upper = timeout.currentMillis() * 1000 / 2;
        LatencyWindow w = byOperation.get(operation);
        if (w == null || w.count() < MIN_SAMPLES) {
            return upper;
        }
        return Math.max(MIN_MICROS, Math.min(upper, w.quantile(QUANTILE)));
    }
}
