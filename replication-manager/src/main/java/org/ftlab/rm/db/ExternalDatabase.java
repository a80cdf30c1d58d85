package org.ftlab.rm.db;

import java.sql.Connection;
import java.sql.SQLException;
import org.ftlab.os.access.DatabaseEndpoint;

/** An existing MySQL 8 or MariaDB named by JDBC URL; ftlab applies the schema but never starts or stops it. */
public final class ExternalDatabase implements DatabaseServer {
    private final DatabaseEndpoint endpoint;
    private final DatabaseFlavor flavor;

    private ExternalDatabase(DatabaseEndpoint endpoint, DatabaseFlavor flavor) {
        this.endpoint = endpoint;
        this.flavor = flavor;
    }

    /** Connects once to learn the server kind and applies the schema. */
    public static ExternalDatabase connect(DatabaseEndpoint given) throws SQLException {
        DatabaseEndpoint endpoint = given.withDefaultOptions();
        DatabaseFlavor flavor;
        try (Connection c = endpoint.connect()) {
            flavor = DatabaseFlavor.of(c);
        }
        DatabaseSchema.apply(endpoint);
        return new ExternalDatabase(endpoint, flavor);
    }

    @Override
    public DatabaseEndpoint endpoint() {
        return endpoint;
    }

    @Override
    public DatabaseFlavor flavor() {
        return flavor;
    }

    @Override
    public void close() {
        // Not ours to stop.
    }
}
