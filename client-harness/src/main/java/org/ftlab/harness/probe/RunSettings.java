package org.ftlab.harness.probe;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.nio.file.Path;
import org.ftlab.harness.failover.ClientTuning;
import org.ftlab.harness.lab.LabFile;
import org.ftlab.harness.lab.ManagedLab;

/**
 * The knobs of a run besides its grid and faults, each a command-line option of {@code ftlab grid} that a lab varies:
 * the Fault Detector's heartbeat interval H and suspicion timeout T, the clients' invocation timeout and hedge delay
 * (null: adaptive), whether replicas keep the request log, the location of a plug-in strategy, and the clients' shadow
 * share ({@code --shadow}: the share of answered requests sent again to every backup as shadows; 0 in a run from before
 * it was recorded). Recorded in
 * {@code manifest.json} under {@code settings}; a resumed run reads them back. Checked here, where they are declared.
 *
 * @param plugin a plug-in strategy's classes (directory or jar), absolute; null for a built-in strategy
 */
public record RunSettings(
        @JsonProperty("heartbeat_ms") long heartbeatMillis,
        @JsonProperty("heartbeat_timeout_ms") long heartbeatTimeoutMillis,
        @JsonProperty("invocation_timeout_ms") Long invocationTimeoutMillis,
        @JsonProperty("hedge_delay_ms") Long hedgeDelayMillis,
        @JsonProperty("request_log") boolean requestLog,
        @JsonProperty("plugin") String plugin,
        @JsonProperty("shadow_share") double shadowShare) {
    /** The longest heartbeat interval accepted, ms. */
    public static final long MAX_HEARTBEAT_MILLIS = 10_000;
    /** Every knob at its default; also what a run from before the knobs were recorded was made with. */
    public static final RunSettings DEFAULTS = new RunSettings(ManagedLab.DEFAULT_HEARTBEAT_MILLIS,
            ManagedLab.DEFAULT_HEARTBEAT_TIMEOUT_MILLIS, null, null, true, null, 0);

    /** Settings without shadow traffic. */
    public RunSettings(long heartbeatMillis, long heartbeatTimeoutMillis, Long invocationTimeoutMillis,
            Long hedgeDelayMillis, boolean requestLog, String plugin) {
        this(heartbeatMillis, heartbeatTimeoutMillis, invocationTimeoutMillis, hedgeDelayMillis, requestLog, plugin, 0);
    }

    /** A run's settings on {@code lab} with the clients' defaults (no invocation timeout or hedge delay, no plug-in). */
    public static RunSettings of(LabFile lab) {
        return new RunSettings(lab.heartbeatMs(), lab.heartbeatTimeoutMs(), null, null, lab.requestLog(), null);
    }

    public RunSettings {
        if (heartbeatMillis < 1 || heartbeatMillis > MAX_HEARTBEAT_MILLIS) {
            throw new IllegalArgumentException("--heartbeat-ms must be 1 to " + MAX_HEARTBEAT_MILLIS + ", was "
                    + heartbeatMillis);
        }
        if (heartbeatTimeoutMillis < 2 * heartbeatMillis) {
            throw new IllegalArgumentException("--heartbeat-timeout-ms must be at least twice --heartbeat-ms (T >= "
                    + "2H; H=" + heartbeatMillis + " ms, T=" + heartbeatTimeoutMillis + " ms)");
        }
        new ClientTuning(invocationTimeoutMillis, hedgeDelayMillis, shadowShare);
    }

    /** These settings with the plug-in at {@code location} (null: none). */
    public RunSettings withPlugin(String location) {
        return new RunSettings(heartbeatMillis, heartbeatTimeoutMillis, invocationTimeoutMillis, hedgeDelayMillis,
                requestLog, location, shadowShare);
    }

    public ClientTuning clientTuning() {
        return new ClientTuning(invocationTimeoutMillis, hedgeDelayMillis, shadowShare);
    }

    /** The plug-in's location, or null. */
    public Path pluginPath() {
        return plugin == null ? null : Path.of(plugin);
    }

    /** One line for the console and the report. */
    public String describe() {
        return "heartbeat H=" + heartbeatMillis + " ms T=" + heartbeatTimeoutMillis + " ms, invocation timeout "
                + ClientTuning.describe(invocationTimeoutMillis) + ", hedge delay "
                + ClientTuning.describe(hedgeDelayMillis) + ", request log " + (requestLog ? "on" : "OFF")
                + (shadowShare > 0 ? ", shadows of " + Math.round(shadowShare * 1000) / 10.0 + "% of requests" : "");
    }
}
