package org.ftlab.harness.probe;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * A run on a lab of several managers' {@code manager-failovers.json} (docs/probe-format.md): every change of leader
 * that happened during the run, each with the fault that caused it (if one was injected) and its phases, and the
 * replica failures the new leader handled. Written once, whole, with {@code faults.csv}.
 *
 * @param members the managers' ids
 * @param failovers the run's changes of leader, in order
 */
public record ManagerFailoverRecord(List<String> members, List<Failover> failovers) {
    public static final String FILE = "manager-failovers.json";

    public ManagerFailoverRecord {
        members = List.copyOf(members);
        failovers = List.copyOf(failovers);
    }

    /**
     * One change of leader.
     *
     * @param faultId the injected fault that failed the leader ({@code faults.csv}), or null if none did
     * @param kind that fault's kind ({@code rm-crash}, {@code rm-hang}), or null
     * @param injectedEpochUs that fault's injection, 0 if none
     * @param from the leader before, {@code fromTerm} its term
     * @param to the new leader, {@code term} its term
     * @param electedEpochUs when the new leader applied its first change of the view: elected, its copy complete
     * @param actingEpochUs when it had taken the lab over and acted on failures again (0: it never did in the run)
     * @param failuresHandled the replica failures detected while no manager acted, which the new leader handled: their
     *     fault ids
     */
    public record Failover(String faultId, String kind, long injectedEpochUs, String from, long fromTerm, String to,
            long term, long electedEpochUs, long actingEpochUs, List<String> failuresHandled) {
        public Failover {
            failuresHandled = List.copyOf(failuresHandled);
        }
    }

    public void writeTo(Path runDir) throws IOException {
        RunRecordFiles.write(runDir, FILE, this);
    }

    /** The record in {@code runDir}, or null when the run was not on a lab of several managers. */
    public static ManagerFailoverRecord readFrom(Path runDir) throws IOException {
        return RunRecordFiles.read(runDir, FILE, ManagerFailoverRecord.class, "a manager fail-over record");
    }
}
