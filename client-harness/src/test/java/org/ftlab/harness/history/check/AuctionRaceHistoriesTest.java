package org.ftlab.harness.history.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.ftlab.harness.history.HistoryBuilder;
import org.ftlab.harness.workload.bids.AuctionRaceModel;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** The bids workload's auctions, checked for linearizability on hand-written histories. */
class AuctionRaceHistoriesTest {
    private static final HistoryCheck.Limits LIMITS = HistoryCheck.Limits.of(2, 64, 60);

    /** A history that starts with auction 7 posted at a starting price of 1000 by process 9. */
    private static HistoryBuilder posted() {
        return new HistoryBuilder().invoke(9, "post", null, "{\"start_cents\": 1000}")
                .okWithKey(9, "7", "{\"auction\": 7}");
    }

    private static String offer(String bidder, long amount) {
        return "{\"bidder\": \"" + bidder + "\", \"amount_cents\": " + amount + "}";
    }

    private static String reply(boolean accepted, String leader, long price, int count) {
        return reply(accepted, leader, price, count, 0);
    }

    private static String reply(boolean accepted, String leader, long price, int count, long bid) {
        return "{\"accepted\": " + accepted + ", \"leader\": " + (leader == null ? "null" : "\"" + leader + "\"")
                + ", \"price_cents\": " + price + ", \"count\": " + count + ", \"bid\": " + bid + "}";
    }

    private static HistoryCheck.Report check(HistoryBuilder h) throws InterruptedException {
        return HistoryCheck.check(h.build(), new AuctionRaceModel(), LIMITS);
    }

    @Nested
    class Valid {
        @Test
        void offersOneAfterTheOtherEachRepliedAsTheAuctionWas() throws Exception {
            HistoryCheck.Report r = check(posted()
                    .invoke(0, "offer", "7", offer("a", 1100)).ok(0, reply(true, "a", 1100, 1))
                    .invoke(1, "offer", "7", offer("b", 1050)).ok(1, reply(false, "a", 1100, 1))
                    .invoke(1, "offer", "7", offer("b", 1200)).ok(1, reply(true, "b", 1200, 2)));
            assertEquals(Linearizability.Verdict.VALID, r.verdict());
            assertEquals(4, r.operations());
        }

        @Test
        void twoConcurrentOffersTakeEffectInTheOrderTheirRepliesSayInEitherOrderOfCompletion() throws Exception {
            // b's offer was invoked first and completed first, but the replies say a's took effect first
            HistoryCheck.Report first = check(posted()
                    .invoke(1, "offer", "7", offer("b", 1300)).invoke(0, "offer", "7", offer("a", 1100))
                    .ok(1, reply(true, "b", 1300, 2)).ok(0, reply(true, "a", 1100, 1)));
            HistoryCheck.Report second = check(posted()
                    .invoke(0, "offer", "7", offer("a", 1100)).invoke(1, "offer", "7", offer("b", 1300))
                    .ok(0, reply(true, "a", 1100, 1)).ok(1, reply(true, "b", 1300, 2)));
            assertEquals(Linearizability.Verdict.VALID, first.verdict());
            assertEquals(Linearizability.Verdict.VALID, second.verdict());
        }

        @Test
        void anOfferOfUnknownOutcomeThatTookEffectExplainsTheRepliesAfterIt() throws Exception {
            HistoryCheck.Report r = check(posted()
                    .invoke(0, "offer", "7", offer("a", 1100)).info(0)
                    .invoke(1, "offer", "7", offer("b", 1050)).ok(1, reply(false, "a", 1100, 1)));
            assertEquals(Linearizability.Verdict.VALID, r.verdict());
            assertEquals(1, r.unknown());
        }

        @Test
        void anOfferOfUnknownOutcomeMayNeverHaveTakenEffect() throws Exception {
            HistoryCheck.Report r = check(posted()
                    .invoke(0, "offer", "7", offer("a", 1100)).info(0)
                    .invoke(1, "offer", "7", offer("b", 1050)).ok(1, reply(true, "b", 1050, 1)));
            assertEquals(Linearizability.Verdict.VALID, r.verdict());
        }

