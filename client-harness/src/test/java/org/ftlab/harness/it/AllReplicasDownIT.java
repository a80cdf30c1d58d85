package org.ftlab.harness.it;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.ftlab.auction.api.ReplySize;
import org.ftlab.auction.api.RequestHeader;
import org.ftlab.harness.failover.AllReplicasDownException;
import org.ftlab.harness.failover.FailoverClient;
import org.ftlab.harness.lab.ManagedLab;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ArgumentsSource;

/** With every replica down and none relaunched, a client stops after its bound with a clear error. */
class AllReplicasDownIT {

    @ParameterizedTest(name = "{0}")
    @ArgumentsSource(EveryStrategy.class)
    void clientGivesUpWithAClearErrorAfterItsBound(String strategy) throws Exception {
        Path runDir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "all-down-");
        try (ManagedLab lab = ManagedLab.start(new ManagedLab.Options(runDir, SharedLab.serverHome(), 1, 0, null, 100,
                500, false))) {
            Duration bound = Duration.ofSeconds(3);
            try (FailoverClient client = new FailoverClient(lab.manager(), lab.user(), strategy, bound)) {
                client.invoke(s -> s.ping());
                lab.manager().inject(FailoverIT.CRASH_PRIMARY);
                long t0 = System.nanoTime();
                AllReplicasDownException e = assertThrows(AllReplicasDownException.class,
                        () -> client.invoke(s -> s.viewAuction(new RequestHeader("down", 1, ReplySize.ORIGINAL), 1)));
                long elapsedMillis = (System.nanoTime() - t0) / 1_000_000;
                assertTrue(e.getMessage().startsWith("no replica answered for 3.0 s"), e.getMessage());
                assertTrue(elapsedMillis >= bound.toMillis(), "kept trying for its whole bound, gave up after "
                        + elapsedMillis + " ms");
            }
        }
    }
}
