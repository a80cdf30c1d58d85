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
 * A stall with a known cause: another database session holds the rows every post and bid needs (the accounts,
 * {@code SELECT … FOR UPDATE}: their foreign-key checks wait) for the duration, then rolls back. The attribution must
 * name it a {@code db-lock-wait} of the database.
 */
public final class DbLock extends LabFaultKind {
    public DbLock() {
        super("db-lock", Layer.STALL, ActsOn.DATABASE_SESSION, EnumSet.of(Node.DB), LASTS, FaultAmount.NONE,
                attributedTo("db-lock-wait", StallCause.Place.DATABASE));
    }

    /** A stall fails nothing. */
    @Override
    public boolean failsAReplica(FaultSpec spec, long detectorTimeoutMillis) {
        return false;
    }

    /** A session is what any database, embedded or external, on any machine, gives. */
    @Override
    public Optional<String> whyNot(LabFacts lab, Function<String, Optional<String>> unusableController) {
        return Optional.empty();
    }

    @Override
    public Undo make(FaultSpec spec, FaultSite site) throws IOException {
        return DatabaseLock.holdAccounts(wireName(), site.database());
    }
}
