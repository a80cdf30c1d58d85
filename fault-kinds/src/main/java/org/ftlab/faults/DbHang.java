package org.ftlab.faults;

import java.io.IOException;
import java.util.EnumSet;
import java.util.Optional;
import java.util.function.Function;
import org.ftlab.os.Undo;
import org.ftlab.rm.api.FaultAmount;
import org.ftlab.rm.api.FaultSpec;
import org.ftlab.rm.api.FaultTarget.Node;

/** SIGSTOP of the database server for the duration, then SIGCONT. */
public final class DbHang extends LabFaultKind {
    public DbHang() {
        super("db-hang", Layer.DATABASE, ActsOn.DATABASE_PROCESS, EnumSet.of(Node.DB), LASTS, FaultAmount.NONE,
                NOT_A_STALL);
    }

    /** Only the replicas heartbeat to the detector. */
    @Override
    public boolean failsAReplica(FaultSpec spec, long detectorTimeoutMillis) {
        return false;
    }

    @Override
    public Optional<String> whyNot(LabFacts lab, Function<String, Optional<String>> unusableController) {
        return Support.embeddedDatabase(wireName(), lab);
    }

    @Override
    public Undo make(FaultSpec spec, FaultSite site) throws IOException {
        return ProcessFaults.stop(site.where(), site.pid());
    }
}
