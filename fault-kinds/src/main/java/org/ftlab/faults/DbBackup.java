package org.ftlab.faults;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.EnumSet;
import java.util.Optional;
import java.util.function.Function;
import org.ftlab.os.Undo;
import org.ftlab.rm.api.FaultAmount;
import org.ftlab.rm.api.FaultSpec;
import org.ftlab.rm.api.FaultTarget.Node;
import org.ftlab.rm.api.StallCause;

/**
 * A stall with a known cause, a slow commit on purpose: another database session blocks every commit for the duration,
 * as a backup does at its end (MariaDB's {@code BACKUP STAGE BLOCK_COMMIT}, the stage {@code mariabackup} holds while
 * it copies the last of the log). Statements run; each transaction that writes waits at its commit for the backup
 * lock; reads do not wait. The attribution must name it a {@code db-mdl-wait} of the database. Undone by
 * {@code BACKUP STAGE END} and closing the session; if the manager is killed first, its connection closes and the
 * server ends the backup itself, so the janitor has nothing to do. MariaDB 10.4.1 or later (MySQL has no backup
 * stages: there the injection fails and says so).
 */
public final class DbBackup extends LabFaultKind {
    private static final int STATEMENT_TIMEOUT_SECONDS = 10;

    public DbBackup() {
        super("db-backup", Layer.STALL, ActsOn.DATABASE_SESSION, EnumSet.of(Node.DB), LASTS, FaultAmount.NONE,
                attributedTo("db-mdl-wait", StallCause.Place.DATABASE));
    }

    /** A stall fails nothing. */
    @Override
    public boolean failsAReplica(FaultSpec spec, long detectorTimeoutMillis) {
        return false;
    }

    /** A session is what any MariaDB, embedded or external, on any machine, gives. */
    @Override
    public Optional<String> whyNot(LabFacts lab, Function<String, Optional<String>> unusableController) {
        return Optional.empty();
    }

    @Override
    public Undo make(FaultSpec spec, FaultSite site) throws IOException {
        Connection c;
        try {
            c = site.database().connect();
        } catch (SQLException e) {
            throw new IOException(wireName() + " could not connect to the database: " + e.getMessage(), e);
        }
        try (Statement s = c.createStatement()) {
            s.setQueryTimeout(STATEMENT_TIMEOUT_SECONDS);
            s.execute("BACKUP STAGE START");
            s.execute("BACKUP STAGE BLOCK_COMMIT");
        } catch (SQLException e) {
            end(c);
            throw new IOException(wireName() + " could not block the database's commits (it needs MariaDB 10.4.1 or "
                    + "later and the RELOAD privilege): " + e.getMessage(), e);
        }
        return Undo.of(": # the database ends a killed manager's backup stage itself", () -> end(c));
    }

    private static void end(Connection c) {
        try (Statement s = c.createStatement()) {
            s.execute("BACKUP STAGE END");
        } catch (SQLException e) {
            // closing ends it too
        }
        try {
            c.close();
        } catch (SQLException e) {
            // the session is gone: its backup stage with it
        }
    }
}
