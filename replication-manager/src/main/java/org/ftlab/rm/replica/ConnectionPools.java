package org.ftlab.rm.replica;

import java.io.IOException;
import org.ftlab.os.access.ApplicationUser;

/**
 * A replica's database connection pool, emptied when the database's writer moves: every connection it holds was cut
 * by the fail-over, and its background validation (every 10 s) would otherwise hand each one out once more, to fail
 * the request it serves. Emptied, it opens new ones to the new writer.
 */
public final class ConnectionPools {
    /** The replica's one datasource (configure-server.cli). */
    private static final String DATASOURCE = "[{\"subsystem\":\"datasources\"},{\"data-source\":\"FtlabDS\"}]";

    private ConnectionPools() {
    }

    /** Closes every idle connection of {@code replica}'s pool and those in use once they are returned. */
    public static void flush(Replica replica, ApplicationUser user) throws IOException {
        Management.invoke(replica, user, "flush-all-connection-in-pool", DATASOURCE);
    }
}
