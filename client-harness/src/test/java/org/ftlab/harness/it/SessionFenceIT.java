package org.ftlab.harness.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.ftlab.os.ProcessTools;
import org.ftlab.os.access.DatabaseEndpoint;
import org.ftlab.rm.db.EmbeddedDatabase;
import org.ftlab.rm.db.EpochFence;
import org.ftlab.rm.db.SessionFence;
import org.junit.jupiter.api.Test;

/**
 * Fencing at the database on a real MariaDB: a stopped process that holds a row lock in an open transaction (a replica
 * hung in the middle of a request) loses its session, its transaction rolls back, and another session takes the row
 * while the process is still stopped. Without the fence the second insert would wait out its lock timeout and fail.
 * Every such order carries the view epoch it was decided in, and the database refuses one of an older epoch than a
 * manager has raised it to (a deposed leader's): nothing is ended, and the refusal is counted.
 */
class SessionFenceIT {
    private static final EpochFence.Order FIRST_LEADER = new EpochFence.Order(4, "m1", 1);
    private static final EpochFence.Order NEXT_LEADER = new EpochFence.Order(5, "m2", 2);

    /** A process that took row 1 of {@code fence_probe} in an open transaction, stopped (SIGSTOP). */
    private static Process stoppedHolderOfTheRow(DatabaseEndpoint endpoint) throws Exception {
        try (Connection c = endpoint.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE fence_probe (k INT PRIMARY KEY)");
        }
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), LockHolder.class.getName(), endpoint.jdbcUrl(),
                endpoint.user(), "1").redirectErrorStream(true);
        pb.environment().put("LOCK_HOLDER_PASSWORD", endpoint.password());
        Process holder = pb.start();
        BufferedReader out = new BufferedReader(new InputStreamReader(holder.getInputStream(),
                StandardCharsets.UTF_8));
        assertEquals("holding", out.readLine(), "the holder took the row");
        ProcessTools.signal(holder.pid(), "STOP");
        return holder;
    }

    /** Inserts row 1, waiting at most {@code lockWaitSeconds} for its lock. */
    private static void insertTheRow(DatabaseEndpoint endpoint, int lockWaitSeconds) throws SQLException {
        try (Connection c = endpoint.connect(); Statement s = c.createStatement()) {
            s.execute("SET SESSION innodb_lock_wait_timeout = " + lockWaitSeconds);
            s.executeUpdate("INSERT INTO fence_probe (k) VALUES (1)");
        }
    }

    @Test
    void endingAStoppedProcessesSessionsReleasesTheRowItHeld() throws Exception {
        Path dir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "session-fence-");
        try (EmbeddedDatabase db = EmbeddedDatabase.start(dir.resolve("db"))) {
            DatabaseEndpoint endpoint = db.endpoint();
            Process holder = stoppedHolderOfTheRow(endpoint);
            try (SessionFence fence = SessionFence.open(endpoint)) {
                fence.resetEpoch(FIRST_LEADER);
                assertEquals(1, fence.endSessionsOf(holder.pid(), FIRST_LEADER), "the holder's one session was ended");

                insertTheRow(endpoint, 30);
                try (Connection c = endpoint.connect(); Statement s = c.createStatement();
                        ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM fence_probe")) {
                    rs.next();
                    assertEquals(1, rs.getInt(1), "the row is the second session's alone");
                }
                assertTrue(holder.isAlive(), "the holder was never killed: only its session ended");
            } finally {
                holder.destroyForcibly(); // SIGKILL ends a stopped process too
                holder.waitFor();
            }
        }
    }

    @Test
    void anOrderOfAnEpochOlderThanANewerLeadersIsRefusedAndEndsNothing() throws Exception {
        Path dir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "session-fence-");
        try (EmbeddedDatabase db = EmbeddedDatabase.start(dir.resolve("db"))) {
            DatabaseEndpoint endpoint = db.endpoint();
            Process holder = stoppedHolderOfTheRow(endpoint);
            try (SessionFence fence = SessionFence.open(endpoint)) {
                fence.resetEpoch(FIRST_LEADER);
                fence.raiseEpoch(NEXT_LEADER); // the next leader acts: a new epoch

                // the first leader, deposed meanwhile, wakes and gives the order it decided before
                EpochFence.Refused refused = assertThrows(EpochFence.Refused.class,
                        () -> fence.endSessionsOf(holder.pid(), FIRST_LEADER));
                assertEquals(NEXT_LEADER.epoch(), refused.seenEpoch());
                assertEquals(new EpochFence.State(5, "m2", 2, 1, FIRST_LEADER.toString()), fence.epoch(),
                        "the fence stays at the newer epoch and counts the refusal");
                SQLException waited = assertThrows(SQLException.class, () -> insertTheRow(endpoint, 1),
                        "the holder's session was not ended: it still holds the row");
                assertTrue(waited.getMessage().contains("Lock wait timeout"), waited.getMessage());

                // the same order of the newer leader's epoch is carried out
                assertEquals(1, fence.endSessionsOf(holder.pid(), NEXT_LEADER));
                insertTheRow(endpoint, 30);
            } finally {
                holder.destroyForcibly();
                holder.waitFor();
            }
        }
    }

    @Test
    void aProcessWithoutDatabaseSessionsHasNoneEnded() throws Exception {
        Path dir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "session-fence-");
        try (EmbeddedDatabase db = EmbeddedDatabase.start(dir.resolve("db"));
                SessionFence fence = SessionFence.open(db.endpoint());
                Connection bystander = db.endpoint().connect()) {
            Process sleeper = new ProcessBuilder(List.of("sleep", "60")).start();
            try {
                assertEquals(0, fence.endSessionsOf(sleeper.pid(), FIRST_LEADER));
                assertTrue(bystander.isValid(2), "another process's session is left alone");
            } finally {
                sleeper.destroyForcibly();
            }
        }
    }
}
