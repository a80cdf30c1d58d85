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
import org.ftlab.faults.ProcessFaults;
import org.ftlab.harness.failover.InvocationTimeout;
import org.ftlab.harness.failover.Outcome;
import org.ftlab.harness.failover.Strategies;
import org.ftlab.harness.lab.ManagedLab;
import org.ftlab.os.Undo;
import org.ftlab.rm.api.DatabaseFailover;
import org.ftlab.rm.api.DatabaseNode;
import org.ftlab.rm.api.DatabaseTier;
import org.ftlab.rm.api.DatabaseView;
import org.ftlab.rm.api.FaultKind;
import org.ftlab.rm.api.FaultSpec;
import org.ftlab.rm.api.FaultTarget;
import org.ftlab.rm.api.InjectedFault;
import org.ftlab.rm.api.ManagerStatus;
import org.ftlab.rm.api.Observe;
import org.ftlab.rm.api.Platform;
import org.ftlab.rm.api.ReplicaStatus;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Two specifications on one lab, which neither disturbs for the other (the lab's boot is the suite's time): two
 * replicas, a Fault Detector that waits 5 s for a heartbeat, and a database replicated with semi-sync (two MariaDB
 * servers, AFTER_SYNC). Stopping the lab leaves no process, no database server and no data directory.
 */
class SlowDetectorAndReplicatedDatabaseIT {
    private static final long DETECTOR_TIMEOUT_MS = 5_000;
    private static Path runDir;
    private static ManagedLab lab;

    @BeforeAll
    static void startTheLab() throws Exception {
        runDir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "slow-detector-replicated-db-");
        lab = ManagedLab.start(new ManagedLab.Options(runDir, SharedLab.serverHome(), 2, 0, null,
                ManagedLab.DEFAULT_HEARTBEAT_MILLIS, DETECTOR_TIMEOUT_MS, true, null, null, true, Observe.OFF, false,
                DatabaseTier.parse("semisync:2")));
    }

    @AfterAll
    static void stopTheLabAndNothingIsLeft() throws Exception {
        if (lab == null) {
            return;
        }
        lab.close();
        try (Stream<ProcessHandle> all = ProcessHandle.allProcesses()) {
            assertFalse(all.anyMatch(p -> p.info().commandLine().map(c -> c.contains(runDir.toString()))
                    .orElse(false)), "no process of the lab is left");
        }
        try (Stream<Path> left = Files.list(runDir.resolve("db"))) {
            assertEquals(List.of(), left.filter(Files::isDirectory).toList(), "no database server's data is left");
        }
    }

    /**
     * A client's suspicion of a replica that is only slow: a gray failure (the primary throttled to 0.1% of a CPU by
     * a cgroup-v1 quota, running all the while) that lasts longer than any invocation timeout the client can have, in
     * a lab whose Fault Detector waits 5 s for a heartbeat, so that only the client suspects it.
     */
    @Nested
    class FalseSuspicion {
        @Test
        void aFalseSuspicionCostsAFailOverAndNothingElse() throws Exception {
            ManagerStatus before = lab.manager().status();
            String primary = before.primary();
            long epoch = before.epoch();
            long pid = -1;
            for (ReplicaStatus r : before.replicas()) {
                if (r.name().equals(primary)) {
                    pid = r.pid();
                }
            }
            ClientLoop c = new ClientLoop(lab, "preconnected", "fs-" + Long.toString(System.nanoTime(), 36), 1000,
                    2).start();
            while (c.done.get() < 200 && c.failure == null && c.thread.isAlive()) {
                Thread.sleep(10);
            }
            assertNull(c.failure, () -> "failed before the throttle: " + c.failure);
            // 1 ms of CPU per second, for longer than the timeout's ceiling: the request in flight on the primary
            // cannot answer in time.
            Undo throttle = ProcessFaults.cpuQuota("ftlab-it-" + pid,
                    List.of(pid), 0.1);
            try {
                Thread.sleep(InvocationTimeout.CEILING_MILLIS + 1_500);
            } finally {
                throttle.run();
            }
            c.thread.join(); // the client gives up on a request after its own bound
            assertNull(c.failure, () -> "the client failed: " + c.failure);
            assertEquals(c.posts, c.outcomes().size(), "every request completed");

            assertTrue(c.outcomes().stream().anyMatch(Outcome::faulty), "the client failed over");
            assertTrue(c.falseSuspicions.get() >= 1, "the manager declined the client's suspicion");
            ManagerStatus after = lab.manager().status();
            assertEquals(primary, after.primary(), "the primary stays");
            assertEquals(epoch, after.epoch(), "the view never changed");
            assertEquals(0, after.failures().size(), "no failure was recorded");
            long throttled = pid;
            assertTrue(ProcessHandle.of(throttled).map(ProcessHandle::isAlive).orElse(false),
                    "the suspected replica was not fenced");
            List<Outcome<?>> outcomes = c.outcomes();
            assertEquals(primary, outcomes.get(outcomes.size() - 1).servedBy(),
                    "the client went back to the primary");
            FailoverIT.auditExactlyOnce(lab, List.of(c));
        }
    }

    /**
     * The database's writer killed (SIGKILL) while clients of every strategy over every platform post: the manager's
     * database keeper promotes the replica and sends the replicas' connections there; the requests in flight fail and
     * the clients' retries, with the same (client id, seq), find the request log on the new writer, so every post is
     * stored exactly once; the killed server rejoins as a replica. (Galera's fail-over and rejoin on the tier itself:
     * {@link ReplicatedDatabaseIT}; a replicated lab's stop after a failed run and after Ctrl-C:
     * {@link PluginStrategyIT} and {@link FtlabCommandIT}.)
     */
    @Nested
    class DatabaseWriterCrash {
        private static final FaultSpec CRASH_WRITER = new FaultSpec(FaultKind.parse("db-crash"),
                FaultTarget.of(FaultTarget.Node.DB), 0, 0);
        private static final int POSTS = 150;

        @Test
        void aKilledDatabaseWriterUnderClientsOfEveryStrategyLosesAndDuplicatesNothingAndTheKilledServerRejoins()
                throws Exception {
            DatabaseView before = lab.manager().status().databaseView();
            assertTrue(before.whole(), before.toString());
            String writer = before.writer();
            String primary = lab.manager().status().primary();

            Map<String, ClientLoop> clients = new LinkedHashMap<>();
            String run = Long.toString(System.nanoTime(), 36);
            for (String strategy : Strategies.ownNames()) {
                for (Platform platform : Platform.values()) {
                    clients.put(strategy + "/" + platform.wireName(), new ClientLoop(lab, strategy, "dbf-"
                            + strategy + "-" + platform.wireName() + "-" + run, POSTS, 0).over(platform).start());
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
            assertTrue(f.detectedEpochUs() >= fault.injectedEpochUs()
                    && f.promotedEpochUs() >= f.detectedEpochUs() && f.firstCommitEpochUs() >= f.promotedEpochUs(),
                    "its phases in order: " + f);
            assertTrue(f.rejoinedEpochUs() > f.promotedEpochUs(), "the killed server rejoined: " + f);
            assertEquals(DatabaseNode.Role.REPLICA, after.node(writer).orElseThrow().role(),
                    "the killed server is a replica of the new writer: " + after);
            assertEquals(primary, lab.manager().status().primary(), "the replicas' view never changed");
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
}
