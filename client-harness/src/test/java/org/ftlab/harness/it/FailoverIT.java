package org.ftlab.harness.it;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.ftlab.auction.api.RequestHeader;
import org.ftlab.fd.FailureKind;
import org.ftlab.harness.failover.Outcome;
import org.ftlab.harness.failover.Shadow;
import org.ftlab.harness.failover.Strategies;
import org.ftlab.harness.lab.ManagedLab;
import org.ftlab.os.ProcessTools;
import org.ftlab.os.access.DatabaseEndpoint;
import org.ftlab.rm.api.FailureRecord;
import org.ftlab.rm.api.FaultKind;
import org.ftlab.rm.api.FaultSpec;
import org.ftlab.rm.api.FaultTarget;
import org.ftlab.rm.api.InjectedFault;
import org.ftlab.rm.api.ManagerStatus;
import org.ftlab.rm.api.Platform;
import org.ftlab.rm.api.ReplicaState;
import org.ftlab.rm.api.ReplicaStatus;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.function.Executable;

/**
 * Warm-passive fail-over on real processes with real signals: a Replication Manager process, the JGroups Fault
 * Detector, two WildFly replicas, a spare and MariaDB; faults are SIGKILL and SIGSTOP. Clients of every built-in
 * strategy loop at the same time, face the same faults and must pass the same checks. The lab is the test run's
 * {@link RunningLab} (two replicas and a spare), which every check here reads by its own fault's id.
 */