        @Test
        void anOfferThatNeverCompletedIsOfUnknownOutcome() throws Exception {
            HistoryCheck.Report r = check(posted()
                    .invoke(0, "offer", "7", offer("a", 1100))
                    .invoke(1, "offer", "7", offer("b", 1050)).ok(1, reply(false, "a", 1100, 1)));
            assertEquals(Linearizability.Verdict.VALID, r.verdict());
            assertEquals(1, r.unknown());
        }

        @Test
        void aFailedOfferTookNoEffectAndIsLeftOut() throws Exception {
            HistoryCheck.Report r = check(posted()
                    .invoke(0, "offer", "7", offer("a", 1100)).fail(0)
                    .invoke(1, "offer", "7", offer("b", 1050)).ok(1, reply(true, "b", 1050, 1)));
            assertEquals(Linearizability.Verdict.VALID, r.verdict());
            assertEquals(1, r.failed());
        }

        @Test
        void keysAreCheckedApart() throws Exception {
            HistoryCheck.Report r = check(posted().invoke(8, "post", null, "{\"start_cents\": 500}")
                    .okWithKey(8, "8", "{\"auction\": 8}")
                    .invoke(0, "offer", "7", offer("a", 1100)).invoke(1, "offer", "8", offer("b", 600))
                    .ok(0, reply(true, "a", 1100, 1)).ok(1, reply(true, "b", 600, 1)));
            assertEquals(Linearizability.Verdict.VALID, r.verdict());
            assertEquals(2, r.keys().size());
        }
    }

    @Nested
    class Invalid {
        @Test
        void anOfferOutbidByItselfTookEffectTwice() throws Exception {
            HistoryCheck.Report r = check(posted()
                    .invoke(0, "offer", "7", offer("a", 1100)).ok(0, reply(false, "a", 1100, 1)));
            assertEquals(Linearizability.Verdict.INVALID, r.verdict());
            Linearizability.Anomaly a = r.invalidKeys().get(0).result().anomaly();
            assertTrue(a.explanation().startsWith("duplicated effect"), a.explanation());
            assertEquals(0, a.blocked().invoke().process());
        }

        @Test
        void aReplyCountingABidNoOperationMadeIsAnUnexplainedEffect() throws Exception {
            HistoryCheck.Report r = check(posted()
                    .invoke(0, "offer", "7", offer("a", 1100)).ok(0, reply(true, "a", 1100, 1))
                    .invoke(1, "offer", "7", offer("b", 1200)).ok(1, reply(true, "b", 1200, 3)));
            assertEquals(Linearizability.Verdict.INVALID, r.verdict());
            String why = r.invalidKeys().get(0).result().anomaly().explanation();
            assertTrue(why.startsWith("an effect no operation explains"), why);
        }

        @Test
        void aViewThatMissesABidAcknowledgedBeforeItWasInvokedIsAStaleRead() throws Exception {
            HistoryCheck.Report r = check(posted()
                    .invoke(0, "offer", "7", offer("a", 1100)).ok(0, reply(true, "a", 1100, 1))
                    .invoke(1, "view", "7", null).ok(1, reply(false, null, 0, 0)));
            assertEquals(Linearizability.Verdict.INVALID, r.verdict());
            String why = r.invalidKeys().get(0).result().anomaly().explanation();
            assertTrue(why.startsWith("stale read"), why);
        }

        @Test
        void realTimeOrderIsKeptAnOfferCompletedBeforeAnotherBeganCannotFollowIt() throws Exception {
            // a's offer completed before b's was invoked, yet b's reply says it came first
            HistoryCheck.Report r = check(posted()
                    .invoke(0, "offer", "7", offer("a", 1300)).ok(0, reply(true, "a", 1300, 2))
                    .invoke(1, "offer", "7", offer("b", 1100)).ok(1, reply(true, "b", 1100, 1)));
            assertEquals(Linearizability.Verdict.INVALID, r.verdict());
        }

        @Test
        void anOfferOnAnAuctionNeverPostedHasNoOrder() throws Exception {
            HistoryCheck.Report r = check(new HistoryBuilder()
                    .invoke(0, "offer", "7", offer("a", 1100)).ok(0, reply(true, "a", 1100, 1)));
            assertEquals(Linearizability.Verdict.INVALID, r.verdict());
            String why = r.invalidKeys().get(0).result().anomaly().explanation();
            assertTrue(why.contains("not posted"), why);
        }
    }

