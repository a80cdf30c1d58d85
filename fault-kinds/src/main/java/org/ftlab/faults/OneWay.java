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
 * A partition in one direction: what the first side sends the second is dropped for the duration, what the second
 * sends the first still arrives ({@code one-way primary|fd}: the detector hears the primary, the primary not the
 * detector).
 */
public final class OneWay extends LabFaultKind {
    public OneWay() {
        super("one-way", Layer.NETWORK, ActsOn.NETWORK, EnumSet.complementOf(EnumSet.of(Node.MANAGERS)), LASTS,
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
     * A replica that cannot send to the detector for longer than it waits: its heartbeats stop arriving. (The other
     * way, the detector still hears it; its stack's own suspicion of the detector goes no further.)
     */
    @Override
    public boolean failsAReplica(FaultSpec spec, long detectorTimeoutMillis) {
        return outlastsTimeout(spec, detectorTimeoutMillis) && spec.target().node().isReplica()
                && spec.target().peer() == Node.FD;
    }

    @Override
    public Optional<String> whyNot(LabFacts lab, Function<String, Optional<String>> unusableController) {
        return Support.virtualNetwork(wireName(), lab);
    }

    @Override
    public Undo make(FaultSpec spec, FaultSite site) throws IOException {
        return site.net().oneWay(site.table(), site.host(), site.peer());
    }
}
