package org.ftlab.harness.workload.auction;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.ftlab.harness.probe.ProbeTable;
import org.ftlab.harness.workload.Workload;
import org.ftlab.os.access.DatabaseEndpoint;

/**
 * The auction workload's checker. Checks in the database, not through the service, that every post-auction request a client completed is stored
 * exactly once and that nothing else was stored for it. Harness clients title their auctions
 * {@code <clientId>#<seq>}, so each request is recognisable after any number of retries and fail-overs.
 */
public final class ExactlyOnceAudit {
    private ExactlyOnceAudit() {
    }

    /** Audits the completed posts of every table (one table per client). */
    public static Workload.Verdict check(DatabaseEndpoint db, Iterable<ProbeTable> tables) throws SQLException {
        int checked = 0;
        List<String> problems = new ArrayList<>();
        try (Connection c = db.connect();
                PreparedStatement byTitle = c.prepareStatement(
                        "SELECT title, COUNT(*) FROM auction WHERE title LIKE ? GROUP BY title")) {
            Map<String, Map<String, Long>> storedByClient = new HashMap<>();
            for (ProbeTable t : tables) {
                Map<String, Long> stored = storedByClient.computeIfAbsent(t.clientId(), id -> {
                    Map<String, Long> m = new HashMap<>();
                    try {
                        byTitle.setString(1, id.replace("_", "\\_").replace("%", "\\%") + "#%");
                        try (ResultSet rs = byTitle.executeQuery()) {
                            while (rs.next()) {
                                m.put(rs.getString(1), rs.getLong(2));
                            }
                        }
                    } catch (SQLException e) {
                        throw new IllegalStateException(e);
                    }
                    return m;
                });
                for (int i = 0; i < t.size(); i++) {
                    if (!t.methodAt(i).equals("postAuction") || !t.isOk(i)) {
                        continue;
                    }
                    checked++;
                    String title = t.clientId() + "#" + t.seqAt(i);
                    long n = stored.getOrDefault(title, 0L);
                    if (n != 1) {
                        problems.add(title + " stored " + n + " times");
                    }
                    stored.remove(title);
                }
            }
            for (Map.Entry<String, Map<String, Long>> e : storedByClient.entrySet()) {
                if (!e.getValue().isEmpty()) {
                    problems.add(e.getValue().size() + " auctions of " + e.getKey()
                            + " stored that no completed request accounts for, e.g. "
                            + e.getValue().keySet().iterator().next());
                }
            }
        } catch (IllegalStateException e) {
            if (e.getCause() instanceof SQLException sql) {
                throw sql;
            }
            throw e;
        }
        return new Workload.Verdict(checked, "posts", "each stored exactly once (no loss, no duplicate)", problems);
    }
}
