package org.ftlab.harness.workload.bids;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.ftlab.auction.api.BidOutcome;
import org.ftlab.harness.probe.ProbeTable;
import org.ftlab.harness.workload.Workload;
import org.ftlab.os.access.DatabaseEndpoint;

/**
 * The bids workload's checker: holds the service's final state (each hot auction's accepted bids, leader, price and
 * count) to every reply the clients completed, whatever faults and fail-overs happened between.
 * <ul>
 * <li>every completed offer counted once: an accepted one is exactly one stored bid (its id, bidder and amount), an
 * outbid one none; and no bid is stored that no completed offer accounts for;</li>
 * <li>an auction's accepted bids rise strictly in the order the service accepted them (each beat the one before);</li>
 * <li>each reply's leader, price and bid count are those of the accepted bids up to it (an accepted bid is the
 * {@code bidCount}-th; an outbid one was no higher than the {@code bidCount}-th, which led);</li>
 * <li>each auction's final leader, price and bid count are those of its last accepted bid.</li>
 * </ul>
 */
final class BidsChecker {
    /** How many problems of one kind are listed before the rest are only counted. */
    private static final int LISTED = 20;

    private BidsChecker() {
    }

    /** One stored bid, in the order the service accepted it (its id). */
    record StoredBid(long bidId, String bidder, long amountCents) {
    }

    /** One auction's final state as the service keeps it, with its accepted bids in the order they were accepted. */
    record FinalAuction(long auctionId, long highestBidCents, String leadingBidder, int bidCount,
            List<StoredBid> bids) {
    }

    /** Reads each hot auction's final state from the database and checks the offers against it. */
    static Workload.Verdict check(DatabaseEndpoint db, List<Long> auctions, Collection<BidsWorkload.Offer> offers,
            List<ProbeTable> tables) throws SQLException {
        List<FinalAuction> finals = new ArrayList<>();
        try (Connection c = db.connect();
                PreparedStatement auction = c.prepareStatement("SELECT a.highest_bid_cents, u.username, a.bid_count "
                        + "FROM auction a LEFT JOIN account u ON u.id = a.highest_bidder_id WHERE a.id = ?");
                PreparedStatement bids = c.prepareStatement("SELECT b.id, u.username, b.amount_cents FROM bid b "
                        + "JOIN account u ON u.id = b.bidder_id WHERE b.auction_id = ? ORDER BY b.id")) {
            for (long id : auctions) {
                auction.setLong(1, id);
                try (ResultSet rs = auction.executeQuery()) {
                    if (!rs.next()) {
                        throw new SQLException("hot auction " + id + " is not in the database");
                    }
                    List<StoredBid> stored = new ArrayList<>();
                    bids.setLong(1, id);
                    try (ResultSet b = bids.executeQuery()) {
                        while (b.next()) {
                            stored.add(new StoredBid(b.getLong(1), b.getString(2), b.getLong(3)));
                        }
                    }
                    finals.add(new FinalAuction(id, rs.getLong(1), rs.getString(2), rs.getInt(3), stored));
                }
            }
        }
        return check(finals, offers, tables);
    }

    /** Checks the offers the clients completed against the service's final state of every hot auction. */
    static Workload.Verdict check(List<FinalAuction> finals, Collection<BidsWorkload.Offer> offers,
            List<ProbeTable> tables) {
        Problems problems = new Problems();
        long completedRows = 0;
        for (ProbeTable t : tables) {
            for (int i = 0; i < t.size(); i++) {
                if (t.methodAt(i).equals(BidsWorkload.OFFER) && t.isOk(i)) {
                    completedRows++;
                }
            }
        }
        if (completedRows != offers.size()) {
            problems.add("count", completedRows + " offers completed in the probe rows but " + offers.size()
                    + " replies kept");
        }
        Map<Long, List<BidsWorkload.Offer>> byAuction = new HashMap<>();
        for (BidsWorkload.Offer o : offers) {
            byAuction.computeIfAbsent(o.auctionId(), k -> new ArrayList<>()).add(o);
        }
        int accepted = 0;
        for (FinalAuction a : finals) {
            List<BidsWorkload.Offer> mine = byAuction.getOrDefault(a.auctionId(), List.of());
            accepted += checkAuction(a, mine, problems);
        }
        for (Long id : byAuction.keySet()) {
            if (finals.stream().noneMatch(a -> a.auctionId() == id)) {
                problems.add("auction", byAuction.get(id).size() + " offers on auction " + id
                        + ", which is not one of the run's hot auctions");
            }
        }
        return new Workload.Verdict(offers.size(), "bids", accepted + " accepted, each stored exactly once, rising "
                + "in the order accepted; every reply's leader, price and count, and every auction's final ones, "
                + "as the accepted bids make them", problems.list());
    }

