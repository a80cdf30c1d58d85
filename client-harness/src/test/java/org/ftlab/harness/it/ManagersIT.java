package org.ftlab.harness.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.ftlab.harness.lab.ManagerClient;
import org.ftlab.os.access.DatabaseEndpoint;
import org.ftlab.rm.db.EpochFence;
import org.ftlab.rm.db.SessionFence;
import org.ftlab.rm.api.FailureRecord;
import org.ftlab.rm.api.FaultKind;
import org.ftlab.rm.api.FaultSpec;
import org.ftlab.rm.api.FaultTarget;
import org.ftlab.rm.api.InjectedFault;
import org.ftlab.rm.api.ManagerEndpoint;
import org.ftlab.rm.api.ManagerGroup;
import org.ftlab.rm.api.ManagerStatus;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

/**
 * A lab kept by three managers ({@code ftlab lab --managers 3}, as a user starts one): the leader killed while a
 * promotion is due, a deposed leader's orders refused (at its door, and at their target by epoch), and Ctrl-C leaving
 * nothing behind.
 * Not in the default run yet: the suite has no time left for its lab (docs/testing.md); run it with
 * {@code FTLAB_IT_MANAGERS=1 mvn verify -pl client-harness -Dit.test=ManagersIT}. The default run covers a grid on
 * three managers with the leader cut off (NetnsGridIT) and an order of an older epoch refused by the database
 * (SessionFenceIT).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@EnabledIfEnvironmentVariable(named = "FTLAB_IT_MANAGERS", matches = "1",
        disabledReason = "not in the default run yet (CI time): set FTLAB_IT_MANAGERS=1")
class ManagersIT {
    private static final Path HOME = Path.of(System.getProperty("ftlab.home", "..")).toAbsolutePath().normalize();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static Process lab;
    private static Path dir;
    private static ManagerClient managers;

    @BeforeAll
    static void startALabOfThreeManagers() throws Exception {
        dir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "managers-lab-");
        Path console = dir.resolveSibling(dir.getFileName() + ".log");
        lab = new ProcessBuilder(HOME.resolve("scripts/ftlab").toString(), "lab", "--managers", "3", "--replicas", "2",
                "--spares", "1", "--out", dir.toString()).redirectErrorStream(true).redirectOutput(console.toFile())
                .start();
        while (!Files.readString(console).contains("lab ready in")) {
            assertTrue(lab.isAlive(), "ftlab lab --managers 3 exited: " + Files.readString(console));
            Thread.sleep(100);
        }
        managers = ManagerClient.forRun(dir);
    }

    @AfterAll
    static void stopTheLab() {
        if (lab != null && lab.isAlive()) {
            lab.destroyForcibly();
        }
    }

    /** Waits until {@code condition} holds; fails after {@link #WAIT}. */
    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "not within " + WAIT.toSeconds() + " s: " + what);
            Thread.sleep(50);
        }
    }

    private static ManagerStatus status() {
        try {
            return managers.status();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static long leaderPid() throws IOException {
        return JSON.readValue(dir.resolve(ManagerEndpoint.FILE).toFile(), ManagerEndpoint.class).pid();
    }

    @Test
    @Order(1)
    void theLeaderKilledWhileAPromotionIsDueIsSucceededByOneThatPromotes() throws Exception {
        await("the view at its degree", () -> status().fullDegree());
        ManagerStatus before = status();
        ManagerGroup group = before.managers();
        assertEquals(List.of("m1", "m2", "m3"), group.members());
        String primary = before.primary();
        long primaryPid = before.replicas().stream().filter(r -> r.name().equals(primary)).findFirst().orElseThrow()
                .pid();
        // the primary first, then at once the manager that would promote its backup
        ProcessHandle.of(primaryPid).orElseThrow().destroyForcibly();
        ProcessHandle.of(leaderPid()).orElseThrow().destroyForcibly();

        await("a new leader that acts", () -> {
            ManagerGroup g = status().managers();
            List<ManagerGroup.Leadership> all = g.leaderships();
            return g.term() > group.term() && !g.leader().equals(group.leader())
                    && all.get(all.size() - 1).actingEpochUs() > 0;
        });
        await(primary + "'s crash handled", () -> status().failures().stream()
                .anyMatch(f -> f.replica().equals(primary) && f.promotedEpochUs() > 0));
        ManagerStatus after = status();
        FailureRecord failure = after.failures().stream().filter(f -> f.replica().equals(primary)).findFirst()
                .orElseThrow();
        assertNotEquals(primary, after.primary(), "a backup was promoted");
        assertEquals(failure.promoted(), after.primary());
        assertTrue(after.epoch() > before.epoch());
        await("the killed manager back in the group", () -> {
            try {
                return Files.readString(dir.resolve("rm/" + group.leader() + "/console.log"))
                        .lines().filter(l -> l.startsWith("replication-manager member")).count() == 2;
            } catch (IOException e) {
                return false;
            }
        });
    }

    @Test
    @Order(2)
    void aDeposedLeaderThatWakesCanChangeNothingAndItsAnswersAreIgnored() throws Exception {
        await("the view at its degree", () -> status().fullDegree()); // the spare pool may still be refilling
        ManagerStatus before = status();
        String oldLeaderUrl = JSON.readValue(dir.resolve(ManagerEndpoint.FILE).toFile(), ManagerEndpoint.class).url();
        String token = JSON.readValue(dir.resolve(ManagerEndpoint.FILE).toFile(), ManagerEndpoint.class).token();
        InjectedFault hang = managers.inject(new FaultSpec(FaultKind.parse("rm-hang"),
                FaultTarget.of(FaultTarget.Node.LEADER), 4_000, 0));
        assertEquals("rm-hang", hang.kind().wireName());
        await("a new leader while the old one is stopped", () -> status().managers().term()
                > before.managers().term());
        ManagerStatus replaced = status();

        // the old leader wakes (SIGCONT after 4 s) believing it leads until the views merge: it tries to kill the
        // primary, as a deposed leader would; the group has moved on, so it can commit nothing and kills nothing
        HttpClient http = HttpClient.newHttpClient();
        String crashPrimary = JSON.writeValueAsString(new FaultSpec(FaultKind.parse("crash"),
                FaultTarget.of(FaultTarget.Node.PRIMARY), 0, 0));
        long wokeBy = System.nanoTime() + TimeUnit.SECONDS.toNanos(6);
        HttpResponse<String> order;
        do {
            order = http.send(HttpRequest.newBuilder(URI.create(oldLeaderUrl + "/inject"))
                    .timeout(Duration.ofSeconds(10)).header("Authorization", "Bearer " + token)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(crashPrimary)).build(),
                    HttpResponse.BodyHandlers.ofString());
        } while (order.statusCode() == 200 && System.nanoTime() < wokeBy);
        assertTrue(order.statusCode() == 503 || order.statusCode() == 421,
                "the deposed leader's order was refused: " + order.statusCode() + " " + order.body());
        ManagerStatus after = status();
        assertEquals(replaced.primary(), after.primary(), "no replica was killed: " + after.failures());
        assertEquals(replaced.failures().size(), after.failures().size());
        assertTrue(after.faults().stream().filter(f -> f.faultId().equals(hang.faultId())).allMatch(
                f -> f.repair() == InjectedFault.Repair.REPLACED), "the hang was repaired by the new leader acting");

        // past its door: an order the deposed leader gives with the epoch it knew (ending the database sessions of
        // the primary, as it would fence a replica it had found failed) is refused by its target, the database,
        // which the new leader raised to the epoch it began when it started acting
        assertTrue(after.epoch() > before.epoch(), "the new leader began a new epoch: " + after.epoch());
        EpochFence.Order stale = new EpochFence.Order(before.epoch(), before.managers().leader(),
                before.managers().term());
        long primaryPid = after.replicas().stream().filter(r -> r.name().equals(after.primary())).findFirst()
                .orElseThrow().pid();
        try (SessionFence database = SessionFence.open(DatabaseEndpoint.loadForAudits(dir))) {
            assertEquals(after.epoch(), database.epoch().epoch(), "the database knows the new leader's epoch");
            long refusedBefore = database.epoch().refused();
            EpochFence.Refused refused = assertThrows(EpochFence.Refused.class,
                    () -> database.endSessionsOf(primaryPid, stale));
            assertEquals(after.epoch(), refused.seenEpoch());
            assertEquals(refusedBefore + 1, database.epoch().refused(), "the database counted the refusal");
        }
        assertEquals(after.primary(), status().primary(), "the primary serves on");
    }

    @Test
    @Order(3)
    void ctrlCStopsTheManagersAndEveryProcessOfTheLab() throws Exception {
        new ProcessBuilder("kill", "-INT", Long.toString(lab.pid())).start().waitFor();
        assertTrue(lab.waitFor(2, TimeUnit.MINUTES), "ftlab lab stops within 2 min of Ctrl-C");
        FtlabCommandIT.assertNoProcessUses(dir);
        assertFalse(Files.exists(dir.resolve(ManagerEndpoint.FILE)), "rm.json removed: the lab no longer runs");
    }
}
