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
 * Every TCP segment between two named sides answered with a reset, both ways, for the duration (Toxiproxy's
 * {@code reset_peer}): open connections break, new ones are refused; the processes run on.
 */
public final class TcpReset extends LabFaultKind {
    public TcpReset() {
        super("tcp-reset", Layer.NETWORK, ActsOn.NETWORK, EnumSet.complementOf(EnumSet.of(Node.MANAGERS)), LASTS,
                FaultAmount.NONE, NOT_A_STALL);
    }

    @Override
    public boolean takesTwoSides() {
        return true;
    }

    @Override
    public boolean gray() {
        return true;
    }

    /**
     * A replica whose connections to the detector are reset: the detector sees its heartbeat socket close at once and
     * VERIFY_SUSPECT's check cannot reach it, so it is reported (as a hang: its process runs) however short the fault.
     */
    @Override
    public boolean failsAReplica(FaultSpec spec, long detectorTimeoutMillis) {
        return spec.target().touches(Node.FD) && (spec.target().node().isReplica() || spec.target().peer().isReplica());
    }

    @Override
    public Optional<String> whyNot(LabFacts lab, Function<String, Optional<String>> unusableController) {
        return Support.virtualNetwork(wireName(), lab);
    }

    @Override
    public Undo make(FaultSpec spec, FaultSite site) throws IOException {
        return site.net().tcpReset(site.table(), site.host(), site.peer());
    }
}
