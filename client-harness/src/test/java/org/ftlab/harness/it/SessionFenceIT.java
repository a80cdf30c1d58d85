package org.ftlab.harness.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import org.ftlab.os.ProcessTools;
import org.ftlab.os.access.DatabaseEndpoint;
import org.ftlab.rm.db.EmbeddedDatabase;
import org.ftlab.rm.db.SessionFence;
import org.junit.jupiter.api.Test;

/**
 * Fencing at the database on a real MariaDB: a stopped process that holds a row lock in an open transaction (a replica
 * hung in the middle of a request) loses its session, its transaction rolls back, and another session takes the row
 * while the process is still stopped. Without the fence the second insert would wait out its lock timeout and fail.
 */
class SessionFenceIT {

    @Test
    void endingAStoppedProcessesSessionsReleasesTheRowItHeld() throws Exception {
        Path dir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "session-fence-");
        try (EmbeddedDatabase db = EmbeddedDatabase.start(dir.resolve("db"))) {
            DatabaseEndpoint endpoint = db.endpoint();
            try (Connection c = endpoint.connect(); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE fence_probe (k INT PRIMARY KEY)");
            }
            ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), LockHolder.class.getName(), endpoint.jdbcUrl(),
                    endpoint.user(), "1").redirectErrorStream(true);
            pb.environment().put("LOCK_HOLDER_PASSWORD", endpoint.password());
            Process holder = pb.start();
            try (SessionFence fence = SessionFence.open(endpoint)) {
                BufferedReader out = new BufferedReader(new InputStreamReader(holder.getInputStream(),
                        StandardCharsets.UTF_8));
                String line = out.readLine();
                assertEquals("holding", line, "the holder took the row");
                ProcessTools.signal(holder.pid(), "STOP");

                assertEquals(1, fence.endSessionsOf(holder.pid()), "the holder's one session was ended");

                try (Connection c = endpoint.connect(); Statement s = c.createStatement()) {
                    s.execute("SET SESSION innodb_lock_wait_timeout = 30");
                    s.executeUpdate("INSERT INTO fence_probe (k) VALUES (1)");
                    try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM fence_probe")) {
                        rs.next();
                        assertEquals(1, rs.getInt(1), "the row is the second session's alone");
                    }
                }
                assertTrue(holder.isAlive(), "the holder was never killed: only its session ended");
            } finally {
                holder.destroyForcibly(); // SIGKILL ends a stopped process too
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
                assertEquals(0, fence.endSessionsOf(sleeper.pid()));
                assertTrue(bystander.isValid(2), "another process's session is left alone");
            } finally {
                sleeper.destroyForcibly();
            }
        }
    }
}
