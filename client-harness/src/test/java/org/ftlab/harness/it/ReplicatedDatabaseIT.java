package org.ftlab.harness.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.ftlab.os.Placement;
import org.ftlab.rm.api.DatabaseFailover;
import org.ftlab.rm.api.DatabaseNode;
import org.ftlab.rm.api.DatabaseTier;
import org.ftlab.rm.api.DatabaseView;
import org.ftlab.rm.db.DatabaseKeeper;
import org.ftlab.rm.db.ReplicatedDatabase;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A replicated database's writer killed under load, on real MariaDB servers: four writers insert rows keyed by (writer,
 * seq) through the lab's forwarder and retry a failed insert with the same key until it is answered (a duplicate key
 * then means an earlier try committed), as the service's clients retry with the same request identity. The keeper
 * promotes a replica, the writers go on, the killed server comes back as a replica; every key answered is stored once.
 * Galera (the keeper evicts the killed writer from the group; the new one applies what the cluster ordered before it
 * takes writes) loses no answered insert. Stopping the tier leaves no server and no file. (Semi-sync's fail-over under
 * the service's clients: {@link SlowDetectorAndReplicatedDatabaseIT}. Async, the negative control, differs from
 * semi-sync only in not waiting; what it loses is shown by the grid's audit and checker, docs/running.md.)
 */
class ReplicatedDatabaseIT {
    private static final int WRITERS = 4;

    @ParameterizedTest
    @ValueSource(strings = {"galera"})
    void aKilledWriterIsFailedOverAndRebuiltAndEveryAnsweredInsertIsStoredOnce(String mode) throws Exception {
        Path dir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "replicated-db-");
        Set<String> answered = ConcurrentHashMap.newKeySet();
        DatabaseView view;
        long stored;
        Set<String> keys = new HashSet<>();
        try (ReplicatedDatabase db = ReplicatedDatabase.start(DatabaseTier.parse(mode), dir, Placement.LOCAL);
                DatabaseKeeper keeper = DatabaseKeeper.start(db, 500)) {
            try (Connection c = db.endpoint().connect(); Statement st = c.createStatement()) {
                st.execute("CREATE TABLE it_writes (writer INT, seq INT, PRIMARY KEY (writer, seq))");
            }
            AtomicBoolean stop = new AtomicBoolean();
            CountDownLatch going = new CountDownLatch(WRITERS * 200);
            List<Thread> writers = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                int writer = w;
                Thread t = new Thread(() -> write(db, writer, stop, going, answered));
                t.start();
                writers.add(t);
            }
            assertTrue(going.await(60, TimeUnit.SECONDS), "the writers got going");
            long writerPid = db.pid().orElseThrow();
            new ProcessBuilder("kill", "-KILL", Long.toString(writerPid)).start().waitFor();
            int before = answered.size();
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (answered.size() < before + WRITERS * 200 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            stop.set(true);
            for (Thread t : writers) {
                t.join();
            }
            assertTrue(answered.size() >= before + WRITERS * 200, "the writers went on after the fail-over");
            assertTrue(keeper.awaitWhole(Duration.ofSeconds(120)), "the killed server is back: " + keeper.view());
            view = keeper.view();
            try (Connection c = db.endpoint().connect(); Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery("SELECT writer, seq FROM it_writes")) {
                while (rs.next()) {
                    keys.add(rs.getInt(1) + "-" + rs.getInt(2));
                }
            }
            try (Connection c = db.endpoint().connect(); Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM it_writes")) {
                rs.next();
                stored = rs.getLong(1);
            }
        }
        assertEquals(1, view.failovers().size(), view.toString());
        DatabaseFailover f = view.failovers().get(0);
        assertEquals("db1", f.failed());
        assertEquals("crash", f.verdict());
        assertTrue(f.promotedEpochUs() > f.fencedEpochUs() && f.fencedEpochUs() >= f.detectedEpochUs(), f.toString());
        assertTrue(f.firstCommitEpochUs() > f.promotedEpochUs() && f.rejoinedEpochUs() > 0, f.toString());
        assertTrue(view.nodes().stream().allMatch(n -> n.role() == DatabaseNode.Role.WRITER
                || n.role() == DatabaseNode.Role.REPLICA));
        assertEquals(keys.size(), stored, "no key stored twice");
        Set<String> lost = new HashSet<>(answered);
        lost.removeAll(keys);
        assertEquals(Set.of(), lost, mode + " loses no answered insert");
        try (Stream<ProcessHandle> all = ProcessHandle.allProcesses()) {
            assertFalse(all.anyMatch(p -> p.info().commandLine().map(c -> c.contains(dir.toString())).orElse(false)),
                    "no server left");
        }
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(), left.filter(p -> p.getFileName().toString().startsWith("db")
                    || p.getFileName().toString().startsWith("galera")).toList(),
                    "no data left");
        }
    }

    /** Inserts (writer, 1), (writer, 2), … until told to stop, each retried with its key until answered. */
    private static void write(ReplicatedDatabase db, int writer, AtomicBoolean stop, CountDownLatch going,
            Set<String> answered) {
        Connection c = null;
        int seq = 1;
        while (!stop.get()) {
            try {
                if (c == null) {
                    c = db.endpoint().connect();
                }
                try (Statement st = c.createStatement()) {
                    st.execute("INSERT INTO it_writes VALUES (" + writer + ", " + seq + ")");
                } catch (SQLIntegrityConstraintViolationException duplicate) {
                    // an earlier try of this key committed but its answer was lost: it is stored, once
                }
                answered.add(writer + "-" + seq);
                going.countDown();
                seq++;
            } catch (SQLException e) {
                try {
                    if (c != null) {
                        c.close();
                    }
                } catch (SQLException ignored) {
                    // a cut connection
                }
                c = null;
            }
        }
        try {
            if (c != null) {
                c.close();
            }
        } catch (SQLException ignored) {
            // closing is best effort
        }
    }
}
