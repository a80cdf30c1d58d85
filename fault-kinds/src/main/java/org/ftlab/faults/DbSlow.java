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

/** The database server's CPU capped (cgroup cpu quota) to the amount, % of one core. */
public final class DbSlow extends LabFaultKind {
    public DbSlow() {
        super("db-slow", Layer.DATABASE, ActsOn.DATABASE_PROCESS, EnumSet.of(Node.DB), LASTS,
                FaultAmount.of("cpu_percent", 10, 1, 100, 5, 10, 20, 30), NOT_A_STALL);
    }

    /** Only the replicas heartbeat to the detector. */
    @Override
    public boolean failsAReplica(FaultSpec spec, long detectorTimeoutMillis) {
        return false;
    }

    @Override
    public Optional<String> whyNot(LabFacts lab, Function<String, Optional<String>> unusableController) {
        return Support.embeddedDatabase(wireName(), lab)
                .or(() -> Support.cgroupController(wireName(), lab, "cpu", unusableController));
    }

    @Override
    public Undo make(FaultSpec spec, FaultSite site) throws IOException {
        return ProcessFaults.cpuQuota(site.where(), site.cgroup(), List.of(site.pid()), spec.amount());
    }
}
