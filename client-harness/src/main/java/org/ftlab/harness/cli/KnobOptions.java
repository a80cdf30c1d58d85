package org.ftlab.harness.cli;

import java.nio.file.Path;
import org.ftlab.harness.failover.ClientTuning;
import org.ftlab.harness.lab.ManagedLab;
import org.ftlab.harness.probe.RunSettings;
import picocli.CommandLine.Option;

/** The knobs a lab varies besides the grid (docs/labs/): heartbeat, timeouts, hedge delay, the request log. */
public final class KnobOptions {
    @Option(names = "--heartbeat-ms", paramLabel = "H", description = "The Fault Detector's heartbeat interval H, ms "
            + "(default: " + ManagedLab.DEFAULT_HEARTBEAT_MILLIS + ").")
    Long heartbeatMillis;

    @Option(names = "--heartbeat-timeout-ms", paramLabel = "T", description = "The Fault Detector's suspicion "
            + "timeout T, ms: a replica silent this long is suspected (at least 2H; default: "
            + ManagedLab.DEFAULT_HEARTBEAT_TIMEOUT_MILLIS + ", or 2H if that is larger).")
    Long heartbeatTimeoutMillis;

    @Option(names = "--invocation-timeout-ms", paramLabel = "MS", description = "How long a client waits for one "
            + "attempt before it counts the replica as failed: a number of ms, or adaptive (default: 3x the "
            + "slowest of the last 1,024 answers, 25 to 1,000 ms).")
    String invocationTimeout;

    @Option(names = "--hedge-delay-ms", paramLabel = "MS", description = "How long a hedged client waits before it "
            + "sends the request to a second replica: a number of ms (0: at once), or adaptive (default: the 95th "
            + "percentile of the operation's recent answers).")
    String hedgeDelay;

    @Option(names = "--request-log", paramLabel = "on|off", description = "off: replicas run without the request "
            + "log, so a request that reaches a replica twice runs twice (the exactly-once exercise, "
            + "docs/labs/04-exactly-once.md; the audit then fails). Default: on.")
    String requestLog;

    boolean any() {
        return heartbeatMillis != null || heartbeatTimeoutMillis != null || invocationTimeout != null
                || hedgeDelay != null || requestLog != null;
    }

    /** The run's settings from these options and the plug-in's location (null: none); checked. */
    RunSettings settings(Path pluginDir) {
        boolean log = true;
        if (requestLog != null) {
            switch (requestLog.trim().toLowerCase(java.util.Locale.ROOT)) {
                case "on" -> log = true;
                case "off" -> log = false;
                default -> throw new IllegalArgumentException("--request-log must be on or off, was '" + requestLog
                        + "'");
            }
        }
        long h = heartbeatMillis != null ? heartbeatMillis : ManagedLab.DEFAULT_HEARTBEAT_MILLIS;
        long t = heartbeatTimeoutMillis != null ? heartbeatTimeoutMillis
                : Math.max(ManagedLab.DEFAULT_HEARTBEAT_TIMEOUT_MILLIS, 2 * h);
        return new RunSettings(h, t, ClientTuning.parseMillis("--invocation-timeout-ms", invocationTimeout),
                ClientTuning.parseMillis("--hedge-delay-ms", hedgeDelay), log,
                pluginDir == null ? null : pluginDir.toAbsolutePath().normalize().toString());
    }
}
