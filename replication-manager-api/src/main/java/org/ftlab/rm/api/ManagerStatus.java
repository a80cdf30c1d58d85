package org.ftlab.rm.api;

import java.util.List;

/**
 * What {@code GET /status} answers: the view, the pools, every replica launched in this lab, every failure and
 * every injected fault.
 *
 * @param primary the primary's name, null when no replica serves
 * @param degree replicas serving now; {@code targetDegree}: how many the lab keeps
 * @param spares ready spares outside the view, oldest first
 * @param database the database's JDBC URL without credentials
 * @param databaseView the database tier as the manager keeps it: its servers, its writer and its fail-overs
 * @param managers the lab's Replication Managers: members, leader, term
 */
public record ManagerStatus(long epoch, String primary, int degree, int targetDegree, List<String> spares,
        int targetSpares, long warmRoundsRun, long heartbeatMillis, long timeoutMillis, long faultDetectorPid,
        String database, List<ReplicaStatus> replicas, List<FailureRecord> failures, List<InjectedFault> faults,
        DatabaseView databaseView, ManagerGroup managers) {

    public ManagerStatus {
        spares = List.copyOf(spares);
        replicas = List.copyOf(replicas);
        failures = List.copyOf(failures);
        faults = List.copyOf(faults);
    }

    /** Whether the view has its replication degree. */
    public boolean fullDegree() {
        return degree >= targetDegree;
    }

    /** Whether the view has its degree and the spare pool is full. */
    public boolean fullStrength() {
        return fullDegree() && spares.size() >= targetSpares;
    }

    /** The latest restoration of the degree after a failure, µs since the epoch; 0 if none. */
    public long lastRestoredEpochUs() {
        return failures.stream().mapToLong(FailureRecord::restoredEpochUs).max().orElse(0);
    }

    /** Whether any injected fault is still in effect. */
    public boolean anyFaultActive() {
        return faults.stream().anyMatch(InjectedFault::active);
    }
}
