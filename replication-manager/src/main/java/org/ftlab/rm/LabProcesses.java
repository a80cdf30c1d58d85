package org.ftlab.rm;

import java.util.List;

/**
 * Where the lab's processes other than the replicas run, as the lab's first leader started them: what a manager that
 * leads after it needs to take them over. Secrets (the database's and the application's passwords) are not here: they
 * stay in the run directory's private files, which every manager of the lab reads.
 *
 * @param detectorPids the Fault Detectors' processes ({@code fd}, {@code fd2}, …; one per manager)
 * @param detectorAddress the address their heartbeat group listens on, which every replica was started with
 * @param detectorPorts each detector's port there, in the same order
 * @param databasePid the embedded database server's process; 0 for an external database
 */
public record LabProcesses(List<Long> detectorPids, String detectorAddress, List<Integer> detectorPorts,
        long databasePid) {
    public LabProcesses {
        detectorPids = List.copyOf(detectorPids);
        detectorPorts = List.copyOf(detectorPorts);
    }
}
