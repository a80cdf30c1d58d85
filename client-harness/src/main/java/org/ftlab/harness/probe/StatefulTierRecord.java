package org.ftlab.harness.probe;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.ftlab.auction.api.TierStatus;
import org.ftlab.rm.api.TierRecovery;

/**
 * A stateful-tier run's {@code stateful.json} (docs/probe-format.md): the primary's tier at the run's end (messages,
 * pessimism delay, curiosity probes, out-of-order arrivals, checkpoints, the log's commits, its own replay) and how
 * the tier recovered after each failure of the run (the manager's call to each new primary). Written once, whole.
 *
 * @param status the primary's tier when the run ended
 * @param recoveries one per failure of the run that promoted a replica, in order
 */
public record StatefulTierRecord(TierStatus status, List<Recovery> recoveries) {
    public static final String FILE = "stateful.json";

    /** A failure's recovery of the tier: the fault, and how the new primary restored and replayed. */
    public record Recovery(String faultId, TierRecovery recovery) {
    }

    public void writeTo(Path runDir) throws IOException {
        RunRecordFiles.write(runDir, FILE, this);
    }

    /** The record in {@code runDir}, or null when the run was not on the stateful tier. */
    public static StatefulTierRecord readFrom(Path runDir) throws IOException {
        return RunRecordFiles.read(runDir, FILE, StatefulTierRecord.class, "a stateful tier record");
    }

}
