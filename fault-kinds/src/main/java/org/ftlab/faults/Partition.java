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

/** Packets between two named sides dropped (both ways) for the duration. */
public final class Partition extends LabFaultKind {
    public Partition() {
        super("partition", Layer.NETWORK, ActsOn.NETWORK, EnumSet.complementOf(EnumSet.of(Node.MANAGERS)), LASTS, FaultAmount.NONE,
                NOT_A_STALL);
    }

    @Override
    public boolean takesTwoSides() {
        return true;
    }

    /** A replica cut off from the detector for longer than it waits; between any other two, the detector hears it. */
    @Override
    public boolean failsAReplica(FaultSpec spec, long detectorTimeoutMillis) {
        return outlastsTimeout(spec, detectorTimeoutMillis) && spec.target().touches(Node.FD)
                && (spec.target().node().isReplica() || spec.target().peer().isReplica());
    }

    @Override
    public Optional<String> whyNot(LabFacts lab, Function<String, Optional<String>> unusableController) {
        return Support.virtualNetwork(wireName(), lab);
    }

    @Override
    public Undo make(FaultSpec spec, FaultSite site) throws IOException {
        return site.net().partition(site.table(), List.of(site.host()), List.of(site.peer()));
    }
}
