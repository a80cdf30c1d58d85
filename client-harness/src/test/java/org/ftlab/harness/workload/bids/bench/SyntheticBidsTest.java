package org.ftlab.harness.workload.bids.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.ftlab.harness.history.History;
import org.ftlab.harness.history.HistoryEvent;
import org.ftlab.harness.history.HistoryFiles;
import org.ftlab.harness.history.check.HistoryCheck;
import org.ftlab.harness.history.check.Linearizability;
import org.ftlab.harness.workload.bids.AuctionRaceModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The checker on histories of many concurrent offers: every simulated race is linearizable, whatever the
 * concurrency and the offers of unknown outcome; the same history with one reply's count changed is not.
 */
class SyntheticBidsTest {
    @TempDir
    Path run;

    private List<HistoryEvent> history(int clients, long seed) throws Exception {
        SyntheticBids.write(run.resolve(History.DIR), 20_000, 4, clients, 0.01, seed);
        return HistoryFiles.readRun(run);
    }

    @Test
    void simulatedRacesAreLinearizableAtEveryConcurrency() throws Exception {
        for (int clients : new int[] {1, 3, 10, 30}) {
            Path dir = run.resolve(History.DIR);
            List<HistoryEvent> h = history(clients, clients);
            HistoryCheck.Report r = HistoryCheck.check(h, new AuctionRaceModel(), HistoryCheck.Limits.of(2, 256,
                    60));
            assertEquals(Linearizability.Verdict.VALID, r.verdict(), clients + " clients");
            assertEquals(20_000 + 4 + 4, r.operations(), "offers, posts and final reads");
            assertTrue(r.unknown() > 0, "some offers end in info");
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    @Test
    void oneReplyThatCountsABidTooManyMakesTheRaceInvalid() throws Exception {
        List<HistoryEvent> h = new ArrayList<>(history(10, 5));
        for (int i = h.size() / 2; i < h.size(); i++) {
            HistoryEvent e = h.get(i);
            if (e.type() == HistoryEvent.Type.OK && e.value().path("accepted").asBoolean()) {
                ObjectNode v = e.value().deepCopy();
                v.put("count", v.get("count").asInt() + 1);
                h.set(i, new HistoryEvent(e.index(), e.type(), e.f(), v, e.process(), e.timeNanos(), e.key(),
                        e.client(), e.seq(), e.replica(), e.fault()));
                HistoryCheck.Report r = HistoryCheck.check(h, new AuctionRaceModel(), HistoryCheck.Limits.of(2, 256,
                        60));
                assertEquals(Linearizability.Verdict.INVALID, r.verdict());
                assertEquals(e.key(), r.invalidKeys().get(0).key());
                return;
            }
        }
        throw new AssertionError("the history has no accepted offer in its second half");
    }
}
