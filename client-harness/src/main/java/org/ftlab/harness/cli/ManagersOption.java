package org.ftlab.harness.cli;

import picocli.CommandLine.Option;

/** How many managers keep the lab, an option of the commands that start one. */
public final class ManagersOption {
    @Option(names = "--managers", paramLabel = "N", defaultValue = "1",
            description = "Replication Managers that keep the lab: 1 (the default), or 3 or 5 replicated with Raft "
                    + "(jgroups-raft): one leads and acts, another takes over when it fails (docs/running.md).")
    int managers;
}
