package org.ftlab.rm.db;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import jdk.jfr.Event;
import org.ftlab.os.SamplerThread;
import org.ftlab.os.access.DatabaseEndpoint;
import org.ftlab.os.jfr.DatabaseLockWait;
import org.ftlab.os.jfr.DatabaseMetadataLockWait;

/**
 * Records the database's lock waits into this JVM's flight recording. <b>Row locks</b>: every {@value #PERIOD_MILLIS} ms it reads
 * InnoDB's count of current row-lock waits and, when there are any, asks which transactions wait
 * ({@code SHOW ENGINE INNODB STATUS}: its transactions marked
 * {@code LOCK WAIT}, with their session's thread id and how long they have waited; MariaDB's
 * {@code information_schema.INNODB_TRX} reads empty in ftlab's embedded server) and keeps one
 * {@link DatabaseLockWait} event per wait, from the first sample that saw it to the first that did not, with how long it
 * had waited when first seen (so its start is known to the µs, its end to within a period). The event names the
 * waiting session by its connection id, which the replicas' probes record per request ({@code db_connection}): the
 * join is exact. <b>Metadata locks</b> (the backup lock a backup's {@code BLOCK_COMMIT} stage holds, the global read
 * lock, a table's during DDL): each sample first reads the process list's sessions in a {@code Waiting for …}
 * state, and keeps one {@link DatabaseMetadataLockWait} per wait the same way (its time in that state gives its start).
 * The same query says whether any statement has run for a period or more; only then is InnoDB's count asked (a
 * row-lock wait is a statement that runs long), so that a quiet sample costs one query, as before metadata locks were
 * sampled. A row-lock wait is then seen within two periods of its start, which InnoDB still gives to the µs.
 * Needs the PROCESS privilege (the embedded database's user has it). Mechanism only; what a wait explains is the
 * analysis's rule.
 */
