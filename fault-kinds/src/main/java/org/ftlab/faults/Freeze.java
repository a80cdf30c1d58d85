package org.ftlab.faults;

import java.io.IOException;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.ftlab.os.Undo;
import org.ftlab.rm.api.FaultAmount;
import org.ftlab.rm.api.FaultSpec;
import org.ftlab.rm.api.FaultTarget.Node;

/** Every process of a replica's host frozen (cgroup freezer); thawed after the duration, or fenced. */
public final class Freeze extends LabFaultKind {
    public Freeze() {
        super("freeze", Layer.PROCESS, ActsOn.REPLICA_PROCESS, EnumSet.of(Node.PRIMARY, Node.BACKUP), LASTS,
                FaultAmount.NONE, NOT_A_STALL);
    }

    /** A freeze the detector outlasts: the replica stops heartbeating. */
    @Override
    public boolean failsAReplica(FaultSpec spec, long detectorTimeoutMillis) {
        return outlastsTimeout(spec, detectorTimeoutMillis) && spec.target().node().isReplica();
    }

    @Override
    public Optional<String> whyNot(LabFacts lab, Function<String, Optional<String>> unusableController) {
        return Support.cgroupController(wireName(), lab, "freezer", unusableController);
    }

    /** A host freezes whole: on a virtual network, every process in its namespace. */
    @Override
    public Undo make(FaultSpec spec, FaultSite site) throws IOException {
        return ProcessFaults.freeze(site.where(), site.cgroup(),
                site.net() == null ? List.of(site.pid()) : site.net().pids(site.host()));
    }
}
