package org.ftlab.harness.workload.bids;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.ftlab.auction.api.BidOutcome;
import org.ftlab.harness.probe.ProbeTable;
import org.ftlab.stateful.Checkpoint;
import org.ftlab.stateful.Input;
import org.ftlab.stateful.LoggedInput;
import org.ftlab.stateful.Output;
import org.ftlab.stateful.Replay;
import org.ftlab.stateful.TierSettings;
import org.ftlab.stateful.TierStore;
import org.junit.jupiter.api.Test;

/**
 * The replay oracle on a fixture log: two gateways' bids racing on one auction. It holds the digests the clients
 * recorded in their probe rows, the final state and the stored checkpoints to an offline replay of the log.
 */
class ReplayOracleTest {
    private static final TierSettings SETTINGS = TierSettings.DEFAULTS;

    /** An auction opened by a seller, then 20 bids from two clients through the two gateways, interleaved. */
    private static List<LoggedInput> log() {
        List<LoggedInput> in = new ArrayList<>();
        in.add(new LoggedInput(0, 1_000, new Input.Open("s", 1, "seller", "hot", 1_000)));
        for (int k = 0; k < 20; k++) {
            int gateway = k % 2;
            String client = gateway == 0 ? "a" : "b";
            in.add(new LoggedInput(gateway, 2_000 + 100L * k, new Input.Bid(client, 2 + k / 2, client + "-user", 1,
                    1_000 + 20L * k + (k % 3 == 0 ? 5 : 0))));
        }
        return in;
    }

    private static TierStore.Recovered recovered(List<LoggedInput> inputs) {
        return new TierStore.Recovered(SETTINGS, 1, Checkpoint.empty(SETTINGS.gateways()), 0, inputs, List.of());
    }

    /** The digests the clients would have recorded had the tier answered as the replay does. */
    private static Map<String, String> digests(Replay.Result r) {
        Map<String, String> m = new LinkedHashMap<>();
        r.replies().forEach((key, out) -> {
            if (out instanceof Output.BidResult b) {
                m.put(key, new BidOutcome(b.auctionId(), b.amountCents(), b.accepted(), b.bidId(), b.leadingBidder(),
                        b.highestBidCents(), b.bidCount()).digest());
            }
        });
        return m;
    }

    private static Checkpoint state(Replay.Result r) {
        Checkpoint e = Checkpoint.empty(SETTINGS.gateways());
        return new Checkpoint(r.handled().size(), r.book(), e.scheduler(), e.deliveredStamp(), e.deliveredVt());
    }

    @Test
    void aRunAsTheReplayGivesItHasNoDivergence() {
        Replay.Result r = Replay.run(SETTINGS, Checkpoint.empty(SETTINGS.gateways()), log(), List.of(),
                Long.MAX_VALUE);
        Map<String, String> recorded = digests(r);
        assertEquals(20, recorded.size(), "every bid answered");
        StatefulRun.Oracle o = StatefulRun.oracle(recovered(log()), state(r), List.of(), recorded, List.of());
        assertEquals(0, o.divergentReplies(), o.problems().toString());
        assertFalse(o.finalDiverges());
        assertTrue(o.problems().isEmpty(), o.problems().toString());
        assertEquals("20 of 20 replies as the replay gives them, final state equal, 0 of 0 checkpoints equal",
                o.summary(20, 0));
    }

    @Test
    void aRecordedReplyTheReplayDoesNotGiveIsADivergenceNamedByItsRequest() {
        Replay.Result r = Replay.run(SETTINGS, Checkpoint.empty(SETTINGS.gateways()), log(), List.of(),
                Long.MAX_VALUE);
        Map<String, String> recorded = digests(r);
        recorded.put("b#3", "00000000deadbeef");
        StatefulRun.Oracle o = StatefulRun.oracle(recovered(log()), state(r), List.of(), recorded, List.of());
        assertEquals(1, o.divergentReplies());
        assertTrue(o.problems().get(0).startsWith("oracle: b#3 was answered (digest 00000000deadbeef)"),
                o.problems().toString());
    }

    @Test
    void aStateOrCheckpointNoReplayReachesDiverges() {
        Replay.Result r = Replay.run(SETTINGS, Checkpoint.empty(SETTINGS.gateways()), log(), List.of(),
                Long.MAX_VALUE);
        // the state after the first 11 messages stands in for the final one and for a checkpoint at 21
        Replay.Result part = Replay.run(SETTINGS, Checkpoint.empty(SETTINGS.gateways()), log(), List.of(), 11);
        Checkpoint wrong = state(part);
        Checkpoint wrongAt21 = new Checkpoint(r.handled().size(), part.book(), wrong.scheduler(),
                wrong.deliveredStamp(), wrong.deliveredVt());
        StatefulRun.Oracle o = StatefulRun.oracle(recovered(log()), wrong, List.of(wrongAt21, state(part)),
                digests(r), List.of());
        assertTrue(o.finalDiverges());
        assertEquals(1, o.divergentCheckpoints(), "the checkpoint at 21 messages is not the replay's; the one at 11 is");
        assertEquals(0, o.divergentReplies());
    }

    @Test
    void theDigestsComeFromTheProbeRowsThatHaveOne() {
        ProbeTable t = new ProbeTable("a", 4);
        int row = t.claim(2, "offerBid", 0, ProbeTable.Phase.MEASURE);
        t.replyDigest(row, "0123456789abcdef");
        t.claim(3, "offerBid", 0, ProbeTable.Phase.MEASURE); // failed: no digest
        assertEquals(Map.of("a#2", "0123456789abcdef"), StatefulRun.recordedDigests(List.of(t)));
    }
}
