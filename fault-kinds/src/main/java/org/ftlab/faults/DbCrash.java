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
 * SIGKILL of the database's writer. Repaired by the manager, not undone: it promotes a replica, sends the service's
 * connections there and rebuilds the killed server as a replica (docs/faults.md), so it needs a replicated database.
 */
public final class DbCrash extends LabFaultKind {
    public DbCrash() {
        super("db-crash", Layer.DATABASE, ActsOn.DATABASE_PROCESS, EnumSet.of(Node.DB), HAS_NO_DURATION,
                FaultAmount.NONE, NOT_A_STALL);
    }

    /** Only the replicas heartbeat to the detector; the database's own keeper acts on it. */
    @Override
    public boolean failsAReplica(FaultSpec spec, long detectorTimeoutMillis) {
        return false;
    }

    @Override
    public Optional<String> whyNot(LabFacts lab, Function<String, Optional<String>> unusableController) {
        return Support.embeddedDatabase(wireName(), lab).or(() -> lab.replicatedDatabase() ? Optional.empty()
                : Optional.of(wireName() + " needs a replicated database, which the manager fails over: run with "
                        + "--database semisync (or async, galera); one server is not restarted"));
    }

    @Override
    public Undo make(FaultSpec spec, FaultSite site) throws IOException {
        site.where().signal(site.pid(), "KILL");
        return Undo.NOTHING;
    }
}
