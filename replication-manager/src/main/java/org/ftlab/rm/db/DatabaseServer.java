package org.ftlab.rm.db;

/** The database tier as a running thing the lab owns (embedded) or merely uses (external). */
public interface DatabaseServer extends AutoCloseable {

    /** How replicas and audits reach the database (driver options included). */
    DatabaseEndpoint endpoint();

    DatabaseFlavor flavor();

    /** Stops the server if the lab started it; an external server is left alone. Never throws. */
    @Override
    void close();
}
