package org.ftlab.harness.workload.bids;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.ftlab.auction.api.BidOutcome;
import org.ftlab.auction.api.StatefulTierSettings;
import org.ftlab.auction.api.TierStatus;
import org.ftlab.harness.lab.ManagerClient;
import org.ftlab.harness.probe.ProbeTable;
import org.ftlab.harness.probe.StatefulTierRecord;
import org.ftlab.harness.workload.Workload;
import org.ftlab.os.access.DatabaseEndpoint;
import org.ftlab.rm.api.FailureRecord;
import org.ftlab.rm.api.StatefulTierReport;
import org.ftlab.stateful.AuctionBook;
import org.ftlab.stateful.Checkpoint;
import org.ftlab.stateful.Output;
import org.ftlab.stateful.Replay;
import org.ftlab.stateful.TierSettings;
import org.ftlab.stateful.TierStore;
import org.ftlab.tart.Order;

/**
 * The bids workload on the stateful tier: its settings from a run's record, and its end — the checker's final state
 * read from a checkpoint the primary stores at the end, and the replay oracle: the logged inputs replayed offline with
 * the same component code must give every reply the clients recorded, the final state and every checkpointed state.
 * With determinism on, a divergence is a failure; with it off (the negative control), the oracle says how far the
 * tier diverged from any replay. After the check, the run's {@code stateful.json} records the tier.
 */
final class StatefulRun {
    private StatefulRun() {
    }

    /** The tier's settings from a run's record. */
    static TierSettings settings(BidsParameters.StatefulTier s) {
        if (s == null) {
            return TierSettings.DEFAULTS;
        }
        return TierSettings.parse(s.determinism(), s.silence(), s.estimator(), s.checkpointEvery(), s.gateways(),
                s.workSpread());
    }

    /** A run's record of the tier's settings. */
    static BidsParameters.StatefulTier record(TierSettings t) {
        return new BidsParameters.StatefulTier(t.determinism(), t.silence().wireName(), t.estimator().wireName(),
                t.checkpointEvery(), t.gateways(), t.workSpread());
    }

    /** The tier's settings as the manager's door carries them. */
    static StatefulTierSettings contract(TierSettings t) {
        return new StatefulTierSettings(t.determinism(), t.silence().wireName(), t.estimator().wireName(),
                t.checkpointEvery(), t.gateways(), t.workSpread());
    }

    /** The checker and the oracle on the lab in {@code runDir}, after the run. */
    static Workload.Verdict check(Path runDir, TierSettings settings, List<Long> auctions,
            Collection<BidsWorkload.Offer> offers, List<ProbeTable> tables) throws Exception {
        StatefulTierReport report = ManagerClient.forRun(runDir).statefulTier(true);
        List<String> problems = new ArrayList<>();
        if (report.status().failure() != null) {
            problems.add("the stateful tier stopped on " + report.status().replica() + ": " + report.status().failure());
        }
        if (report.checkpointId() == 0) {
            problems.add("the stateful tier does not run on the primary: no final state to check");
            return new Workload.Verdict(offers.size(), "bids", "", problems);
        }
        TierStore.Recovered log;
        Checkpoint end;
        List<TierStore.CheckpointRow> rows;
        List<Checkpoint> stored = new ArrayList<>();
        try (Connection c = DatabaseEndpoint.loadForAudits(runDir).connect()) {
            log = TierStore.read(c);
            end = TierStore.checkpoint(c, report.checkpointId());
            rows = TierStore.checkpoints(c);
            for (TierStore.CheckpointRow r : rows) {
                if (r.id() != report.checkpointId()) {
                    stored.add(TierStore.checkpoint(c, r.id()));
                }
            }
        }
        Workload.Verdict checked = BidsChecker.check(finals(end.book(), auctions), offers, tables);
        problems.addAll(checked.problems());

        Oracle o = oracle(log, end, stored, recordedDigests(tables), offers);
        boolean deterministic = settings.order() == Order.VIRTUAL_TIME;
        String oracle = o.summary(offers.size(), stored.size());
        if (deterministic) {
            problems.addAll(o.problems());
        }
        return new Workload.Verdict(checked.checked(), checked.unit(), checked.property(), problems, "oracle"
                + (deterministic ? "" : " (determinism off, the negative control)") + ": " + oracle
                + " (the logged inputs replayed offline with the tier's code)");
    }

    /**
     * Writes the run's {@code stateful.json}: the primary's tier now, and its recovery after each of the run's
     * failures that promoted a replica.
     */
    static void writeRecord(Workload.Ended run) throws IOException {
        TierStatus now = ManagerClient.forRun(run.labRunDir()).statefulTier(false).status();
        List<StatefulTierRecord.Recovery> recoveries = new ArrayList<>();
        for (FailureRecord f : run.failures()) {
            if (f.promoted() != null) {
                recoveries.add(new StatefulTierRecord.Recovery(f.faultId(), f.tierRecovery()));
            }
        }
        new StatefulTierRecord(now, recoveries).writeTo(run.runDir());
    }

