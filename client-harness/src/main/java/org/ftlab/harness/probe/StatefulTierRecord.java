package org.ftlab.harness.probe;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.ftlab.auction.api.TierStatus;
import org.ftlab.rm.api.TierRecovery;
import org.ftlab.rm.os.AtomicFiles;

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
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .setPropertyNamingStrategy(com.fasterxml.jackson.databind.PropertyNamingStrategies.SNAKE_CASE);

    /** A failure's recovery of the tier: the fault, and how the new primary restored and replayed. */
    public record Recovery(String faultId, TierRecovery recovery) {
    }

    public void writeTo(Path runDir) throws IOException {
        AtomicFiles.write(runDir.resolve(FILE), JSON.writeValueAsString(this));
    }

    /** The record in {@code runDir}, or null when the run was not on the stateful tier. */
    public static StatefulTierRecord readFrom(Path runDir) throws IOException {
        Path f = runDir.resolve(FILE);
        if (!Files.exists(f)) {
            return null;
        }
        try {
            return JSON.readValue(f.toFile(), StatefulTierRecord.class);
        } catch (IOException e) {
            throw new IOException(f + " is not a stateful tier record of ftlab's (" + e.getMessage()
                    + "): the run directory is damaged", e);
        }
    }
}