    /** Checks one auction; returns its accepted offers. */
    private static int checkAuction(FinalAuction a, List<BidsWorkload.Offer> offers, Problems problems) {
        String where = "auction " + a.auctionId();
        // the accepted bids, in the order the service accepted them
        List<StoredBid> bids = a.bids().stream().sorted(Comparator.comparingLong(StoredBid::bidId)).toList();
        for (int i = 1; i < bids.size(); i++) {
            if (bids.get(i).amountCents() <= bids.get(i - 1).amountCents()) {
                problems.add("order", where + ": bid " + bids.get(i).bidId() + " (" + bids.get(i).amountCents()
                        + " cents) accepted after bid " + bids.get(i - 1).bidId() + " ("
                        + bids.get(i - 1).amountCents() + " cents), which it does not beat");
            }
        }
        StoredBid last = bids.isEmpty() ? null : bids.get(bids.size() - 1);
        if (a.bidCount() != bids.size() || last != null && (a.highestBidCents() != last.amountCents()
                || !Objects.equals(a.leadingBidder(), last.bidder())) || last == null && a.leadingBidder() != null) {
            problems.add("final", where + " ends with " + a.bidCount() + " bids, " + a.highestBidCents()
                    + " cents, led by " + a.leadingBidder() + "; its " + bids.size() + " stored bids make "
                    + (last == null ? "no leader" : last.amountCents() + " cents, led by " + last.bidder()));
        }
        Map<Long, Integer> position = new LinkedHashMap<>();
        for (int i = 0; i < bids.size(); i++) {
            position.put(bids.get(i).bidId(), i + 1);
        }
        Map<Long, BidsWorkload.Offer> claimed = new HashMap<>();
        int accepted = 0;
        for (BidsWorkload.Offer o : offers) {
            BidOutcome r = o.outcome();
            String offer = o.clientId() + "#" + o.seq() + " (" + o.amountCents() + " cents on " + where + ")";
            if (r.auctionId() != a.auctionId() || r.amountCents() != o.amountCents()) {
                problems.add("reply", offer + " was answered for " + r.amountCents() + " cents on auction "
                        + r.auctionId());
                continue;
            }
            if (r.accepted()) {
                accepted++;
                Integer at = position.get(r.bidId());
                BidsWorkload.Offer twin = claimed.put(r.bidId(), o);
                if (twin != null) {
                    problems.add("duplicate", offer + " and " + twin.clientId() + "#" + twin.seq()
                            + " were both answered with bid " + r.bidId());
                } else if (at == null) {
                    problems.add("lost", offer + " was accepted as bid " + r.bidId() + ", which is not stored");
                } else {
                    StoredBid b = bids.get(at - 1);
                    if (b.amountCents() != o.amountCents() || !b.bidder().equals(o.bidder())) {
                        problems.add("lost", offer + " was accepted as bid " + r.bidId() + ", stored as "
                                + b.amountCents() + " cents by " + b.bidder());
                    } else if (r.bidCount() != at || r.highestBidCents() != o.amountCents()
                            || !o.bidder().equals(r.leadingBidder())) {
                        problems.add("reply", offer + " was answered as bid " + r.bidCount() + " leading at "
                                + r.highestBidCents() + " cents by " + r.leadingBidder() + "; it is stored as bid "
                                + at + " of the auction");
                    }
                }
            } else {
                int n = r.bidCount();
                StoredBid leader = n >= 1 && n <= bids.size() ? bids.get(n - 1) : null;
                boolean consistent = n == 0 ? r.leadingBidder() == null && o.amountCents() < BidsWorkload.STARTING_PRICE_CENTS
                        : leader != null && leader.amountCents() == r.highestBidCents()
                                && leader.bidder().equals(r.leadingBidder())
                                && o.amountCents() <= leader.amountCents();
                if (!consistent) {
                    problems.add("reply", offer + " was outbid by bid " + n + " at " + r.highestBidCents()
                            + " cents led by " + r.leadingBidder() + ", which the stored bids do not make");
                }
            }
        }
        for (StoredBid b : bids) {
            if (!claimed.containsKey(b.bidId())) {
                problems.add("unaccounted", where + ": bid " + b.bidId() + " (" + b.amountCents() + " cents by "
                        + b.bidder() + ") is stored but no completed offer was answered with it");
            }
        }
        return accepted;
    }

    /** Problems by kind: the first {@value #LISTED} of each listed, the rest counted. */
    private static final class Problems {
        private final Map<String, List<String>> byKind = new LinkedHashMap<>();
        private final Map<String, Integer> counts = new LinkedHashMap<>();

        void add(String kind, String problem) {
            counts.merge(kind, 1, Integer::sum);
            List<String> l = byKind.computeIfAbsent(kind, k -> new ArrayList<>());
            if (l.size() < LISTED) {
                l.add(problem);
            }
        }

        List<String> list() {
            List<String> out = new ArrayList<>();
            for (Map.Entry<String, List<String>> e : byKind.entrySet()) {
                out.addAll(e.getValue());
                int more = counts.get(e.getKey()) - e.getValue().size();
                if (more > 0) {
                    out.add("... and " + more + " more " + e.getKey() + " problems");
                }
            }
            return out;
        }
    }
}
