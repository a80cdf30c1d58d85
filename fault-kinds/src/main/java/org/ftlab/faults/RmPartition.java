package org.ftlab.faults;

import java.io.IOException;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.ftlab.os.Undo;
import org.ftlab.rm.api.FaultAmount;
import org.ftlab.rm.api.FaultSpec;
import org.ftlab.rm.api.FaultTarget;
import org.ftlab.rm.api.FaultTarget.Node;

/**
 * The Replication Manager that leads cut off from the other managers for the duration: packets between its host and
 * theirs dropped both ways (nftables in its host's namespace), made by itself. The detector, the database, the
 * replicas and the clients still reach it; the other managers do not. They elect a new leader, which takes the lab
 * over; the old one, a minority of one, must stop acting, and it keeps the partition on its timer though it no longer
 * leads (docs/faults.md). Needs a lab of several managers on a virtual network.
 */
public final class RmPartition extends LabFaultKind {
    public RmPartition() {
        super("rm-partition", Layer.MANAGEMENT, ActsOn.MANAGER_PROCESS, EnumSet.of(Node.LEADER, Node.MANAGERS),
                LASTS, FaultAmount.NONE, NOT_A_STALL);
    }

    @Override
    public boolean takesTwoSides() {
        return true;
    }

    /** The leader on one side, every other manager on the other: {@code leader|managers}. */
    @Override
    public FaultTarget defaultTarget() {
        return FaultTarget.between(Node.LEADER, Node.MANAGERS);
    }

    /** A partition: made on the virtual network, though of the managers' layer. */
    @Override
    public boolean needsNetwork() {
        return true;
    }

    @Override
    public boolean failsAReplica(FaultSpec spec, long detectorTimeoutMillis) {
        return false;
    }

    @Override
    public Optional<String> whyNot(LabFacts lab, Function<String, Optional<String>> unusableController) {
        return Support.severalManagers(wireName(), lab).or(() -> Support.virtualNetwork(wireName(), lab));
    }

    /** {@code site.host()}: the leader's host; {@code site.peer()}: the other managers' hosts, comma-separated. */
    @Override
    public Undo make(FaultSpec spec, FaultSite site) throws IOException {
        List<String> others = Arrays.stream(site.peer().split(",")).map(String::strip).toList();
        return site.net().partition(site.table(), List.of(site.host()), others);
    }
}
