package org.ftlab.harness.cli;

import java.util.Locale;
import org.ftlab.harness.lab.ManagedLab;
import org.ftlab.harness.probe.RunSettings;
import picocli.CommandLine.Option;

/** The knobs that belong to the lab itself (its Fault Detector and its replicas): set where a lab starts. */
public final class LabKnobOptions {
    @Option(names = "--heartbeat-ms", paramLabel = "H", description = "The Fault Detector's heartbeat interval H, ms "
            + "(default: " + ManagedLab.DEFAULT_HEARTBEAT_MILLIS + ").")
    Long heartbeatMillis;

    @Option(names = "--heartbeat-timeout-ms", paramLabel = "T", description = "The Fault Detector's suspicion "
            + "timeout T, ms: a replica silent this long is suspected (at least 2H; default: "
            + ManagedLab.DEFAULT_HEARTBEAT_TIMEOUT_MILLIS + ", or 2H if that is larger).")
    Long heartbeatTimeoutMillis;

    @Option(names = "--request-log", paramLabel = "on|off", description = "off: replicas run without the request "
            + "log, so a request that reaches a replica twice runs twice (the exactly-once exercise, "
            + "docs/labs/04-exactly-once.md; the audit then fails). Default: on.")
    String requestLog;

    boolean any() {
        return heartbeatMillis != null || heartbeatTimeoutMillis != null || requestLog != null;
    }

    /** The options given, for an error message. */
    String given() {
        return (heartbeatMillis != null ? " --heartbeat-ms" : "")
                + (heartbeatTimeoutMillis != null ? " --heartbeat-timeout-ms" : "")
                + (requestLog != null ? " --request-log" : "");
    }

    long heartbeat() {
        return heartbeatMillis != null ? heartbeatMillis : ManagedLab.DEFAULT_HEARTBEAT_MILLIS;
    }

    long heartbeatTimeout() {
        return heartbeatTimeoutMillis != null ? heartbeatTimeoutMillis
                : Math.max(ManagedLab.DEFAULT_HEARTBEAT_TIMEOUT_MILLIS, 2 * heartbeat());
    }

    boolean requestLogOn() {
        if (requestLog == null) {
            return true;
        }
        return switch (requestLog.trim().toLowerCase(Locale.ROOT)) {
            case "on" -> true;
            case "off" -> false;
            default -> throw new IllegalArgumentException("--request-log must be on or off, was '" + requestLog + "'");
        };
    }

    /** These knobs alone, checked (H and T where {@link RunSettings} declares them). */
    RunSettings settings() {
        return new RunSettings(heartbeat(), heartbeatTimeout(), null, null, requestLogOn(), null);
    }
}
