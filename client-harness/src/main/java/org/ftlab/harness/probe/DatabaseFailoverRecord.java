package org.ftlab.harness.probe;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.ftlab.rm.api.DatabaseFailover;
import org.ftlab.rm.api.DatabaseNode;
import org.ftlab.rm.api.DatabaseTier;

/**
 * A run on a replicated database's {@code database-failovers.json} (docs/probe-format.md): the tier, every fail-over
 * of its writer that began during the run, each with the fault that caused it (if one was injected), and the servers
 * as the run ended. Written once, whole, with {@code faults.csv}.
 *
 * @param tier the lab's database tier
 * @param failovers the run's fail-overs, in order
 * @param nodesAtEnd every server when the run ended
 */
public record DatabaseFailoverRecord(DatabaseTier tier, List<Failover> failovers, List<DatabaseNode> nodesAtEnd) {
    public static final String FILE = "database-failovers.json";

    /**
     * One fail-over and the fault behind it.
     *
     * @param faultId the injected fault it followed ({@code faults.csv}), or null if none did
     * @param injectedEpochUs that fault's injection, 0 if none
     */
    public record Failover(String faultId, long injectedEpochUs, DatabaseFailover failover) {
    }

    public DatabaseFailoverRecord {
        failovers = List.copyOf(failovers);
        nodesAtEnd = List.copyOf(nodesAtEnd);
    }

    public void writeTo(Path runDir) throws IOException {
        RunRecordFiles.write(runDir, FILE, this);
    }

    /** The record in {@code runDir}, or null when the run was not on a replicated database. */
    public static DatabaseFailoverRecord readFrom(Path runDir) throws IOException {
        return RunRecordFiles.read(runDir, FILE, DatabaseFailoverRecord.class, "a database fail-over record");
    }
}
