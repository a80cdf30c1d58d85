package org.ftlab.harness.it;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;

/**
 * A child process for {@link SessionFenceIT}: inserts a row in a transaction it never ends, says "holding", then
 * waits, as a replica does that hangs in the middle of a request. Arguments: JDBC URL, user, key; the password comes
 * in the environment variable {@code LOCK_HOLDER_PASSWORD}.
 */
public final class LockHolder {
    private LockHolder() {
    }

    public static void main(String[] args) throws Exception {
        try (Connection c = DriverManager.getConnection(args[0], args[1], System.getenv("LOCK_HOLDER_PASSWORD"));
                Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            s.executeUpdate("INSERT INTO fence_probe (k) VALUES (" + Integer.parseInt(args[2]) + ")");
            System.out.println("holding");
            System.out.flush();
            Thread.sleep(Long.MAX_VALUE);
        }
    }
}
