package org.ftlab.rm;

/**
 * Where the lab's processes other than the replicas run, as the lab's first leader started them: what a manager that
 * leads after it needs to take them over. Secrets (the database's and the application's passwords) are not here: they
 * stay in the run directory's private files, which every manager of the lab reads.
 *
 * @param detectorPid the Fault Detector's process
 * @param detectorAddress the address its heartbeat group listens on, which every replica was started with
 * @param detectorPort its port there
 * @param databasePid the embedded database server's process; 0 for an external database
 */
public record LabProcesses(long detectorPid, String detectorAddress, int detectorPort, long databasePid) {
}
