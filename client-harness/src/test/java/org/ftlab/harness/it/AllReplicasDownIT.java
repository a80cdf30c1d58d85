package org.ftlab.harness.it;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.ftlab.auction.api.ReplySize;
import org.ftlab.auction.api.RequestHeader;
import org.ftlab.harness.failover.AllReplicasDownException;
import org.ftlab.harness.failover.FailoverClient;
import org.ftlab.harness.failover.Strategies;
import org.ftlab.harness.lab.ManagedLab;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * With every replica down and none relaunched, a client stops after its bound with a clear error. One client of every
 * strategy meets the same crash of the only replica, so one lab serves them all.
 */
class AllReplicasDownIT {
    private static final Duration BOUND = Duration.ofSeconds(3);

    /** What one client did after the crash: the error it gave up with (or null), and after how long. */
    private record GaveUp(Throwable error, long elapsedMillis) {
    }

    @Test
    void clientOfEveryStrategyGivesUpWithAClearErrorAfterItsBound() throws Exception {
        Path runDir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "all-down-");
        try (ManagedLab lab = ManagedLab.start(new ManagedLab.Options(runDir, SharedLab.serverHome(), 1, 0, null, 100,
                500, false))) {
            Map<String, FailoverClient> clients = new LinkedHashMap<>();
            // a thread per client: the common pool has one thread on two cores, which would run them in turn
            ExecutorService threads = Executors.newFixedThreadPool(Strategies.ownNames().size());
            try {
                for (String strategy : Strategies.ownNames()) {
                    FailoverClient client = new FailoverClient(lab.manager(), lab.user(), strategy, BOUND);
                    clients.put(strategy, client);
                    client.invoke(s -> s.ping());
                }
                lab.manager().inject(FailoverIT.CRASH_PRIMARY);
                Map<String, CompletableFuture<GaveUp>> tries = new LinkedHashMap<>();
                clients.forEach((strategy, client) -> tries.put(strategy, CompletableFuture.supplyAsync(() -> {
                    long t0 = System.nanoTime();
                    try {
                        client.invoke(s -> s.viewAuction(new RequestHeader("down-" + strategy, 1,
                                ReplySize.ORIGINAL), 1));
                        return new GaveUp(null, (System.nanoTime() - t0) / 1_000_000);
                    } catch (Exception e) {
                        return new GaveUp(e, (System.nanoTime() - t0) / 1_000_000);
                    }
                }, threads)));
                List<Executable> checks = new ArrayList<>();
                for (var t : tries.entrySet()) {
                    GaveUp g = join(t.getValue());
                    String strategy = t.getKey();
                    checks.add(() -> {
                        AllReplicasDownException e = assertInstanceOf(AllReplicasDownException.class, g.error(),
                                strategy + ": gave up with the all-replicas-down error");
                        assertTrue(e.getMessage().startsWith("no replica answered for 3.0 s"),
                                strategy + ": " + e.getMessage());
                        assertTrue(g.elapsedMillis() >= BOUND.toMillis(), strategy + " kept trying for its whole "
                                + "bound, gave up after " + g.elapsedMillis() + " ms");
                    });
                }
                assertAll(checks);
            } finally {
                threads.shutdownNow();
                for (FailoverClient c : clients.values()) {
                    c.close();
                }
            }
        }
    }

    private static GaveUp join(CompletableFuture<GaveUp> f) throws InterruptedException {
        try {
            return f.get();
        } catch (ExecutionException e) {
            return new GaveUp(e.getCause(), 0);
        }
    }
}
