package org.ftlab.rm.api;

import java.util.Locale;

/**
 * Whether a lab's JVMs record JDK Flight Recorder events for the analysis of slow requests (docs/analysis.md): on by
 * default; {@code --observe off} (or the environment's {@value #ENV}) records none.
 */
public enum Observe {
    ON, OFF;

    /** The environment variable that sets the default, {@code on} or {@code off}. */
    public static final String ENV = "FTLAB_OBSERVE";

    public boolean on() {
        return this == ON;
    }

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** {@code on} or {@code off}; a clear error otherwise. */
    public static Observe parse(String s) {
        return switch (s.strip().toLowerCase(Locale.ROOT)) {
            case "on" -> ON;
            case "off" -> OFF;
            default -> throw new IllegalArgumentException("--observe must be on or off (or " + ENV + "), was '" + s
                    + "'");
        };
    }

    /** The default: the environment's {@value #ENV}, else on. */
    public static Observe byDefault() {
        String env = System.getenv(ENV);
        return env == null || env.isBlank() ? ON : parse(env);
    }
}