    /** Each hot auction's final state in the engine's book. */
    static List<BidsChecker.FinalAuction> finals(AuctionBook book, List<Long> auctions) {
        List<BidsChecker.FinalAuction> out = new ArrayList<>();
        for (long id : auctions) {
            AuctionBook.Auction a = book.auctions().get(id);
            if (a == null) {
                out.add(new BidsChecker.FinalAuction(id, 0, null, 0, List.of()));
                continue;
            }
            out.add(new BidsChecker.FinalAuction(id, a.highestBidCents(), a.leadingBidder(), a.bids().size(),
                    a.bids().stream().map(b -> new BidsChecker.StoredBid(b.bidId(), b.bidder(), b.amountCents()))
                            .toList()));
        }
        return out;
    }

    /** What the replay oracle found. */
    record Oracle(int replies, int divergentReplies, boolean finalDiverges, int divergentCheckpoints,
            List<String> problems) {
        String summary(int offers, int checkpoints) {
            return (replies - divergentReplies) + " of " + replies + " replies as the replay gives them, final state "
                    + (finalDiverges ? "DIVERGES" : "equal") + ", " + (checkpoints - divergentCheckpoints) + " of "
                    + checkpoints + " checkpoints equal";
        }
    }

    /** The reply digests the clients recorded in their probe rows, by {@code clientId#seq}. */
    static Map<String, String> recordedDigests(List<ProbeTable> tables) {
        Map<String, String> out = new LinkedHashMap<>();
        for (ProbeTable t : tables) {
            for (int i = 0; i < t.size(); i++) {
                String d = t.replyDigestAt(i);
                if (d != null) {
                    out.put(t.clientId() + "#" + t.seqAt(i), d);
                }
            }
        }
        return out;
    }

    /**
     * Replays the whole log offline and holds the replies the clients recorded ({@code recorded}: each reply's digest
     * from its probe row, by {@code clientId#seq}), the final state and each checkpoint to it; {@code offers} only
     * say what a divergent reply was.
     */
    static Oracle oracle(TierStore.Recovered log, Checkpoint end, List<Checkpoint> stored,
            Map<String, String> recorded, Collection<BidsWorkload.Offer> offers) {
        List<String> problems = new ArrayList<>();
        // one pass: each stored checkpoint is held to the replay's book when the replay reaches its message count
        Map<Long, List<Checkpoint>> byCount = new HashMap<>();
        for (Checkpoint c : stored) {
            byCount.computeIfAbsent(c.messages(), k -> new ArrayList<>()).add(c);
        }
        int[] badCheckpoints = new int[1];
        Replay.Result replay = Replay.run(log.settings(), Checkpoint.empty(log.settings().gateways()), log.inputs(),
                log.faults(), Long.MAX_VALUE, (messages, book) -> {
                    for (Checkpoint c : byCount.getOrDefault(messages, List.of())) {
                        if (!book.equals(c.book())) {
                            badCheckpoints[0]++;
                            if (badCheckpoints[0] <= 5) {
                                problems.add("oracle: the checkpoint after " + c.messages() + " messages is not "
                                        + "the replay's state then");
                            }
                        }
                    }
                });
        for (Checkpoint c : stored) {
            if (c.messages() > replay.handled().size()) {
                badCheckpoints[0]++; // beyond the log: no replay reaches it
            }
        }
        Map<String, Output> replies = replay.replies();
        Map<String, BidsWorkload.Offer> byKey = new HashMap<>();
        for (BidsWorkload.Offer o : offers) {
            byKey.put(o.clientId() + "#" + o.seq(), o);
        }
        int divergent = 0;
        for (Map.Entry<String, String> e : recorded.entrySet()) {
            Output r = replies.get(e.getKey());
            if (!(r instanceof Output.BidResult b) || !outcome(b).digest().equals(e.getValue())) {
                divergent++;
                if (divergent <= 20) {
                    BidsWorkload.Offer o = byKey.get(e.getKey());
                    problems.add("oracle: " + e.getKey() + " was answered " + (o != null ? o.outcome()
                            : "(digest " + e.getValue() + ")") + ", the replay answers " + r);
                }
            }
        }
        if (divergent > 20) {
            problems.add("oracle: ... and " + (divergent - 20) + " more replies diverge");
        }
        boolean finalDiverges = !replay.book().equals(end.book());
        if (finalDiverges) {
            problems.add("oracle: the tier's final state is not the replay's");
        }
        return new Oracle(recorded.size(), divergent, finalDiverges, badCheckpoints[0], problems);
    }

    /** A replayed bid's reply as the service sends it. */
    private static BidOutcome outcome(Output.BidResult b) {
        return new BidOutcome(b.auctionId(), b.amountCents(), b.accepted(), b.bidId(), b.leadingBidder(),
                b.highestBidCents(), b.bidCount());
    }

}
