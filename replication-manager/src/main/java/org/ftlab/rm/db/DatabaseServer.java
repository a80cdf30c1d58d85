package org.ftlab.rm.db;

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

    /** Stops the server if the lab started it; an external server is left alone. Never throws. */
    @Override
    void close();
}
