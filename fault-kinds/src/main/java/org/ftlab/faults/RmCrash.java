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
 * SIGKILL of the Replication Manager that leads, made by itself once the group has recorded the fault: the others
 * elect a new leader, which takes the lab over (docs/faults.md). Needs a lab of several managers.
 */
public final class RmCrash extends LabFaultKind {
    public RmCrash() {
        super("rm-crash", Layer.MANAGEMENT, ActsOn.MANAGER_PROCESS, EnumSet.of(Node.LEADER), HAS_NO_DURATION,
                FaultAmount.NONE, NOT_A_STALL);
    }

    /** No replica fails: the lab goes on without a manager until the next one leads. */
    @Override
    public boolean failsAReplica(FaultSpec spec, long detectorTimeoutMillis) {
        return false;
    }

    @Override
    public Optional<String> whyNot(LabFacts lab, Function<String, Optional<String>> unusableController) {
        return Support.severalManagers(wireName(), lab);
    }

    @Override
    public Undo make(FaultSpec spec, FaultSite site) throws IOException {
        site.where().signal(site.pid(), "KILL");
        return Undo.NOTHING;
    }
}