@ExtendWith(RunningLab.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FailoverIT {
    private static final FaultKind CRASH = FaultKind.parse("crash");
    private static final FaultKind HANG = FaultKind.parse("hang");
    static final FaultSpec CRASH_PRIMARY = new FaultSpec(CRASH, FaultTarget.of(FaultTarget.Node.PRIMARY), 0, 0);
    static final FaultSpec CRASH_BACKUP = new FaultSpec(CRASH, FaultTarget.of(FaultTarget.Node.BACKUP), 0, 0);
    /** A hang far longer than detection: the manager fences it long before the lab would resume it. */
    static final FaultSpec HANG_PRIMARY = new FaultSpec(HANG, FaultTarget.of(FaultTarget.Node.PRIMARY), 30_000, 0);
    private static ManagedLab lab;

    @BeforeAll
    static void attachToTheRunningLab() throws Exception {
        lab = ManagedLab.attach(RunningLab.dir());
    }

    @BeforeEach
    void replicationDegreeIsTwo() throws Exception {
        awaitDegree(2);
    }

    @Test
    @Order(0)
    void everyReplicaRunsTheLabsWarmRoundsInItselfBeforeItReportsReady() throws Exception {
        String rounds = System.getenv().getOrDefault("FTLAB_WARM_ROUNDS", "300");
        List<Path> logs;
        try (var dirs = Files.list(RunningLab.dir().resolve("replicas"))) {
            logs = dirs.map(d -> d.resolve("log/server.log")).filter(Files::exists).toList();
        }
        int booted = 0;
        for (Path log : logs) {
            String text = Files.readString(log);
            if (!text.contains("WFLYSRV0025")) {
                continue; // a replacement still booting
            }
            booted++;
            assertTrue(text.contains("warmed up the database paths in " + rounds + " rounds"), log + " warmed up "
                    + rounds + " rounds at deployment");
            assertTrue(text.indexOf("warmed up the database paths") < text.indexOf("WFLYSRV0025"),
                    log + ": the warm-up came before the server reported it had started");
        }
        assertTrue(booted >= 3, "two replicas and a spare booted: " + logs);
    }

    @Test
    @Order(0)
    void onceThePrimaryHasServedEveryLiveReplicaReportsHowMuchOfTheRequestPathItHasCompiledAtTheTopTier()
            throws Exception {
        // the reference is what a primary compiled at the top tier: serve posts until there is one (the test lab's
        // warm-up is short), then every live replica's code cache is read within a period
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        int batch = 0;
        while (true) {
            List<ReplicaStatus> live = lab.manager().status().replicas().stream()
                    .filter(r -> r.state() != ReplicaState.DEAD && r.state() != ReplicaState.STARTING).toList();
            if (!live.isEmpty() && live.stream().allMatch(r -> r.topTierShare() != null)) {
                for (ReplicaStatus r : live) {
                    assertTrue(r.topTierShare() >= 0 && r.topTierShare() <= 1, r.toString());
                    assertEquals(r.topTierShare() >= ReplicaStatus.HOT_SHARE, r.hotSinceEpochMillis() != null,
                            "hot exactly when the share is at least " + ReplicaStatus.HOT_SHARE + ": " + r);
                }
                return;
            }
            assertTrue(System.nanoTime() < deadline, "every live replica's code cache read within 180 s of "
                    + "posting: " + live);
            ClientLoop posts = new ClientLoop(lab, "reactive", "hot-" + batch++, 200, 0).start();
            posts.thread.join();
            assertNull(posts.failure, "the posts were served");
        }
    }

    @Test
    @Order(0)
    void aShadowRunsOnTheBackupInFullAndNeverChangesTheDatabase() throws Exception {
        ClientLoop c = new ClientLoop(lab, "preconnected", "shadowed", 60, 0).withShadows(1.0).start();
        c.thread.join();
        assertNull(c.failure, () -> "the client failed: " + c.failure);
        Shadow.Counts n = c.shadows;
        assertEquals(60, n.offered() + n.dropped(), "every answered post was shadowed or dropped: " + n);
        assertTrue(n.answered() > 0, "the backup answered shadows (each ran the post and rolled it back): " + n);
        // the shadows posted the same drafts: had one been stored, its title would be there twice
        auditExactlyOnce(List.of(c));
        DatabaseEndpoint db = DatabaseEndpoint.loadForAudits(lab.runDir());
        try (Connection conn = db.connect()) {
            assertEquals(0, count(conn, "SELECT COUNT(*) FROM request_log WHERE client_id = ?",
                    "shadowed" + RequestHeader.SHADOW_SUFFIX), "no shadow is in the request log");
        }
    }

    @Test
    @Order(0)
    void theWarmersRoundsSendItsFixturePostAgainAndTheReplicasStoreItOnce() throws Exception {
        // every round ends with the fixture's post under its original (client id, seq): a replay, answered from the
        // request log; a round counts only once all its requests were answered
        long rounds = lab.manager().status().warmRoundsRun();
        assertTrue(rounds >= 5, "the warmer's rounds ran: " + rounds);
        DatabaseEndpoint db = DatabaseEndpoint.loadForAudits(lab.runDir());
        try (Connection conn = db.connect()) {
            assertEquals(1, count(conn, "SELECT COUNT(*) FROM auction a JOIN account u ON a.seller_id = u.id"
                    + " WHERE u.username LIKE ?", "ftlab\\_warmer\\_%"), "the fixture auction, stored once");
        }
    }

    @Test
    @Order(1)
    void aSpareJoinsTheViewAsABackupTheMomentABackupFails() throws Exception {
        String spare = awaitSpare();
        InjectedFault fault = lab.manager().inject(CRASH_BACKUP);
        FailureRecord failure = awaitFailure(fault.faultId());
        assertEquals(spare, failure.replacement(), "the spare replaced the failed backup");
        assertTrue(failure.restoredEpochUs() > 0, "the degree was restored when the failure was "
                + "handled, not after a boot");
        List<String> view = new ArrayList<>();
        lab.manager().view().members().forEach(m -> view.add(m.name()));
        assertTrue(view.contains(spare), "the spare serves as a backup: " + view);
        assertFalse(view.contains(fault.replica()));
        assertTrue(lab.manager().status().replicas().stream().anyMatch(r -> r.state() == ReplicaState.STARTING
                || r.state() == ReplicaState.SPARE && !r.name().equals(spare)),
                "a new spare boots in the background to refill the pool");
    }

    @Test
    @Order(2)
    void crashOfThePrimaryWhileClientsOfEveryStrategyOverEveryPlatformLoopLosesAndDuplicatesNothing() throws Exception {
        String crashed = primary();
        Map<String, List<ClientLoop>> clients = startClientsOfEveryStrategy(2, 120, 0);
        awaitProgress(all(clients), 30);
        InjectedFault fault = lab.manager().inject(CRASH_PRIMARY);
        assertEquals(crashed, fault.replica());
        joinAll(all(clients));

        List<Executable> checks = new ArrayList<>();
        clients.forEach((strategy, loops) -> checks.add(() -> {
            int faulty = 0;
            for (ClientLoop c : loops) {
                List<Outcome<?>> outcomes = c.outcomes();
                assertEquals(c.posts, outcomes.size(), c.clientId + " completed every request");
                for (Outcome<?> o : outcomes.subList(outcomes.size() - 10, outcomes.size())) {
                    assertNotEquals(crashed, o.servedBy(), c.clientId + ": after the fail-over a new primary serves");
                }
                faulty += (int) outcomes.stream().filter(FailoverIT::servedElsewhere).count();
            }
            assertTrue(faulty >= 1, strategy + ": at least one invocation met the crash and was served by another "
                    + "replica");
        }));
        assertAll(checks);
        auditExactlyOnce(all(clients));

        FailureRecord failure = awaitRestored(fault.faultId());
        assertEquals(FailureKind.CRASH, failure.verdict());
        assertTrue(failure.wasPrimary());
        assertNotEquals(crashed, lab.manager().status().primary());
        assertEquals(InjectedFault.Repair.REPLACED, faultRecord(fault.faultId()).repair(),
                "a crash is repaired by the manager");
    }

    @Test
    @Order(3)
    void hangOfThePrimaryIsDetectedAndFencedBeforeItCanResumeAndClientsOfEveryStrategyOverEveryPlatformMoveOn() throws Exception {
        Map<String, List<ClientLoop>> clients = startClientsOfEveryStrategy(1, 150, 10);
        awaitProgress(all(clients), 20);
        InjectedFault fault = lab.manager().inject(HANG_PRIMARY);
        FailureRecord failure = awaitFailure(fault.faultId());
        assertEquals(FailureKind.HANG, failure.verdict());
        assertTrue(failure.detectedEpochUs() >= fault.injectedEpochUs(), "detected after injection");
        assertEquals(InjectedFault.Repair.FENCED, faultRecord(fault.faultId()).repair(),
                "the fence ended the hang, not the lab's SIGCONT");
        try {
            ProcessTools.signal(fault.pid(), "CONT"); // the hung replica must not come back
        } catch (IOException gone) {
            // fenced and reaped already
        }
        joinAll(all(clients));
        List<Executable> checks = new ArrayList<>();
        clients.forEach((strategy, loops) -> checks.add(() -> {
            ClientLoop c = loops.get(0);
            assertEquals(150, c.outcomes().size(), c.clientId + " completed every request");
            assertTrue(c.outcomes().stream().anyMatch(FailoverIT::servedElsewhere),
                    strategy + ": the request that met the hang was served by another replica");
        }));
        assertAll(checks);
        auditExactlyOnce(all(clients));

        ManagerStatus status = lab.manager().status();
        int primaries = 0;
        for (ReplicaStatus r : status.replicas()) {
            primaries += r.state() == ReplicaState.PRIMARY ? 1 : 0;
            if (r.name().equals(fault.replica())) {
                assertEquals(ReplicaState.DEAD, r.state());
            }
        }
        assertEquals(1, primaries, "exactly one primary after the hung replica was resumed");
        assertFalse(ProcessHandle.of(fault.pid()).map(ProcessHandle::isAlive).orElse(false),
                "the hung replica was fenced (killed)");
        awaitRestored(fault.faultId());
    }

    @Test
    @Order(4)
    void crashOfABackupIsInvisibleToClientsAndTheBackupIsRelaunched() throws Exception {
        String primary = primary();
        Map<String, List<ClientLoop>> clients = startClientsOfEveryStrategy(2, 100, 5);
        awaitProgress(all(clients), 20);
        InjectedFault fault = lab.manager().inject(CRASH_BACKUP);
        joinAll(all(clients));
        List<Executable> checks = new ArrayList<>();
        for (ClientLoop c : all(clients)) {
            checks.add(() -> {
                assertEquals(100, c.outcomes().size(), c.clientId + " completed every request");
                assertTrue(c.outcomes().stream().noneMatch(Outcome::faulty),
                        c.clientId + ": a backup crash is invisible to clients");
            });
        }
        assertAll(checks);
        FailureRecord failure = awaitRestored(fault.faultId());
        assertFalse(failure.wasPrimary());
        assertEquals(primary, primary(), "the primary stays");
    }

    @Test
    @Order(5)
    void aBackupKeptHotByShadowsWasHotWhenItWasPromoted() throws Exception {
        String backup = lab.manager().view().backups().get(0).name();
        // shadowed posts until the manager has read the backup hot twice in a row (its reading is every 10 s); over
        // both doors, as the earlier tests' clients reached the primary: "hot" is measured on the path the primary
        // has served, and a shadow takes its client's door
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(240);
        int hotReadings = 0;
        int batch = 0;
        while (hotReadings < 2) {
            assertTrue(System.nanoTime() < deadline, "the backup was read hot within 240 s of shadowed posts: "
                    + lab.manager().status().replicas());
            List<ClientLoop> loops = new ArrayList<>();
            for (Platform p : Platform.values()) {
                loops.add(new ClientLoop(lab, "preconnected", "kept-hot-" + p.wireName() + "-" + batch, 200, 0)
                        .over(p).withShadows(1.0).start());
            }
            batch++;
            for (ClientLoop c : loops) {
                c.thread.join();
                assertNull(c.failure, () -> "the client failed: " + c.failure);
            }
            ReplicaStatus b = lab.manager().status().replicas().stream().filter(r -> r.name().equals(backup))
                    .findFirst().orElseThrow();
            hotReadings = b.topTierShare() != null && b.topTierShare() >= ReplicaStatus.HOT_SHARE ? hotReadings + 1 : 0;
        }
        ClientLoop during = new ClientLoop(lab, "preconnected", "kept-hot-crash", 200, 0).withShadows(1.0).start();
        awaitProgress(List.of(during), 20);
        InjectedFault fault = lab.manager().inject(CRASH_PRIMARY);
        joinAll(List.of(during));
        FailureRecord failure = awaitRestored(fault.faultId());
        assertEquals(backup, failure.promoted(), "the backup was promoted");
        assertTrue(failure.promotedTopTierShare() != null
                && failure.promotedTopTierShare() >= ReplicaStatus.HOT_SHARE,
                "the manager's last reading before the promotion found it hot: " + failure);
        auditExactlyOnce(List.of(during));
    }

    // ---- helpers ----------------------------------------------------------------------------------------------

    /** Waits until the manager has a ready spare; returns its name. */
    private static String awaitSpare() throws Exception {
        long deadline = System.nanoTime() + 180_000_000_000L;
        while (System.nanoTime() < deadline) {
            List<String> spares = lab.manager().status().spares();
            if (!spares.isEmpty()) {
                return spares.get(0);
            }
            Thread.sleep(200);
        }
        throw new AssertionError("no spare became ready");
    }

    /** Served by another replica than the one the client chose first: a fail-over, a hedge or an active race. */
    private static boolean servedElsewhere(Outcome<?> o) {
        return o.served() != Outcome.Served.FIRST_CHOICE;
    }

    /**
     * {@code count} clients of every strategy over every middleware platform (remote EJB and the HTTP door), keyed
     * {@code strategy/platform}, each looping {@code posts} posts.
     */
    private static Map<String, List<ClientLoop>> startClientsOfEveryStrategy(int count, int posts, long thinkMillis) {
        Map<String, List<ClientLoop>> clients = new LinkedHashMap<>();
        String run = Long.toString(System.nanoTime(), 36);
        for (String strategy : Strategies.ownNames()) {
            for (Platform platform : Platform.values()) {
                List<ClientLoop> loops = new ArrayList<>();
                for (int i = 0; i < count; i++) {
                    ClientLoop c = new ClientLoop(lab, strategy, "fo-" + strategy + "-" + platform.wireName() + "-"
                            + run + "-" + i, posts, thinkMillis).over(platform);
                    loops.add(c);
                    c.start();
                }
                clients.put(strategy + "/" + platform.wireName(), loops);
            }
        }
        return clients;
    }

    private static List<ClientLoop> all(Map<String, List<ClientLoop>> clients) {
        return clients.values().stream().flatMap(List::stream).toList();
    }

    /** Waits until every client has posted {@code posts} (or failed): the fault then meets running clients. */
    private static void awaitProgress(List<ClientLoop> clients, int posts) throws InterruptedException {
        for (ClientLoop c : clients) {
            while (c.done.get() < posts && c.failure == null && c.thread.isAlive()) {
                Thread.sleep(5);
            }
            assertNull(c.failure, () -> c.clientId + " failed before the fault: " + c.failure);
        }
    }

    /**
     * Waits for every client to end: each either finishes or fails, since a client gives up on a request after its
     * own bound (60 s), so no deadline is needed here.
     */
    private static void joinAll(List<ClientLoop> clients) throws InterruptedException {
        for (ClientLoop c : clients) {
            c.thread.join();
            assertNull(c.failure, () -> c.clientId + " failed: " + c.failure);
            assertEquals(c.posts, c.done.get(), c.clientId + " sent every request");
        }
    }

    private static void auditExactlyOnce(List<ClientLoop> clients) throws Exception {
        auditExactlyOnce(lab, clients);
    }

    /** The database holds every client's posts exactly once: no loss, no duplicates. */
    static void auditExactlyOnce(ManagedLab lab, List<ClientLoop> clients) throws Exception {
        DatabaseEndpoint db = DatabaseEndpoint.loadForAudits(lab.runDir());
        try (Connection c = db.connect()) {
            for (ClientLoop client : clients) {
                for (long seq : client.postSeqs) {
                    String title = client.clientId + "#" + seq;
                    assertEquals(1, count(c, "SELECT COUNT(*) FROM auction WHERE title = ?", title),
                            "auction " + title + " stored exactly once");
                }
                assertEquals(client.posts, count(c, "SELECT COUNT(*) FROM auction WHERE title LIKE ?",
                        client.clientId + "#%"), client.clientId + ": no auction beyond the requests sent");
                assertEquals(client.posts + 2, count(c, "SELECT COUNT(*) FROM request_log WHERE client_id = ?",
                        client.clientId), client.clientId + ": one request-log row per state-changing request");
            }
        }
    }

    private static long count(Connection c, String sql, String param) throws Exception {
        try (PreparedStatement st = c.prepareStatement(sql)) {
            st.setString(1, param);
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static String primary() throws Exception {
        return lab.manager().status().primary();
    }

    private static InjectedFault faultRecord(String faultId) throws Exception {
        return lab.manager().status().faults().stream().filter(f -> f.faultId().equals(faultId)).findFirst()
                .orElseThrow(() -> new AssertionError("no fault " + faultId));
    }

    private static FailureRecord awaitFailure(String faultId) throws Exception {
        for (int i = 0; i < 200; i++) {
            for (FailureRecord f : lab.manager().status().failures()) {
                if (f.faultId().equals(faultId)) {
                    return f;
                }
            }
            Thread.sleep(50);
        }
        throw new AssertionError("fault " + faultId + " was never detected");
    }

    /** Waits until the failure's replacement serves (replication degree restored). */
    private static FailureRecord awaitRestored(String faultId) throws Exception {
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (System.nanoTime() < deadline) {
            FailureRecord f = awaitFailure(faultId);
            if (f.restoredEpochUs() > 0) {
                assertTrue(f.detectedEpochUs() <= f.restoredEpochUs());
                return f;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("replication degree not restored after fault " + faultId);
    }

    private static void awaitDegree(int degree) throws Exception {
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (lab.manager().status().degree() < degree) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("replication degree " + degree + " not reached: " + lab.manager().status());
            }
            Thread.sleep(200);
        }
    }
}
