package org.ftlab.stateful;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.ftlab.tart.Order;
import org.ftlab.tart.SilenceMode;
import org.junit.jupiter.api.Test;

/**
 * The stateful tier on an input log in memory: clients race on shared auctions through two gateways; the offline
 * replay of the log gives every reply and the final book; a recovery from a checkpoint and the log after it gives the
 * same book and answers retries with the same replies.
 */
class StatefulNetworkTest {
    private static final long EPOCH_NANOS = 1_800_000_000_000_000_000L;

    private static long realVt() {
        return EPOCH_NANOS + System.nanoTime();
    }

    private static TierSettings settings(SilenceMode silence, int checkpointEvery) {
        return new TierSettings(Order.VIRTUAL_TIME, silence, TierSettings.EstimatorKind.REGRESSION, checkpointEvery,
                2, 9);
    }

    /** Opens two auctions, then 4 clients race {@code bids} bids each on them; returns every reply by key. */
    private static Map<String, Output> race(StatefulNetwork tier, int bids) throws Exception {
        Map<String, Output> replies = new ConcurrentHashMap<>();
        long[] auctions = new long[2];
        for (int a = 0; a < 2; a++) {
            Input.Open open = new Input.Open("house", a, "house", "hot " + a, 1_000);
            Output o = tier.submit(open).get(10, TimeUnit.SECONDS).output();
            replies.put(open.key(), o);
            auctions[a] = ((Output.Opened) o).auctionId();
        }
        List<Thread> clients = new ArrayList<>();
        List<Throwable> failures = new ArrayList<>();
        for (int c = 0; c < 4; c++) {
            String id = "client-" + c;
            Thread t = new Thread(() -> {
                SplittableRandom r = new SplittableRandom(id.hashCode());
                long[] mine = new long[2];
                try {
                    for (int i = 0; i < bids; i++) {
                        int a = r.nextInt(2);
                        Input.Bid b = new Input.Bid(id, i, id, auctions[a], 1_000 + 20 * mine[a]++ + r.nextInt(200));
                        replies.put(b.key(), tier.submit(b).get(10, TimeUnit.SECONDS).output());
                    }
                } catch (Exception e) {
                    synchronized (failures) {
                        failures.add(e);
                    }
                }
            });
            clients.add(t);
            t.start();
        }
        for (Thread t : clients) {
            t.join();
        }
        assertEquals(List.of(), failures);
        return replies;
    }

    @Test
    void aRaceHandledInVirtualTimeOrderIsWhatTheOfflineReplayOfItsLogGives() throws Exception {
        for (SilenceMode silence : SilenceMode.values()) {
            MemoryLog log = new MemoryLog();
            try (StatefulNetwork tier = StatefulNetwork.start(settings(silence, 100), log, (c, b, t) -> { },
                    StatefulNetworkTest::realVt)) {
                Map<String, Output> replies = race(tier, 150);
                Checkpoint end = tier.snapshot();
                Replay.Result replay = Replay.run(tier.settings(), Checkpoint.empty(2), log.inputs(), log.faults(),
                        Long.MAX_VALUE);
                assertEquals(602, replay.handled().size());
                assertEquals(replies, replay.replies(), silence + ": every live reply is the replay's");
                assertEquals(end.book(), replay.book(), silence + ": and so is the book");
                StatefulNetwork.Stats s = tier.stats();
                assertEquals(602, s.messages());
                assertTrue(s.checkpoints() >= 6, "a checkpoint every 100 messages: " + s.checkpoints());
                if (silence == SilenceMode.CURIOSITY) {
                    assertTrue(s.probes() > 0, "a two-gateway race makes the engine curious");
                }
                long accepted = replies.values().stream().filter(o -> o instanceof Output.BidResult b
                        && b.accepted()).count();
                assertTrue(accepted > 0 && accepted < 600, "a race, not a procession: " + accepted + " accepted");
            }
        }
    }

    @Test
    void aRecoveryFromTheNewestCheckpointAndTheLogAfterItHasTheSameBookAndAnswersRetriesWithTheSameReplies()
            throws Exception {
        MemoryLog log = new MemoryLog();
        List<byte[]> checkpoints = new ArrayList<>();
        Map<String, Output> replies;
        Checkpoint before;
        try (StatefulNetwork tier = StatefulNetwork.start(settings(SilenceMode.CURIOSITY, 64), log, (c, bytes, t) -> {
            synchronized (checkpoints) {
                checkpoints.add(bytes);
            }
        }, StatefulNetworkTest::realVt)) {
            replies = race(tier, 100);
            before = tier.snapshot();
        } // the crash: nothing of the tier is left but what it shipped and logged
        Checkpoint newest = Checkpoint.fromBytes(checkpoints.get(checkpoints.size() - 1));
        assertTrue(newest.messages() < 402, "some inputs came after the newest checkpoint: " + newest.messages());
        try (StatefulNetwork recovered = StatefulNetwork.start(settings(SilenceMode.CURIOSITY, 64), log,
                (c, b, t) -> { }, StatefulNetworkTest::realVt, newest, log.inputs(), log.faults())) {
            recovered.awaitReplayed(30, TimeUnit.SECONDS);
            assertEquals(402 - newest.messages(), recovered.stats().replayInputs() + newest.scheduler().pending().size(),
                    "after the checkpoint: the messages it held, and the inputs logged after them");
            assertEquals(before.book(), recovered.snapshot().book());
            for (Map.Entry<String, Output> r : replies.entrySet()) {
                String[] key = r.getKey().split("#");
                Input retry = key[0].equals("house") ? new Input.Open("house", Long.parseLong(key[1]), "house", "x", 1)
                        : new Input.Bid(key[0], Long.parseLong(key[1]), key[0], 1, 1);
                StatefulNetwork.Result again = recovered.submit(retry).get(10, TimeUnit.SECONDS);
                assertTrue(again.replayed());
                assertEquals(r.getValue(), again.output(), r.getKey());
            }
            // new inputs go on after the replayed ones
            Output next = recovered.submit(new Input.Bid("client-9", 0, "client-9", 1, 1_000_000)).get(10,
                    TimeUnit.SECONDS).output();
            assertTrue(((Output.BidResult) next).accepted());
        }
    }

