package org.ftlab.rm.db;

import java.sql.SQLException;
import java.util.OptionalLong;
import org.ftlab.os.Placement;
import org.ftlab.os.access.DatabaseEndpoint;

/** The database tier as a running thing the lab owns (embedded) or merely uses (external). */
public interface DatabaseServer extends AutoCloseable {

    /** How replicas and audits reach the database (driver options included). */
    DatabaseEndpoint endpoint();

    DatabaseFlavor flavor();

    /** The server process, if the lab started it (faults act on it); empty for an external server. */
    default OptionalLong pid() {
        return OptionalLong.empty();
    }

    /** Where the server the lab started runs ({@link #pid()} is a process there). */
    default Placement placement() {
        return Placement.LOCAL;
    }

    /** The fence that ends a failed replica's sessions on this database. */
    default SessionFence fence() throws SQLException {
        return SessionFence.open(endpoint());
    }

    /** Stops the server if the lab started it; an external server is left alone. Never throws. */
    @Override
    void close();
}
