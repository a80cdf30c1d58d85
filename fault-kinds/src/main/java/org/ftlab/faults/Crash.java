package org.ftlab.faults;

import java.util.EnumSet;
import java.util.Optional;
import java.util.function.Function;
import org.ftlab.os.Undo;
import org.ftlab.rm.api.FaultAmount;
import org.ftlab.rm.api.FaultSpec;
import org.ftlab.rm.api.FaultTarget.Node;

/**
 * SIGKILL of a replica's server process. The manager sends it itself, under its lock (its detection may follow at
 * once), and repairs it by restoring the degree (a spare or a relaunch), not the lab.
 */
public final class Crash extends LabFaultKind {
    public Crash() {
        super("crash", Layer.PROCESS, ActsOn.REPLICA_PROCESS, EnumSet.of(Node.PRIMARY, Node.BACKUP), HAS_NO_DURATION,
                FaultAmount.NONE, NOT_A_STALL);
    }

    @Override
    public boolean madeByManager() {
        return true;
    }

    @Override
    public boolean failsAReplica(FaultSpec spec, long detectorTimeoutMillis) {
        return true;
    }

    @Override
    public Optional<String> whyNot(LabFacts lab, Function<String, Optional<String>> unusableController) {
        return Optional.empty();
    }

    @Override
    public Undo make(FaultSpec spec, FaultSite site) {
        throw new IllegalArgumentException("a crash is made by the manager, under its lock");
    }
}