    @Test
    void aFencedLogStopsTheTierAndFailsTheInput() throws Exception {
        MemoryLog log = new MemoryLog();
        try (StatefulNetwork tier = StatefulNetwork.start(settings(SilenceMode.CURIOSITY, 100), log, (c, b, t) -> { },
                StatefulNetworkTest::realVt)) {
            tier.submit(new Input.Open("house", 0, "house", "hot", 1_000)).get(10, TimeUnit.SECONDS);
            log.fence();
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> tier.submit(new Input.Bid("c", 1, "c", 1, 2_000)).get(10, TimeUnit.SECONDS));
            assertInstanceOf(InputLog.Fenced.class, e.getCause());
            assertFalse(tier.running());
            assertTrue(tier.failure().startsWith("fenced"), tier.failure());
        }
    }

    @Test
    void aStaleCopyOfARequestAnsweredLongAgoIsRefusedWithoutLoggingAndTheTierRunsOn() throws Exception {
        MemoryLog log = new MemoryLog();
        try (StatefulNetwork tier = StatefulNetwork.start(settings(SilenceMode.CURIOSITY, 1_000), log,
                (c, b, t) -> { }, StatefulNetworkTest::realVt)) {
            tier.submit(new Input.Open("house", 0, "house", "hot", 1_000)).get(10, TimeUnit.SECONDS);
            int kept = AuctionBook.REPLIES_KEPT;
            for (int i = 0; i < kept + 10; i++) {
                tier.submit(new Input.Bid("c", i, "c", 1, 1_000 + 20L * (i + 1))).get(10, TimeUnit.SECONDS);
            }
            int logged = log.inputs().size();
            StatefulNetwork.Result stale = tier.submit(new Input.Bid("c", 3, "c", 1, 1_080)).get(10,
                    TimeUnit.SECONDS);
            assertInstanceOf(Output.Refused.class, stale.output());
            assertTrue(((Output.Refused) stale.output()).reason().contains("no longer kept"), stale.toString());
            assertEquals(logged, log.inputs().size(), "nothing logged for it");
            assertTrue(tier.running(), "the tier runs on");
            Output next = tier.submit(new Input.Bid("c", kept + 10, "c", 1, 99_000)).get(10, TimeUnit.SECONDS)
                    .output();
            assertInstanceOf(Output.BidResult.class, next);
        }
    }

    @Test
    void aStoppedTierFailsWhatIsInFlightAtOnceAndEveryRetryOfIt() throws Exception {
        MemoryLog log = new MemoryLog();
        StatefulNetwork tier = StatefulNetwork.start(settings(SilenceMode.CURIOSITY, 1_000), log, (c, b, t) -> { },
                StatefulNetworkTest::realVt);
        try {
            tier.submit(new Input.Open("house", 0, "house", "hot", 1_000)).get(10, TimeUnit.SECONDS);
            tier.stop("stopped by the test");
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> tier.submit(new Input.Bid("c", 1, "c", 1, 2_000)).get(10, TimeUnit.SECONDS));
            assertTrue(e.getCause().getMessage().contains("stopped by the test"), e.getCause().getMessage());
            assertThrows(ExecutionException.class,
                    () -> tier.submit(new Input.Bid("c", 1, "c", 1, 2_000)).get(10, TimeUnit.SECONDS),
                    "its retry too, at once");
        } finally {
            tier.close();
        }
    }

    @Test
    void aCheckpointReadsBackEqualAndRefusesBytesThatAreNotOne() throws Exception {
        MemoryLog log = new MemoryLog();
        try (StatefulNetwork tier = StatefulNetwork.start(settings(SilenceMode.LAZY, 100), log, (c, b, t) -> { },
                StatefulNetworkTest::realVt)) {
            race(tier, 20);
            Checkpoint c = tier.snapshot();
            Checkpoint back = Checkpoint.fromBytes(c.toBytes());
            assertEquals(c.book(), back.book());
            assertEquals(c.messages(), back.messages());
        }
        assertThrows(IllegalStateException.class, () -> Checkpoint.fromBytes(new byte[] {1, 2, 3}));
    }
}