public final class LockWaitRecorder implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(LockWaitRecorder.class.getName());

    /** How often InnoDB is asked, ms: a wait shorter than this may be missed. */
    public static final int PERIOD_MILLIS = 10;
    /** MySQL/MariaDB: the statement needs a privilege the user lacks (here PROCESS). */
    private static final int ER_SPECIFIC_ACCESS_DENIED = 1227;
    private static final Pattern THREAD = Pattern.compile("^(?:MariaDB|MySQL) thread id (\\d+),", Pattern.MULTILINE);
    private static final Pattern WAITING = Pattern.compile("TRX HAS BEEN WAITING (\\d+) (us|SEC) FOR THIS LOCK");
    private static final Pattern TRANSACTION = Pattern.compile("^---TRANSACTION ([^,]+),");
    /** How much of a waiting statement is kept. */
    private static final int STATEMENT_CHARS = 80;

    /** A transaction waiting for a lock, as one sample saw it. */
    record Waiting(long connection, String transaction, long waitedMicros) {
    }

    /** A session waiting for a metadata lock, as one sample saw it: its state and statement, as the process list says. */
    record MetadataWaiting(long connection, String state, String statement, long waitedMicros) {
    }

    /**
     * The sessions of the process list that may wait for a lock: those running a statement ({@code Query}) in a state
     * {@code Waiting for …} (a metadata lock: {@code backup lock}, {@code global read lock}, {@code commit lock},
     * {@code table metadata lock}, {@code table flush}, …), and those that have run one for a sampling period or more
     * in any other state (a row-lock wait shows no state of its own: {@code Updating}, {@code Sending data}). A
     * replica's sessions between statements are {@code Sleep}.
     */
    static final String SESSIONS = "SELECT ID, TIME_MS, STATE, LEFT(INFO, " + STATEMENT_CHARS + ") "
            + "FROM information_schema.PROCESSLIST WHERE COMMAND = 'Query' AND (STATE LIKE 'Waiting for %' "
            + "OR TIME_MS >= " + PERIOD_MILLIS + ")";

    /** One sample of the process list: the metadata-lock waits, and whether another statement has run long. */
    record Sessions(Map<Long, MetadataWaiting> metadataWaits, boolean longStatement) {
        /** What a server whose process list cannot say gives: no metadata waits; ask InnoDB every time. */
        static final Sessions UNKNOWN = new Sessions(Map.of(), true);
    }

    /**
     * The transactions of an InnoDB status text that wait for a lock, by the connection (thread id) of their
     * session; MariaDB gives the wait in µs, MySQL in seconds.
     */
    static Map<Long, Waiting> waiting(String innodbStatus) {
        Map<Long, Waiting> out = new HashMap<>();
        for (String section : innodbStatus.split("\\n(?=---TRANSACTION )")) {
            if (!section.startsWith("---TRANSACTION ") || !section.contains("\nLOCK WAIT ")) {
                continue;
            }
            Matcher thread = THREAD.matcher(section);
            if (!thread.find()) {
                continue;
            }
            Matcher waited = WAITING.matcher(section);
            long micros = !waited.find() ? 0 : waited.group(2).equals("us") ? Long.parseLong(waited.group(1))
                    : Long.parseLong(waited.group(1)) * 1_000_000L;
            Matcher trx = TRANSACTION.matcher(section);
            long connection = Long.parseLong(thread.group(1));
            out.put(connection, new Waiting(connection, trx.find() ? trx.group(1) : "", micros));
        }
        return out;
    }

    /** MySQL/MariaDB: an unknown column. */
    private static final int ER_BAD_FIELD = 1054;

    private final DatabaseEndpoint endpoint;
    private final SamplerThread thread;
    /** Whether the server's process list can say how long a session has waited (MariaDB's can). */
    private volatile boolean metadataSampled = true;

    private LockWaitRecorder(DatabaseEndpoint endpoint) {
        this.endpoint = endpoint;
        this.thread = SamplerThread.of("row-lock-waits", this::run);
    }

    /** Starts sampling the database at {@code endpoint}. */
    public static LockWaitRecorder start(DatabaseEndpoint endpoint) {
        LockWaitRecorder r = new LockWaitRecorder(endpoint);
        r.thread.start();
        return r;
    }

    private void run() {
        Map<Long, DatabaseLockWait> open = new HashMap<>();
        Map<Long, DatabaseMetadataLockWait> openMetadata = new HashMap<>();
        while (!thread.stopped()) {
            try (Connection c = endpoint.connect(); Statement s = c.createStatement()) {
                while (!thread.stopped()) {
                    Sessions sessions = metadataSampled ? sessions(s) : Sessions.UNKNOWN;
                    Map<Long, Waiting> now = Map.of();
                    if (sessions.longStatement() && currentWaits(s) > 0) {
                        try (ResultSet r = s.executeQuery("SHOW ENGINE INNODB STATUS")) {
                            now = r.next() ? waiting(r.getString("Status")) : Map.of();
                        }
                    }
                    Map<Long, Waiting> seen = now;
                    seen.values().forEach(w -> open.computeIfAbsent(w.connection(), id -> {
                        DatabaseLockWait e = new DatabaseLockWait();
                        e.begin();
                        e.connection = id;
                        e.transaction = w.transaction();
                        e.waitedBeforeMicros = w.waitedMicros();
                        return e;
                    }));
                    open.entrySet().removeIf(e -> {
                        if (seen.containsKey(e.getKey())) {
                            return false;
                        }
                        e.getValue().commit(); // ends now: the first sample without it
                        return true;
                    });
                    Map<Long, MetadataWaiting> metadata = sessions.metadataWaits();
                    metadata.values().forEach(w -> openMetadata.computeIfAbsent(w.connection(), id -> {
                        DatabaseMetadataLockWait e = new DatabaseMetadataLockWait();
                        e.begin();
                        e.connection = id;
                        e.state = w.state();
                        e.statement = w.statement();
                        e.waitedBeforeMicros = w.waitedMicros();
                        return e;
                    }));
                    openMetadata.entrySet().removeIf(e -> {
                        if (metadata.containsKey(e.getKey())) {
                            return false;
                        }
                        e.getValue().commit();
                        return true;
                    });
                    Thread.sleep(PERIOD_MILLIS);
                }
            } catch (SQLException e) {
                if (e.getErrorCode() == ER_SPECIFIC_ACCESS_DENIED) {
                    LOG.warning("database lock waits not recorded: the database user "
                            + "needs the PROCESS privilege (GRANT PROCESS ON *.* TO the lab's user)");
                    break;
                }
                if (!thread.stopped()) {
                    LOG.warning("database lock waits not recorded for a while: "
                            + e.getMessage());
                    sleep(1000);
                }
            } catch (InterruptedException e) {
                break;
            }
        }
        open.values().forEach(Event::commit);
        openMetadata.values().forEach(Event::commit);
    }

    /**
     * The process list now: its sessions that wait for a metadata lock, by connection, and whether another statement
     * has run for a period or more; {@link Sessions#UNKNOWN}, and never asked again, on a server whose process list
     * has no {@code TIME_MS} (MySQL's: MariaDB's only).
     */
    private Sessions sessions(Statement s) throws SQLException {
        Map<Long, MetadataWaiting> waits = new HashMap<>();
        boolean longStatement = false;
        try (ResultSet r = s.executeQuery(SESSIONS)) {
            while (r.next()) {
                String state = r.getString(3);
                if (state == null || !state.startsWith("Waiting for ")) {
                    longStatement = true;
                    continue;
                }
                long connection = r.getLong(1);
                String statement = r.getString(4);
                waits.put(connection, new MetadataWaiting(connection, state, statement == null ? ""
                        : statement.strip(), Math.round(r.getDouble(2) * 1000)));
            }
        } catch (SQLException e) {
            if (e.getErrorCode() != ER_BAD_FIELD) {
                throw e;
            }
            metadataSampled = false;
            LOG.warning("database metadata-lock waits not recorded: this server's process list has no TIME_MS "
                    + "(MariaDB's has)");
            return Sessions.UNKNOWN;
        }
        return new Sessions(waits, longStatement);
    }

    /**
     * How many row-lock waits InnoDB has now: a counter it keeps, cheap to read (the whole status, which names the
     * waiting sessions, is a text of many KB built under InnoDB's locks: asked for only when something waits).
     */
    private static long currentWaits(Statement s) throws SQLException {
        try (ResultSet r = s.executeQuery("SHOW GLOBAL STATUS LIKE 'Innodb_row_lock_current_waits'")) {
            return r.next() ? r.getLong(2) : 1; // not counted by this server: ask for the status every time
        }
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
        thread.close();
    }
}
