package org.ftlab.faults;

import java.io.IOException;
import java.util.EnumSet;
import java.util.Optional;
import java.util.function.Function;
import org.ftlab.os.Undo;
import org.ftlab.rm.api.FaultAmount;
import org.ftlab.rm.api.FaultSpec;
import org.ftlab.rm.api.FaultTarget.Node;

/** A host's outgoing bandwidth limited (token bucket) to the amount, kbit/s. */
public final class Bandwidth extends LabFaultKind {
    public Bandwidth() {
        super("bandwidth", Layer.NETWORK, ActsOn.NETWORK, EnumSet.of(Node.PRIMARY, Node.BACKUP, Node.DB,
                Node.CLIENTS), LASTS, FaultAmount.of("kbit_per_s", 1000, 8, 10_000_000, 256, 1000, 5000), NOT_A_STALL);
    }

    @Override
    public boolean failsAReplica(FaultSpec spec, long detectorTimeoutMillis) {
        return false;
    }

    @Override
    public Optional<String> whyNot(LabFacts lab, Function<String, Optional<String>> unusableController) {
        return Support.virtualNetwork(wireName(), lab);
    }

    @Override
    public Undo make(FaultSpec spec, FaultSite site) throws IOException {
        return site.net().bandwidth(site.host(), spec.amount());
    }
}
