package org.ftlab.harness.workload.bids;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.ftlab.auction.api.BidOutcome;
import org.ftlab.harness.probe.ProbeTable;
import org.ftlab.harness.workload.Workload;
import org.junit.jupiter.api.Test;

/**
 * The bids checker on fixtures: a race that the stored bids explain passes; each way a service can lose, duplicate or
 * misorder a bid, or answer with a state the stored bids do not make, is found.
 */
class BidsCheckerTest {
    private static final long AUCTION = 7;

    /** Two clients race: a bids 1200 (accepted, bid 1), b bids 1100 (outbid), b bids 1300 (accepted, bid 2). */
    private static List<BidsWorkload.Offer> race() {
        return new ArrayList<>(List.of(
                new BidsWorkload.Offer("c-a", 1, AUCTION, 1200, new BidOutcome(AUCTION, 1200, true, 11, "c_a", 1200, 1)),
                new BidsWorkload.Offer("c-b", 1, AUCTION, 1100, new BidOutcome(AUCTION, 1100, false, 0, "c_a", 1200, 1)),
                new BidsWorkload.Offer("c-b", 2, AUCTION, 1300, new BidOutcome(AUCTION, 1300, true, 12, "c_b", 1300,
                        2))));
    }

    private static BidsChecker.FinalAuction stored(long highest, String leader, int count, BidsChecker.StoredBid... bids) {
        return new BidsChecker.FinalAuction(AUCTION, highest, leader, count, List.of(bids));
    }

    private static final BidsChecker.FinalAuction EXPLAINED = stored(1300, "c_b", 2,
            new BidsChecker.StoredBid(11, "c_a", 1200), new BidsChecker.StoredBid(12, "c_b", 1300));

    /** Probe tables with one completed offer row per offer. */
    private static List<ProbeTable> rows(List<BidsWorkload.Offer> offers) {
        ProbeTable t = new ProbeTable("all", offers.size());
        for (BidsWorkload.Offer o : offers) {
            int i = t.claim(o.seq(), BidsWorkload.OFFER, 0, ProbeTable.Phase.MEASURE);
            t.served(i, -1, 1, 2, null, "r1", "ok", null, 1);
        }
        return List.of(t);
    }

    private static Workload.Verdict check(BidsChecker.FinalAuction a, List<BidsWorkload.Offer> offers) {
        return BidsChecker.check(List.of(a), offers, rows(offers));
    }

    @Test
    void aRaceTheStoredBidsExplainPasses() {
        Workload.Verdict v = check(EXPLAINED, race());
        assertTrue(v.passed(), v.problems().toString());
        assertEquals(3, v.checked());
        assertTrue(v.property().startsWith("2 accepted"), v.property());
    }

    @Test
    void anAcceptedBidThatIsNotStoredIsLost() {
        Workload.Verdict v = check(stored(1200, "c_a", 1, new BidsChecker.StoredBid(11, "c_a", 1200)), race());
        assertFalse(v.passed());
        assertTrue(v.problems().stream().anyMatch(p -> p.contains("bid 12, which is not stored")), v.problems()
                .toString());
    }

    @Test
    void aStoredBidNoCompletedOfferWasAnsweredWithIsUnaccounted() {
        Workload.Verdict v = check(stored(1400, "c_b", 3, new BidsChecker.StoredBid(11, "c_a", 1200),
                new BidsChecker.StoredBid(12, "c_b", 1300), new BidsChecker.StoredBid(13, "c_b", 1400)), race());
        assertFalse(v.passed());
        assertTrue(v.problems().stream().anyMatch(p -> p.contains("bid 13") && p.contains("no completed offer")),
                v.problems().toString());
    }

    @Test
    void twoOffersAnsweredWithTheSameBidAreADuplicate() {
        List<BidsWorkload.Offer> offers = race();
        offers.add(new BidsWorkload.Offer("c-a", 2, AUCTION, 1300, new BidOutcome(AUCTION, 1300, true, 12, "c_a",
                1300, 2)));
        Workload.Verdict v = check(EXPLAINED, offers);
        assertFalse(v.passed());
        assertTrue(v.problems().stream().anyMatch(p -> p.contains("were both answered with bid 12")),
                v.problems().toString());
    }

    @Test
    void aBidAcceptedThoughItDoesNotBeatTheOneBeforeIsOutOfOrder() {
        List<BidsWorkload.Offer> offers = List.of(
                new BidsWorkload.Offer("c-a", 1, AUCTION, 1300, new BidOutcome(AUCTION, 1300, true, 11, "c_a", 1300, 1)),
                new BidsWorkload.Offer("c-b", 1, AUCTION, 1200, new BidOutcome(AUCTION, 1200, true, 12, "c_b", 1200,
                        2)));
        Workload.Verdict v = check(stored(1200, "c_b", 2, new BidsChecker.StoredBid(11, "c_a", 1300),
                new BidsChecker.StoredBid(12, "c_b", 1200)), offers);
        assertFalse(v.passed());
        assertTrue(v.problems().stream().anyMatch(p -> p.contains("which it does not beat")), v.problems().toString());
    }

    @Test
    void anOutbidReplyNamingALeaderTheStoredBidsDoNotMakeIsFound() {
        List<BidsWorkload.Offer> offers = race();
        offers.set(1, new BidsWorkload.Offer("c-b", 1, AUCTION, 1100, new BidOutcome(AUCTION, 1100, false, 0, "c_b",
                1200, 1)));
        Workload.Verdict v = check(EXPLAINED, offers);
        assertFalse(v.passed());
        assertTrue(v.problems().stream().anyMatch(p -> p.contains("c-b#1") && p.contains("do not make")),
                v.problems().toString());
    }

    @Test
    void aFinalLeaderOtherThanTheLastAcceptedBidsIsFound() {
        Workload.Verdict v = check(stored(1300, "c_a", 2, new BidsChecker.StoredBid(11, "c_a", 1200),
                new BidsChecker.StoredBid(12, "c_b", 1300)), race());
        assertFalse(v.passed());
        assertTrue(v.problems().stream().anyMatch(p -> p.contains("led by c_a") && p.contains("led by c_b")),
                v.problems().toString());
    }

    @Test
    void aCompletedRowWithoutAKeptReplyIsCounted() {
        List<BidsWorkload.Offer> offers = race();
        Workload.Verdict v = BidsChecker.check(List.of(EXPLAINED), offers.subList(0, 3), rows(offers.subList(0, 2)));
        assertFalse(v.passed());
        assertTrue(v.problems().get(0).contains("2 offers completed in the probe rows but 3 replies kept"),
                v.problems().toString());
    }
}
