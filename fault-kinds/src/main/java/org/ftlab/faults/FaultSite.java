package org.ftlab.faults;

import org.ftlab.os.Placement;
import org.ftlab.os.access.DatabaseEndpoint;
import org.ftlab.os.net.VirtualNetwork;
import org.ftlab.rm.api.FaultKind;

/**
 * Where a fault acts, as the manager resolved it from the view when the fault was injected (by what its kind
 * {@link FaultKind#actsOn() acts on}): the target's host and the other side of a pair, the process
 * (its pid, 0 if none, and where it runs, or where processes beside the target start), the lab's virtual network (null
 * on one machine) and the lab's database (where a session of the fault's own holds locks). {@code faultId} names what
 * the fault leaves behind (a cgroup, an nftables table), so the janitor and a reader of the machine can tell whose it
 * is.
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
