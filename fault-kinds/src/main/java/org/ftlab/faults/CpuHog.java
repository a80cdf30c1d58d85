package org.ftlab.faults;

import java.io.IOException;
import java.util.EnumSet;
import java.util.Optional;
import java.util.function.Function;
import org.ftlab.os.Undo;
import org.ftlab.rm.api.FaultAmount;
import org.ftlab.rm.api.FaultSpec;
import org.ftlab.rm.api.FaultTarget.Node;
import org.ftlab.rm.api.StallCause;

/**
 * A stall with a known cause: processes that burn CPU (busy loops, the amount: how many, default one per core)
 * started beside a replica or the database for the duration, then killed. The threads of requests wait for a CPU;
 * the attribution must name it {@code cpu-outside} of the host (the processes are not the lab's, and every host of
 * one machine shares its CPUs).
 */
public final class CpuHog extends LabFaultKind {
    public CpuHog() {
        super("cpu-hog", Layer.STALL, ActsOn.BESIDE_TARGET, EnumSet.of(Node.PRIMARY, Node.BACKUP, Node.DB), LASTS,
                FaultAmount.of("processes", 2, 1, ProcessFaults.MAX_BUSY_LOOPS, 1, 2, 4),
                attributedTo("cpu-outside", StallCause.Place.HOST));
    }

    /** A stall fails nothing. */
    @Override
    public boolean failsAReplica(FaultSpec spec, long detectorTimeoutMillis) {
        return false;
    }

    @Override
    public Optional<String> whyNot(LabFacts lab, Function<String, Optional<String>> unusableController) {
        if (lab.otherMachines()) {
            return Optional.of(wireName() + " starts its processes on this machine, which shares no CPU with --hosts' "
                    + "machines; run it without --hosts");
        }
        return Optional.empty();
    }

    @Override
    public Undo make(FaultSpec spec, FaultSite site) throws IOException {
        return ProcessFaults.busyLoops(wireName(), site.where(), (int) spec.amount());
    }
}
