package org.ftlab.harness.history.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.ftlab.harness.history.HistoryBuilder;
import org.ftlab.harness.workload.auction.PostedAuctionModel;
import org.junit.jupiter.api.Test;

/** The auction workload's posts and views, checked for linearizability on hand-written histories. */
class PostedAuctionHistoriesTest {
    private static final String POSTED = "{\"seller\": \"c0\", \"title\": \"c0#5\", \"description\": \"d\", "
            + "\"start_cents\": 100}";
    private static final String SEEN = "{\"seller\": \"c0\", \"title\": \"c0#5\", \"description\": \"d\", "
            + "\"start_cents\": 100, \"bids\": 0}";

    private static HistoryCheck.Report check(HistoryBuilder h) throws InterruptedException {
        return HistoryCheck.check(h.build(), new PostedAuctionModel(), HistoryCheck.Limits.of(1, 16, 60));
    }

    @Test
    void aViewOfAPostedAuctionSeesItAsPosted() throws Exception {
        HistoryCheck.Report r = check(new HistoryBuilder().invoke(0, "post", null, POSTED)
                .okWithKey(0, "41", "{\"auction\": 41}")
                .invoke(1, "view", "41", null).ok(1, SEEN)
                .invoke(0, "view", "41", null).ok(0, "{\"payload\": 256}"));
        assertEquals(Linearizability.Verdict.VALID, r.verdict());
        assertEquals(3, r.operations());
    }

    @Test
    void aViewThatSeesOtherFieldsIsInvalid() throws Exception {
        HistoryCheck.Report r = check(new HistoryBuilder().invoke(0, "post", null, POSTED)
                .okWithKey(0, "41", "{\"auction\": 41}")
                .invoke(1, "view", "41", null).ok(1, SEEN.replace("c0#5", "c0#6")));
        assertEquals(Linearizability.Verdict.INVALID, r.verdict());
        String why = r.invalidKeys().get(0).result().anomaly().explanation();
        assertTrue(why.contains("'c0#6'") && why.contains("posted as 'c0#5'"), why);
    }

    @Test
    void anAuctionPostedTwiceUnderOneKeyHasNoOrder() throws Exception {
        HistoryCheck.Report r = check(new HistoryBuilder().invoke(0, "post", null, POSTED)
                .okWithKey(0, "41", "{\"auction\": 41}")
                .invoke(1, "post", null, POSTED).okWithKey(1, "41", "{\"auction\": 41}"));
        assertEquals(Linearizability.Verdict.INVALID, r.verdict());
        String why = r.invalidKeys().get(0).result().anomaly().explanation();
        assertTrue(why.startsWith("duplicated effect"), why);
    }

    @Test
    void aPostWithoutAReplyNamesNoKeyAndNobodyCanHaveSeenIt() throws Exception {
        HistoryCheck.Report r = check(new HistoryBuilder().invoke(0, "post", null, POSTED).info(0)
                .invoke(1, "create-account", "account c1", "{\"username\": \"c1\"}").ok(1, "{\"account\": 3}"));
        assertEquals(Linearizability.Verdict.VALID, r.verdict());
        assertEquals(0, r.operations());
        assertEquals(1, r.skipped().get("post (no key)"));
        assertEquals(1, r.skipped().get("create-account"));
    }
}