    @Nested
    class FinalReads {
        private static String read(String... bids) {
            return "{\"bids\": [" + String.join(", ", bids) + "]}";
        }

        private static String bid(long id, String bidder, long amount) {
            return "{\"bid\": " + id + ", \"bidder\": \"" + bidder + "\", \"amount_cents\": " + amount + "}";
        }

        private HistoryBuilder twoAccepted() {
            return posted()
                    .invoke(0, "offer", "7", offer("a", 1100)).ok(0, reply(true, "a", 1100, 1, 31))
                    .invoke(1, "offer", "7", offer("b", 1200)).ok(1, reply(true, "b", 1200, 2, 32));
        }

        @Test
        void aFinalReadOfTheAcknowledgedBidsIsValid() throws Exception {
            HistoryCheck.Report r = check(twoAccepted().invoke(2, "read", "7", null)
                    .ok(2, read(bid(31, "a", 1100), bid(32, "b", 1200))));
            assertEquals(Linearizability.Verdict.VALID, r.verdict());
        }

        @Test
        void anAcknowledgedBidMissingFromTheFinalReadIsALostWrite() throws Exception {
            HistoryCheck.Report r = check(twoAccepted().invoke(2, "read", "7", null)
                    .ok(2, read(bid(32, "b", 1200))));
            assertEquals(Linearizability.Verdict.INVALID, r.verdict());
            String why = r.invalidKeys().get(0).result().anomaly().explanation();
            assertTrue(why.startsWith("lost write: the acknowledged bid 1100 by a (bid 31)"), why);
        }

        @Test
        void anAcknowledgedBidStoredUnderAnotherIdIsNamed() throws Exception {
            HistoryCheck.Report r = check(twoAccepted().invoke(2, "read", "7", null)
                    .ok(2, read(bid(31, "a", 1100), bid(33, "b", 1200))));
            assertEquals(Linearizability.Verdict.INVALID, r.verdict());
            String why = r.invalidKeys().get(0).result().anomaly().explanation();
            assertTrue(why.contains("(bid 32)"), why);
        }

        @Test
        void anOfferOfUnknownOutcomeThatTheFinalReadListsTookEffect() throws Exception {
            HistoryCheck.Report r = check(posted()
                    .invoke(0, "offer", "7", offer("a", 1100)).info(0)
                    .invoke(2, "read", "7", null).ok(2, read(bid(40, "a", 1100))));
            assertEquals(Linearizability.Verdict.VALID, r.verdict());
        }

        @Test
        void aBidListedTwiceIsADuplicatedEffect() throws Exception {
            HistoryCheck.Report r = check(posted()
                    .invoke(0, "offer", "7", offer("a", 1100)).ok(0, reply(true, "a", 1100, 1, 31))
                    .invoke(2, "read", "7", null).ok(2, read(bid(31, "a", 1100), bid(35, "a", 1100))));
            assertEquals(Linearizability.Verdict.INVALID, r.verdict());
            String why = r.invalidKeys().get(0).result().anomaly().explanation();
            assertTrue(why.startsWith("duplicated effect: the final read lists 1100 by a more than once"), why);
        }
    }

    @Nested
    class Budget {
        @Test
        void aSearchThatOutgrowsItsBudgetIsUnknownNeverValid() throws Exception {
            HistoryBuilder h = posted();
            // many concurrent outbid offers, each placeable anywhere: more configurations than a budget of 10
            for (int p = 0; p < 12; p++) {
                h.invoke(p, "offer", "7", offer("x" + p, 900));
            }
            for (int p = 0; p < 12; p++) {
                h.ok(p, reply(false, null, 0, 0));
            }
            h.invoke(20, "offer", "7", offer("y", 1100)).ok(20, reply(true, "y", 1100, 2));
            HistoryCheck.Report r = HistoryCheck.check(h.build(), new AuctionRaceModel(),
                    new HistoryCheck.Limits(1, 10, 60));
            assertEquals(Linearizability.Verdict.UNKNOWN, r.verdict());
            String why = r.keys().get(0).result().why();
            assertTrue(why.contains("budget of 10 configurations"), why);
        }
    }
}
