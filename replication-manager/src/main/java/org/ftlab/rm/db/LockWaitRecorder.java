package org.ftlab.rm.db;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import jdk.jfr.Event;
import org.ftlab.rm.api.DatabaseEndpoint;
import org.ftlab.rm.api.DatabaseLockWait;

/**
 * Records the database's row-lock waits into this JVM's flight recording: every {@value #PERIOD_MILLIS} ms it asks
 * InnoDB which transactions wait for a lock ({@code information_schema.INNODB_TRX}, state {@code LOCK WAIT}) and keeps
 * one {@link DatabaseLockWait} event per wait, from the first sample that saw it to the first that did not (each end known to
 * within a period). The event names the waiting session by its connection id, which the replicas' probes record per
 * request ({@code db_connection}): the join is exact. Mechanism only; what a wait explains is the analysis's rule.
 */
public final class LockWaitRecorder implements AutoCloseable {
    /** How often InnoDB is asked, ms: a wait shorter than this may be missed. */
    public static final int PERIOD_MILLIS = 10;

    private final DatabaseEndpoint endpoint;
    private final Thread thread;
    private volatile boolean stopped;

    private LockWaitRecorder(DatabaseEndpoint endpoint) {
        this.endpoint = endpoint;
        this.thread = new Thread(this::run, "db-lock-waits");
        this.thread.setDaemon(true);
    }

    /** Starts sampling the database at {@code endpoint}. */
    public static LockWaitRecorder start(DatabaseEndpoint endpoint) {
        LockWaitRecorder r = new LockWaitRecorder(endpoint);
        r.thread.start();
        return r;
    }

    private void run() {
        Map<Long, DatabaseLockWait> open = new HashMap<>();
        while (!stopped) {
            try (Connection c = endpoint.connect();
                    PreparedStatement s = c.prepareStatement("SELECT trx_mysql_thread_id, trx_id FROM "
                            + "information_schema.INNODB_TRX WHERE trx_state = 'LOCK WAIT'")) {
                while (!stopped) {
                    Set<Long> seen = new HashSet<>();
                    try (ResultSet r = s.executeQuery()) {
                        while (r.next()) {
                            long connection = r.getLong(1);
                            seen.add(connection);
                            open.computeIfAbsent(connection, id -> {
                                DatabaseLockWait e = new DatabaseLockWait();
                                e.begin();
                                e.connection = id;
                                try {
                                    e.transaction = r.getString(2);
                                } catch (SQLException ex) {
                                    e.transaction = "";
                                }
                                return e;
                            });
                        }
                    }
                    open.entrySet().removeIf(e -> {
                        if (seen.contains(e.getKey())) {
                            return false;
                        }
                        e.getValue().commit(); // ends now: the first sample without it
                        return true;
                    });
                    Thread.sleep(PERIOD_MILLIS);
                }
            } catch (SQLException e) {
                if (!stopped) {
                    System.err.println("replication-manager: database lock waits not recorded for a while: "
                            + e.getMessage());
                    sleep(1000);
                }
            } catch (InterruptedException e) {
                break;
            }
        }
        open.values().forEach(Event::commit);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        stopped = true;
        thread.interrupt();
        try {
            thread.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
