package org.ftlab.harness.cli;

import java.nio.file.Path;
import org.ftlab.harness.failover.ClientTuning;
import org.ftlab.harness.lab.LabFile;
import org.ftlab.harness.probe.RunSettings;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The knobs a lab varies besides the grid (docs/labs/): the lab's own (heartbeat, the request log: {@link
 * LabKnobOptions}) and the clients' (invocation timeout, hedge delay).
 */
public final class KnobOptions {
    @Mixin
    LabKnobOptions lab;

    @Option(names = "--invocation-timeout-ms", paramLabel = "MS", description = "How long a client waits for one "
            + "attempt before it counts the replica as failed: a number of ms, or adaptive (default: 3x the "
            + "slowest of the last 1,024 answers, 25 to 1,000 ms).")
    String invocationTimeout;

    @Option(names = "--hedge-delay-ms", paramLabel = "MS", description = "How long a hedged client waits before it "
            + "sends the request to a second replica: a number of ms (0: at once), or adaptive (default: the 95th "
            + "percentile of the operation's recent answers).")
    String hedgeDelay;

    boolean any() {
        return lab.any() || invocationTimeout != null || hedgeDelay != null;
    }

    /** The run's settings from these options and the plug-in's location (null: none); checked. */
    RunSettings settings(Path pluginDir) {
        RunSettings l = lab.settings();
        return new RunSettings(l.heartbeatMillis(), l.heartbeatTimeoutMillis(),
                ClientTuning.parseMillis("--invocation-timeout-ms", invocationTimeout),
                ClientTuning.parseMillis("--hedge-delay-ms", hedgeDelay), l.requestLog(),
                pluginDir == null ? null : pluginDir.toAbsolutePath().normalize().toString());
    }

    /** As {@link #settings(Path)} on a running lab: the lab's knobs are the lab's, so none may be given here. */
    RunSettings settings(Path pluginDir, LabFile running) {
        if (lab.any()) {
            throw new IllegalArgumentException(lab.given().trim() + " belong" + (lab.given().trim().contains(" ")
                    ? "" : "s") + " to the lab: give " + (lab.given().trim().contains(" ") ? "them" : "it")
                    + " to 'ftlab lab', or leave out --lab");
        }
        return new RunSettings(running.heartbeatMs(), running.heartbeatTimeoutMs(),
                ClientTuning.parseMillis("--invocation-timeout-ms", invocationTimeout),
                ClientTuning.parseMillis("--hedge-delay-ms", hedgeDelay), running.requestLog(),
                pluginDir == null ? null : pluginDir.toAbsolutePath().normalize().toString());
    }
}
