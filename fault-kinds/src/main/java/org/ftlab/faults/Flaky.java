package org.ftlab.faults;

import java.io.IOException;
import java.util.EnumSet;
import java.util.Optional;
import java.util.function.Function;
import org.ftlab.os.Undo;
import org.ftlab.rm.api.FaultAmount;
import org.ftlab.rm.api.FaultSpec;
import org.ftlab.rm.api.FaultTarget.Node;

/** A host's packets dropped at random, the amount in % of packets, both ways. */
public final class Flaky extends LabFaultKind {
    public Flaky() {
        super("flaky", Layer.NETWORK, ActsOn.NETWORK, EnumSet.of(Node.PRIMARY, Node.BACKUP, Node.DB, Node.CLIENTS),
                LASTS, FaultAmount.of("drop_percent", 20, 1, 100, 5, 10, 20, 40), NOT_A_STALL);
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
        return site.net().flaky(site.table(), site.host(), spec.amount());
    }
}
