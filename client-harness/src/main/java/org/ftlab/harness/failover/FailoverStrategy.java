package org.ftlab.harness.failover;

/** How a client gets a working replica after the primary fails (seed 004's two client designs). */
public enum FailoverStrategy {
    /**
     * Phase III: on a failure, report it to the Replication Manager, wait for the new primary in its view, build a
     * new proxy, retry.
     */
    REACTIVE,
    /**
     * Phase IV: keep a ready proxy to the next backup; on a failure switch to it at once and retry, while the spare
     * is refreshed in the background.
     */
    PRECONNECTED;

    public static FailoverStrategy parse(String text) {
        try {
            return valueOf(text.trim().toUpperCase(java.util.Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("fail-over strategy must be reactive or preconnected, was '" + text
                    + "'");
        }
    }

    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
