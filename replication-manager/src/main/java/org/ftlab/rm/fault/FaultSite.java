package org.ftlab.rm.fault;

import org.ftlab.os.Placement;
import org.ftlab.os.access.DatabaseEndpoint;
import org.ftlab.os.net.VirtualNetwork;

/**
 * Where a fault acts, as the manager resolved it from the view when the fault was injected: the target's host and a
 * partition's other side, the process (its pid and where it runs) for process and database faults, and the lab's
 * virtual network (null on one machine), and the lab's database (where a lock is held). {@code faultId} names what the fault leaves behind (a cgroup, an nftables
 * table), so the janitor and a reader of the machine can tell whose it is.
 */
public record FaultSite(String faultId, String host, String peer, long pid, Placement where, VirtualNetwork net,
        DatabaseEndpoint database) {
    /** The cgroup a freeze or a CPU cap puts the processes in: this manager's, this fault's. */
    public String cgroup() {
        return "ftlab-" + ProcessHandle.current().pid() + "-" + faultId;
    }

    /** The nftables table a partition or random drops are rules of. */
    public String table() {
        return "ftlab_" + faultId;
    }
}
