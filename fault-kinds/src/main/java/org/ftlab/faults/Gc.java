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
 * A stall with a known cause: a full garbage collection forced in a replica's JVM ({@code GC.run} through the attach
 * mechanism). Over when the collection is; the attribution must name it a {@code gc-pause} of the replica.
 */
public final class Gc extends LabFaultKind {
    public Gc() {
        super("gc", Layer.STALL, ActsOn.REPLICA_PROCESS, EnumSet.of(Node.PRIMARY, Node.BACKUP), HAS_NO_DURATION,
                FaultAmount.NONE, attributedTo("gc-pause", StallCause.Place.REPLICA));
    }

    /** A stall fails nothing. */
    @Override
    public boolean failsAReplica(FaultSpec spec, long detectorTimeoutMillis) {
        return false;
    }

    @Override
    public Optional<String> whyNot(LabFacts lab, Function<String, Optional<String>> unusableController) {
        if (lab.otherMachines()) {
            return Optional.of(wireName() + " attaches to the replica's JVM, which needs it on this machine; with "
                    + "--hosts, ftlab makes process and database faults only");
        }
        return Optional.empty();
    }

    /**
     * Attaches to the replica's JVM: its first attach starts the JVM's attach listener, a few hundred ms of work that
     * is not the collection.
     */
    @Override
    public void prepare(FaultSpec spec, FaultSite site) throws IOException {
        ProcessFaults.attach(site.pid());
    }

    @Override
    public Undo make(FaultSpec spec, FaultSite site) throws IOException {
        return ProcessFaults.forceGc(site.pid());
    }
}
