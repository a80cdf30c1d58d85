package org.ftlab.faults;

import java.io.IOException;
import java.util.EnumSet;
import java.util.Optional;
import java.util.function.Function;
import org.ftlab.os.Undo;
import org.ftlab.rm.api.FaultAmount;
import org.ftlab.rm.api.FaultSpec;
import org.ftlab.rm.api.FaultTarget.Node;

/** SIGSTOP of a replica's server process; SIGCONT after the duration, unless the manager fenced it first. */
public final class Hang extends LabFaultKind {
    public Hang() {
        super("hang", Layer.PROCESS, ActsOn.REPLICA_PROCESS, EnumSet.of(Node.PRIMARY, Node.BACKUP), LASTS,
                FaultAmount.NONE, NOT_A_STALL);
    }

    /** A hang the detector outlasts: the replica stops heartbeating. */
    @Override
    public boolean failsAReplica(FaultSpec spec, long detectorTimeoutMillis) {
        return outlastsTimeout(spec, detectorTimeoutMillis) && spec.target().node().isReplica();
    }

    @Override
    public Optional<String> whyNot(LabFacts lab, Function<String, Optional<String>> unusableController) {
        return Optional.empty();
    }

    @Override
    public Undo make(FaultSpec spec, FaultSite site) throws IOException {
        return ProcessFaults.stop(site.where(), site.pid());
    }
}
