package org.ftlab.harness.it;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.ftlab.harness.failover.Outcome;
import org.ftlab.harness.failover.Strategies;
import org.ftlab.harness.lab.ManagedLab;
import org.ftlab.rm.api.DatabaseFailover;
import org.ftlab.rm.api.DatabaseNode;
import org.ftlab.rm.api.DatabaseTier;
import org.ftlab.rm.api.DatabaseView;
import org.ftlab.rm.api.FaultKind;
import org.ftlab.rm.api.FaultSpec;
import org.ftlab.rm.api.FaultTarget;
import org.ftlab.rm.api.InjectedFault;
import org.ftlab.rm.api.Observe;
import org.ftlab.rm.api.Platform;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The database's writer killed (SIGKILL) while clients of every strategy over every platform post, on a lab whose
 * database is replicated with semi-sync (two MariaDB servers, AFTER_SYNC): the manager's database keeper promotes the
 * replica and sends the replicas' connections there; the requests in flight fail and the clients' retries, with the
 * same (client id, seq), find the request log on the new writer, so every post is stored exactly once; the killed
 * server rejoins as a replica. Stopping the lab leaves no database server and no data directory. (Galera's fail-over
 * and rejoin on the tier itself: {@link ReplicatedDatabaseIT}; a replicated lab's stop after a failed run and after
 * Ctrl-C: {@link PluginStrategyIT} and {@link FtlabCommandIT}.)
 */
class DatabaseFailoverIT {
    private static final FaultSpec CRASH_WRITER = new FaultSpec(FaultKind.parse("db-crash"),
            FaultTarget.of(FaultTarget.Node.DB), 0, 0);
    private static final int POSTS = 150;

    @Test
    void aKilledDatabaseWriterUnderClientsOfEveryStrategyLosesAndDuplicatesNothingAndTheKilledServerRejoins()
            throws Exception {
        Path runDir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "db-failover-");
        try (ManagedLab lab = ManagedLab.start(new ManagedLab.Options(runDir, SharedLab.serverHome(), 2, 0, null,
                ManagedLab.DEFAULT_HEARTBEAT_MILLIS, ManagedLab.DEFAULT_HEARTBEAT_TIMEOUT_MILLIS, true, null, null,
                true, Observe.OFF, false, DatabaseTier.parse("semisync")))) {
            DatabaseView before = lab.manager().status().databaseView();
            assertTrue(before.whole(), before.toString());
            String writer = before.writer();
            String primary = lab.manager().status().primary();

            Map<String, ClientLoop> clients = new LinkedHashMap<>();
            String run = Long.toString(System.nanoTime(), 36);
            for (String strategy : Strategies.ownNames()) {
                for (Platform platform : Platform.values()) {
                    clients.put(strategy + "/" + platform.wireName(), new ClientLoop(lab, strategy, "dbf-" + strategy
                            + "-" + platform.wireName() + "-" + run, POSTS, 0).over(platform).start());
                }
            }
            for (ClientLoop c : clients.values()) {
                while (c.done.get() < 30 && c.failure == null && c.thread.isAlive()) {
                    Thread.sleep(5);
                }
                assertNull(c.failure, () -> c.clientId + " failed before the fault: " + c.failure);
            }
            InjectedFault fault = lab.manager().inject(CRASH_WRITER);
            for (ClientLoop c : clients.values()) {
                c.thread.join(); // a client gives up on a request after its own bound
            }

            List<Executable> checks = new ArrayList<>();
            clients.forEach((name, c) -> checks.add(() -> {
                assertNull(c.failure, () -> name + " failed: " + c.failure);
                assertEquals(POSTS, c.outcomes().size(), name + " completed every request");
            }));
            assertAll(checks);
            long faulty = clients.values().stream().flatMap(c -> c.outcomes().stream()).filter(Outcome::faulty)
                    .count();
            assertTrue(faulty >= 1, "requests in flight met the writer's death and were tried again");
            FailoverIT.auditExactlyOnce(lab, List.copyOf(clients.values()));

            DatabaseView after = awaitWhole(lab, 120);
            assertEquals(1, after.failovers().size(), after.toString());
            DatabaseFailover f = after.failovers().get(0);
            assertEquals(writer, f.failed(), "the writer at injection was the one that failed");
            assertEquals("crash", f.verdict());
            assertNotEquals(writer, after.writer(), "a replica was promoted");
            assertTrue(f.detectedEpochUs() >= fault.injectedEpochUs() && f.promotedEpochUs() >= f.detectedEpochUs()
                    && f.firstCommitEpochUs() >= f.promotedEpochUs(), "its phases in order: " + f);
            assertTrue(f.rejoinedEpochUs() > f.promotedEpochUs(), "the killed server rejoined: " + f);
            assertEquals(DatabaseNode.Role.REPLICA, after.node(writer).orElseThrow().role(),
                    "the killed server is a replica of the new writer: " + after);
            assertEquals(primary, lab.manager().status().primary(), "the replicas' view never changed");
        }
        try (Stream<ProcessHandle> all = ProcessHandle.allProcesses()) {
            assertFalse(all.anyMatch(p -> p.info().commandLine().map(c -> c.contains(runDir.toString()))
                    .orElse(false)), "no process of the lab is left");
        }
        try (Stream<Path> left = Files.list(runDir.resolve("db"))) {
            assertEquals(List.of(), left.filter(Files::isDirectory).toList(), "no database server's data is left");
        }
    }

    /** The database view once every server is a writer or an up-to-date replica again. */
    private static DatabaseView awaitWhole(ManagedLab lab, int seconds) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (true) {
            DatabaseView view = lab.manager().status().databaseView();
            if (view.whole() && !view.failovers().isEmpty() && view.failovers().get(0).rejoinedEpochUs() > 0) {
                return view;
            }
            assertTrue(System.nanoTime() < deadline, "the tier whole again within " + seconds + " s: " + view);
            Thread.sleep(100);
        }
    }
}
