package org.ftlab.harness.grid;

import java.util.Locale;

/**
 * Which faults a grid run injects into the primary: none, or {@code crash} (SIGKILL) / {@code hang} (SIGSTOP),
 * either every {@code everySeconds} of run time or {@code perConfig} times in each configuration (spread evenly
 * over its invocations). Each injection waits until the previous fault was repaired (full replication degree).
 */
public record FaultPlan(String kind, double everySeconds, int perConfig) {
    public static final FaultPlan NONE = new FaultPlan("none", 0, 0);

    public FaultPlan {
        kind = kind.toLowerCase(Locale.ROOT);
        if (!kind.equals("none") && !kind.equals("crash") && !kind.equals("hang")) {
            throw new IllegalArgumentException("--faults must be none, crash or hang, was '" + kind + "'");
        }
        if (!kind.equals("none") && (everySeconds > 0) == (perConfig > 0)) {
            throw new IllegalArgumentException("--faults " + kind
                    + " needs exactly one of --fault-every SECONDS or --faults-per-config N");
        }
        if (everySeconds < 0 || perConfig < 0) {
            throw new IllegalArgumentException("fault interval and count must not be negative");
        }
    }

    public boolean enabled() {
        return !kind.equals("none");
    }

    /** The Replication Manager's injection for this kind. */
    public String injection() {
        return kind.equals("hang") ? "hang-primary" : "crash-primary";
    }
}
