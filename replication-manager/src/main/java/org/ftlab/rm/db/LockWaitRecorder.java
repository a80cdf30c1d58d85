package org.ftlab.rm.db;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
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
 * lock, a table's during DDL): each sample first reads the process list ({@code SHOW PROCESSLIST}: a third of the
 * server's CPU of the status counter's query, measured) and keeps one {@link DatabaseMetadataLockWait} per session in
 * a {@code Waiting for …} state the same way, from the first sample that saw it (its start and end are known to within
 * a period). InnoDB's count is asked only when another session is running a statement (a row-lock wait is one), so
 * that a sample of an idle database costs the one cheap query.
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
    record MetadataWaiting(long connection, String state, String statement) {
    }

    /** One session of the process list ({@code SHOW PROCESSLIST}'s {@code Id}, {@code Command}, {@code State}, {@code Info}). */
    record Session(long id, String command, String state, String info) {
    }

    /** One sample of the process list: the metadata-lock waits, and whether another session runs a statement. */
    record Sessions(Map<Long, MetadataWaiting> metadataWaits, boolean statementRunning) {
    }

    /**
     * What the process list says, but for the sampler's own session {@code self}: the sessions running a statement
     * ({@code Query}) in a state {@code Waiting for …} (a metadata lock: {@code backup lock}, {@code global read lock},
     * {@code commit lock}, {@code table metadata lock}, {@code table flush}, …), and whether any other runs one (a
     * row-lock wait has no state of its own: {@code Updating}, {@code Sending data}). Sessions between statements
     * are {@code Sleep}.
     */
    static Sessions sessions(List<Session> list, long self) {
        Map<Long, MetadataWaiting> waits = new HashMap<>();
        boolean running = false;
        for (Session x : list) {
            if (x.id() == self || !"Query".equals(x.command())) {
                continue;
            }
            if (x.state() != null && x.state().startsWith("Waiting for ")) {
                String statement = x.info() == null ? "" : x.info().strip();
                waits.put(x.id(), new MetadataWaiting(x.id(), x.state(), statement.length() > STATEMENT_CHARS
                        ? statement.substring(0, STATEMENT_CHARS) : statement));
            } else {
                running = true;
            }
        }
        return new Sessions(waits, running);
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

    private final DatabaseEndpoint endpoint;
    private final SamplerThread thread;

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
                long self = connectionId(s);
                while (!thread.stopped()) {
                    Sessions sessions = sessions(processList(s), self);
                    Map<Long, Waiting> now = Map.of();
                    if (sessions.statementRunning() && currentWaits(s) > 0) {
                        try (ResultSet r = s.executeQuery("SHOW ENGINE INNODB STATUS")) {
                            now = r.next() ? waiting(r.getString("Status")) : Map.of();
                        }
                    }
                    follow(open, now, w -> {
                        DatabaseLockWait e = new DatabaseLockWait();
                        e.begin();
                        e.connection = w.connection();
                        e.transaction = w.transaction();
                        e.waitedBeforeMicros = w.waitedMicros();
                        return e;
                    });
                    follow(openMetadata, sessions.metadataWaits(), w -> {
                        DatabaseMetadataLockWait e = new DatabaseMetadataLockWait();
                        e.begin();
                        e.connection = w.connection();
                        e.state = w.state();
                        e.statement = w.statement();
                        return e;
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
     * One event per wait, by connection: begun ({@code begin}) at the first sample that sees it, committed at the first
     * that does not (it ends then).
     */
    private static <W, E extends Event> void follow(Map<Long, E> open, Map<Long, W> seen, Function<W, E> begin) {
        seen.forEach((connection, w) -> open.computeIfAbsent(connection, id -> begin.apply(w)));
        open.entrySet().removeIf(e -> {
            if (seen.containsKey(e.getKey())) {
                return false;
            }
            e.getValue().commit();
            return true;
        });
    }

    /** The process list now ({@code SHOW PROCESSLIST}, which every MySQL and MariaDB has). */
    private static List<Session> processList(Statement s) throws SQLException {
        List<Session> out = new ArrayList<>();
        try (ResultSet r = s.executeQuery("SHOW PROCESSLIST")) {
            while (r.next()) {
                out.add(new Session(r.getLong("Id"), r.getString("Command"), r.getString("State"),
                        r.getString("Info")));
            }
        }
        return out;
    }

    private static long connectionId(Statement s) throws SQLException {
        try (ResultSet r = s.executeQuery("SELECT CONNECTION_ID()")) {
            return r.next() ? r.getLong(1) : -1;
        }
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
