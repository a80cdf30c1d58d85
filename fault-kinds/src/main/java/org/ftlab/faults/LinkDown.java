package org.ftlab.faults;

import java.io.IOException;
import java.util.EnumSet;
import java.util.Optional;
import java.util.function.Function;
import org.ftlab.os.Undo;
import org.ftlab.rm.api.FaultAmount;
import org.ftlab.rm.api.FaultSpec;
import org.ftlab.rm.api.FaultTarget.Node;

/** A host's network link down for the duration. */
public final class LinkDown extends LabFaultKind {
    public LinkDown() {
        super("link-down", Layer.NETWORK, ActsOn.NETWORK, EnumSet.of(Node.PRIMARY, Node.BACKUP, Node.DB,
                Node.CLIENTS), LASTS, FaultAmount.NONE, NOT_A_STALL);
    }

    /** A replica's link down longer than the detector waits: its heartbeats stop arriving. */
    @Override
    public boolean failsAReplica(FaultSpec spec, long detectorTimeoutMillis) {
        return outlastsTimeout(spec, detectorTimeoutMillis) && spec.target().node().isReplica();
    }

    @Override
    public Optional<String> whyNot(LabFacts lab, Function<String, Optional<String>> unusableController) {
        return Support.virtualNetwork(wireName(), lab);
    }

    @Override
    public Undo make(FaultSpec spec, FaultSite site) throws IOException {
        return site.net().linkDown(site.host());
    }
}
