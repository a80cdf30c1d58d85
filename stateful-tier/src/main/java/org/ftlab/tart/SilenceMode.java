package org.ftlab.tart;

import java.util.Locale;

/** How a receiver learns that its senders are silent (seed 003 §II.G.3). */
public enum SilenceMode {
    /**
     * Silence travels with data: a message at time t says its wire was silent since the one before. A sender idle for
     * {@link #LAZY_IDLE_ANNOUNCE_NANOS} says so on its own, and again after each such while; without that, a message
     * would wait for ever on a sender that gets no input (a gateway whose clients have stopped).
     */
    LAZY,
    /** A receiver held by pessimism asks the senders it waits on how far they are silent (curiosity probes). */
    CURIOSITY;

    /** How long a sender in lazy mode stays idle before it announces its silence, ns. */
    public static final long LAZY_IDLE_ANNOUNCE_NANOS = 1_000_000;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static SilenceMode parse(String s) {
        for (SilenceMode m : values()) {
            if (m.wireName().equals(s)) {
                return m;
            }
        }
        throw new IllegalArgumentException("silence must be lazy or curiosity, was '" + s + "'");
    }
}
