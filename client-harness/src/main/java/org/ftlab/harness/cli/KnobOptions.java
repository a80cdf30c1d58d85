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

    @Option(names = "--shadow", paramLabel = "SHARE", description = "Shadow traffic: the share of each client's "
            + "answered requests (0 to 1; 0.1 is one in ten) that it sends again to every backup, where each runs in "
            + "full and is rolled back, to keep backups hot (default: 0, none).")
    String shadow;

    boolean any() {
        return lab.any() || invocationTimeout != null || hedgeDelay != null || shadow != null;
    }

    /** The run's settings from these options and the plug-in's location (null: none); checked. */
    RunSettings settings(Path pluginDir) {
        return withClientKnobs(lab.settings(), pluginDir);
    }

    /**
     * As {@link #settings(Path)} on a running lab, whose own knobs are the lab's (the grid refuses them with
     * {@code --lab} before it gets here).
     */
    RunSettings settings(Path pluginDir, LabFile running) {
        return withClientKnobs(RunSettings.of(running), pluginDir);
    }

    private RunSettings withClientKnobs(RunSettings labKnobs, Path pluginDir) {
        return new RunSettings(labKnobs.heartbeatMillis(), labKnobs.heartbeatTimeoutMillis(),
                ClientTuning.parseMillis("--invocation-timeout-ms", invocationTimeout),
                ClientTuning.parseMillis("--hedge-delay-ms", hedgeDelay), labKnobs.requestLog(),
                pluginDir == null ? null : pluginDir.toAbsolutePath().normalize().toString(), shadowShare());
    }

    private double shadowShare() {
        if (shadow == null) {
            return 0;
        }
        try {
            return Double.parseDouble(shadow.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--shadow must be a share from 0 to 1 (0.1: one request in ten), was '"
                    + shadow.trim() + "'");
        }
    }
}
