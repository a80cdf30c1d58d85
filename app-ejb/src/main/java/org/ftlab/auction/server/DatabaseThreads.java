package org.ftlab.auction.server;

import com.mysql.cj.jdbc.JdbcConnection;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import javax.sql.DataSource;
import org.ftlab.auction.api.ReplicaProperties;
import org.ftlab.auction.api.ThreadSchedstat;

/**
 * The database connection of a transaction (its id: the database records lock waits by it), the database server's
 * thread that serves it, and that thread's scheduler statistics: how long it ran and how long it waited for a CPU
 * while the transaction ran. The thread and its statistics only when the database runs on this machine (the
 * embedded one: {@link ReplicaProperties#DB_PID}), and MariaDB names its connection threads
 * ({@code information_schema.PROCESSLIST.TID}, looked up once per connection). Anything missing gives no reading:
 * a probe must never fail a request.
 */
final class DatabaseThreads {
    private static final long PID = ReplicaProperties.databasePid();
    /** The server thread (Linux tid) of each connection id, -1 when it has none. */
    private static final ConcurrentMap<Long, Long> TIDS = new ConcurrentHashMap<>();
    /** Each server thread's counters, kept open (a connection's thread lives as long as the connection). */
    private static final ConcurrentMap<Long, ThreadSchedstat.Other> COUNTERS = new ConcurrentHashMap<>();

    private DatabaseThreads() {
    }

    /** The readings of one transaction's database thread: taken at its start, compared at its end. */
    static final class Reading {
        private final long connection;
        private final long tid;
        private final long cpuNanos;
        private final long runQueueNanos;

        private Reading(long connection, long tid, long cpuNanos, long runQueueNanos) {
            this.connection = connection;
            this.tid = tid;
            this.cpuNanos = cpuNanos;
            this.runQueueNanos = runQueueNanos;
        }

        /** The connection's id in the database (its process list's ID, what its lock waits are recorded by). */
        long connection() {
            return connection;
        }

        /** {cpu µs, run-queue µs} since the start reading; -1 each when unknown. */
        long[] sinceStart() {
            if (tid < 0) {
                return new long[] {ThreadSchedstat.UNKNOWN, ThreadSchedstat.UNKNOWN};
            }
            long[] now = schedstat(tid);
            return new long[] {ThreadSchedstat.deltaMicros(cpuNanos, now[0]),
                    ThreadSchedstat.deltaMicros(runQueueNanos, now[1])};
        }
    }

    /**
     * The reading at the start of the calling thread's JTA transaction: the connection the transaction uses (the
     * data source hands every request of one transaction the same one), its id, and its server thread's counters now
     * when the database is on this machine; null when a step fails.
     */
    static Reading start(DataSource dataSource) {
        if (dataSource == null) {
            return null;
        }
        try (Connection c = dataSource.getConnection()) {
            long id = c.unwrap(JdbcConnection.class).getId();
            if (PID <= 0) {
                return new Reading(id, -1, -1, -1);
            }
            Long tid = TIDS.get(id);
            if (tid == null) {
                tid = lookUp(c, id);
                TIDS.put(id, tid);
            }
            long[] now = tid < 0 ? new long[] {-1, -1} : schedstat(tid);
            return now[0] < 0 ? new Reading(id, -1, -1, -1) : new Reading(id, tid, now[0], now[1]);
        } catch (SQLException | RuntimeException e) {
            return null;
        }
    }

    private static long lookUp(Connection c, long id) {
        try (PreparedStatement s = c.prepareStatement("SELECT TID FROM information_schema.PROCESSLIST WHERE ID = ?")) {
            s.setLong(1, id);
            try (ResultSet r = s.executeQuery()) {
                return r.next() ? r.getLong(1) : -1;
            }
        } catch (SQLException e) {
            return -1; // not MariaDB, or no such column: no readings for this connection
        }
    }

    /** {cpu ns, run-queue ns} of thread {@code tid} of the database server, -1 each when unreadable. */
    private static long[] schedstat(long tid) {
        ThreadSchedstat.Other counters = COUNTERS.computeIfAbsent(tid, t -> ThreadSchedstat.Other.open(PID, t));
        long[] now = counters == null ? new long[] {-1, -1} : counters.both();
        if (now[0] < 0 && counters != null) {
            COUNTERS.remove(tid, counters); // the thread ended: its id may come back as another connection's
            counters.close();
        }
        return now;
    }
}
