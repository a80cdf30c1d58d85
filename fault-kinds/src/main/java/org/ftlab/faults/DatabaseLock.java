package org.ftlab.faults;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.ftlab.os.Undo;
import org.ftlab.os.access.DatabaseEndpoint;

/**
 * A database session that holds rows other transactions need. It locks every account ({@code SELECT … FOR UPDATE}); a
 * post or a bid names its account in a foreign key, whose check waits for that lock (InnoDB takes a shared lock on the
 * parent row at any isolation level). Undone by rolling back and closing the session; if the manager is killed first,
 * its connection closes and the database rolls the transaction back itself, so the janitor has nothing to do.
 */
final class DatabaseLock {
    private static final int STATEMENT_TIMEOUT_SECONDS = 10;

    private DatabaseLock() {
    }

    /** Locks every account in a session of its own, for the fault {@code who} (its errors name it). */
    static Undo holdAccounts(String who, DatabaseEndpoint database) throws IOException {
        Connection c;
        try {
            c = database.connect();
        } catch (SQLException e) {
            throw new IOException(who + " could not connect to the database: " + e.getMessage(), e);
        }
        try (Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
            s.setQueryTimeout(STATEMENT_TIMEOUT_SECONDS);
            s.executeQuery("SELECT id FROM account FOR UPDATE").close();
        } catch (SQLException e) {
            release(c);
            throw new IOException(who + " could not lock the accounts: " + e.getMessage(), e);
        }
        return Undo.of(": # the database rolls back a killed manager's session itself", () -> release(c));
    }

    private static void release(Connection c) {
        try {
            c.rollback();
        } catch (SQLException e) {
            // closing rolls back too
        }
        try {
            c.close();
        } catch (SQLException e) {
            // the session is gone: its locks with it
        }
    }
}
