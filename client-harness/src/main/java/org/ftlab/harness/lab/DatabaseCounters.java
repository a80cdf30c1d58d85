package org.ftlab.harness.lab;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.ftlab.os.access.DatabaseEndpoint;

/** The lab database's own work counters ({@code SHOW GLOBAL STATUS}), read over the lab's audit connection. */
public final class DatabaseCounters {
    private DatabaseCounters() {
    }

    /** The name under which {@link #read} gives the server's {@code server_id}: which server the counters are of. */
    public static final String SERVER_ID = "server_id";
    /** The name under which {@link #read} gives the seconds the server has run: a restart starts its counters anew. */
    public static final String UPTIME_S = "uptime_s";

    /**
     * The values now of those of {@code names} the server has, by name, the server's id ({@link #SERVER_ID}) and how
     * long it has run ({@link #UPTIME_S}): a replicated database's counters are the writer's, a fail-over changes the
     * writer, and a server that failed and came back counts from zero.
     */
    public static Map<String, Long> read(Path labRunDir, List<String> names) throws IOException, SQLException {
        Map<String, Long> m = new LinkedHashMap<>();
        try (Connection c = DatabaseEndpoint.loadForAudits(labRunDir).connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SHOW GLOBAL STATUS")) {
            while (rs.next()) {
                if (names.contains(rs.getString(1))) {
                    m.put(rs.getString(1), Long.parseLong(rs.getString(2).trim()));
                } else if (rs.getString(1).equalsIgnoreCase("Uptime")) {
                    m.put(UPTIME_S, Long.parseLong(rs.getString(2).trim()));
                }
            }
            try (ResultSet id = st.executeQuery("SELECT @@server_id")) {
                id.next();
                m.put(SERVER_ID, id.getLong(1));
            }
        }
        return m;
    }

    /**
     * Whether counters read {@code elapsedSeconds} apart are of one server that ran all along: the same server, and
     * its uptime grew by the time that passed (a second's rounding at each end allowed). A fail-over that brought the
     * first writer back, restarted, fails the second test.
     */
    public static boolean sameServerThroughout(Map<String, Long> before, Map<String, Long> after,
            long elapsedSeconds) {
        return before.get(SERVER_ID).equals(after.get(SERVER_ID))
                && after.getOrDefault(UPTIME_S, 0L) >= before.getOrDefault(UPTIME_S, 0L) + elapsedSeconds - 2;
    }
}
