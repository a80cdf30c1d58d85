package org.ftlab.faults;

import java.io.IOException;
import java.util.EnumSet;
import java.util.Optional;
import java.util.function.Function;
import org.ftlab.os.Undo;
import org.ftlab.rm.api.FaultAmount;
import org.ftlab.rm.api.FaultSpec;
import org.ftlab.rm.api.FaultTarget.Node;

/**
 * SIGKILL of the Fault Detector. Repaired by the manager that leads, not undone: it starts a new detector on the same
 * address and port, whose heartbeat group the replicas merge into (docs/faults.md). Until then only the clients'
 * reports and the process checks see a replica fail.
 */
public final class FdCrash extends LabFaultKind {
    public FdCrash() {
        super("fd-crash", Layer.MANAGEMENT, ActsOn.DETECTOR_PROCESS, EnumSet.of(Node.FD), HAS_NO_DURATION,
                FaultAmount.NONE, NOT_A_STALL);
    }

    @Override
    public boolean failsAReplica(FaultSpec spec, long detectorTimeoutMillis) {
        return false;
    }

    @Override
    public Optional<String> whyNot(LabFacts lab, Function<String, Optional<String>> unusableController) {
        return lab.otherMachines() ? Optional.of(wireName() + " runs on this machine's labs, not --hosts")
                : Optional.empty();
    }

    @Override
    public Undo make(FaultSpec spec, FaultSite site) throws IOException {
        site.where().signal(site.pid(), "KILL");
        return Undo.NOTHING;
    }
}
