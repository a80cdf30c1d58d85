package org.ftlab.harness.workload.bids;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.ftlab.auction.api.AuctionDraft;
import org.ftlab.auction.api.AuctionStatus;
import org.ftlab.auction.api.BidHistory;
import org.ftlab.auction.api.BidOutcome;
import org.ftlab.auction.api.BidRecord;
import org.ftlab.auction.api.Reply;
import org.ftlab.auction.api.ReplySize;
import org.ftlab.auction.api.RequestHeader;
import org.ftlab.harness.failover.FailoverClient;
import org.ftlab.harness.failover.Outcome;
import org.ftlab.harness.history.Invocation;
import org.ftlab.harness.lab.ManagerClient;
import org.ftlab.harness.workload.ClientSession;
import org.ftlab.harness.workload.OperationOrder;
import org.ftlab.harness.workload.RunColumns;
import org.ftlab.harness.workload.Workload;
import org.ftlab.harness.workload.WorkloadOptions;
import org.ftlab.os.access.DatabaseEndpoint;
import org.ftlab.stateful.TierSettings;

/**
 * A race: every client bids on the same few hot auctions ({@code --hot-auctions K}), so who leads each one depends on
 * the order the service handles the bids in. Each client bids, on an auction drawn at random, a little more than its
 * own last bid there, with a random spread as wide as several clients' steps: about as many bids are outbid as
 * accepted, and which ones depends on the race. Bids are offered ({@link org.ftlab.auction.api.AuctionService#offerBid}):
 * an outbid bid is an answer, not an error, and every reply says who leads after it.
 *
 * <p>The checker ({@link BidsChecker}) holds the service to every reply the clients completed: each accepted bid
 * stored exactly once, the accepted bids of an auction rising in the order the service accepted them, each reply's
 * leader, price and bid count those of the accepted bids before it, and each auction's final leader and price those
 * of its last accepted bid.
 */
public final class BidsWorkload implements Workload {
    public static final String NAME = "bids";
    public static final String OFFER = "offerBid";
    public static final String STATUS = "auctionStatus";
    public static final int DEFAULT_HOT_AUCTIONS = 4;
    public static final int MAX_HOT_AUCTIONS = 1000;
    /** Starting price of every hot auction, cents. */
    static final long STARTING_PRICE_CENTS = 1_000;
    /** How much a client raises its own last bid on an auction, cents, before the spread. */
    static final long STEP_CENTS = 20;
    /** The random spread added to each bid, cents: as wide as several clients' steps, so that clients overtake. */
    static final int SPREAD_CENTS = 200;

    private final int hotAuctions;
    /** The stateful tier's settings when the run is on it; null on the stateless tier. */
    private final TierSettings stateful;
    /** The run's hot auctions, posted by the first client opened. */
    private final List<Long> hot = new ArrayList<>();
    /** Every offer a client completed, by (clientId, seq): a retried offer answered again counts once. */
    private final Map<String, Offer> completed = new ConcurrentHashMap<>();

    public BidsWorkload() {
        this(DEFAULT_HOT_AUCTIONS, null);
    }

    private BidsWorkload(int hotAuctions, TierSettings stateful) {
        this.hotAuctions = hotAuctions;
        this.stateful = stateful;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<String> operations() {
        return List.of(OFFER, STATUS);
    }

    /**
     * Offers, then views of the hot auctions' status: the plan's first count of offers, its second of views
     * ({@code --bids N} is {@code --posts N --views 0}; {@code --workload bids --posts N --views M} adds views).
     */
    @Override
    public OperationOrder order(int posts, int views) {
        return OperationOrder.of(new OperationOrder.Stretch(0, posts), new OperationOrder.Stretch(1, views));
    }

    @Override
    public WorkloadOptions options() {
        return new BidsOptions();
    }

    /** Its checker holds the service to the values of its replies, which a sized reply does not carry. */
    @Override
    public boolean takesSizedReplies() {
        return false;
    }

    @Override
    public Workload configured(ObjectNode recorded) {
        BidsParameters parameters = BidsParameters.of(recorded);
        if (parameters == null) {
            return new BidsWorkload(DEFAULT_HOT_AUCTIONS, null);
        }
        int k = parameters.hotAuctions() == null ? DEFAULT_HOT_AUCTIONS : parameters.hotAuctions();
        if (k < 1 || k > MAX_HOT_AUCTIONS) {
            throw new IllegalArgumentException("--hot-auctions must be 1 to " + MAX_HOT_AUCTIONS + ", was " + k);
        }
        if (parameters.tier() != null && !parameters.tier().equals("stateless") && !parameters.onStatefulTier()) {
            throw new IllegalArgumentException("--tier must be stateless or stateful, was '" + parameters.tier() + "'");
        }
        return new BidsWorkload(k, parameters.onStatefulTier() ? StatefulRun.settings(parameters.stateful()) : null);
    }

    public int hotAuctions() {
        return hotAuctions;
    }

    /**
     * On the stateful tier: starts a run of it on the lab's primary (its log and checkpoints emptied). On the
     * stateless tier: stops one an earlier run left on the lab, so that nothing of it runs beside this run.
     */
    @Override
    public void begin(Path labRunDir) throws Exception {
        ManagerClient manager = ManagerClient.forRun(labRunDir);
        if (stateful != null) {
            manager.configureStatefulTier(StatefulRun.contract(stateful));
        } else {
            manager.stopStatefulTier();
        }
    }

    /** The header a request of this run carries: for the stateful tier when the run is on it. */
    private RequestHeader onTier(RequestHeader h) {
        return stateful != null ? h.stateful() : h;
    }

    /** Creates the client's account and login; the first client opened posts the hot auctions. */
    @Override
    public Bidder open(ClientSession s) throws Exception {
        String token = s.signUp();
        synchronized (hot) {
            for (int i = hot.size(); i < hotAuctions; i++) {
                RequestHeader post = onTier(s.next(ReplySize.ORIGINAL));
                AuctionDraft draft = new AuctionDraft("hot auction " + (i + 1) + " of " + s.clientId,
                        "raced by every client of the run", STARTING_PRICE_CENTS, 7 * 86_400);
                hot.add(s.invoke(new Invocation(AuctionRaceModel.POST, null, Map.of("title", draft.title(),
                                "start_cents", draft.startingPriceCents())), post,
                        svc -> svc.postAuction(post, token, draft), p -> Map.of("auction", p.auctionId()),
                        p -> Long.toString(p.auctionId())).result().value().auctionId());
            }
        }
        return new Bidder(s.clientId, s.username(), token, List.copyOf(hot.subList(0, hotAuctions)));
    }

    /** The race on each hot auction, checked for linearizability from the run's history. */
    @Override
    public AuctionRaceModel model() {
        return new AuctionRaceModel();
    }

    @Override
    public Checker checker() {
        return (runDir, tables) -> {
            List<Long> auctions;
            synchronized (hot) {
                auctions = List.copyOf(hot);
            }
            if (stateful != null) {
                return StatefulRun.check(runDir, stateful, auctions, completed.values(), tables);
            }
            return BidsChecker.check(DatabaseEndpoint.loadForAudits(runDir), auctions, completed.values(), tables);
        };
    }

    /** On the stateful tier: its record of the run, {@code stateful.json}, written after the check. */
    @Override
    public void ended(Ended run) throws Exception {
        if (stateful != null) {
            StatefulRun.writeRecord(run);
        }
    }

    /** The tier each run ran on, and the stateful tier's recovery time. */
    @Override
    public RunColumns columns() {
        return TierColumns.COLUMNS;
    }

    /** A view of one auction's leader, price and bid count ({@code auctionStatus}). */
    private record StatusRequest(RequestHeader header, long auctionId) implements Workload.Request {
        @Override
        public String method() {
            return STATUS;
        }

        @Override
        public Outcome<?> invoke(FailoverClient client) throws Exception {
            return client.invoke(STATUS, svc -> svc.auctionStatus(header, auctionId));
        }

        @Override
        public Invocation invocation() {
            return new Invocation(AuctionRaceModel.VIEW, Long.toString(auctionId), null);
        }

        @Override
        public Object replyValue(Outcome<?> outcome) {
            return outcome.result() instanceof Reply<?> r && r.value() instanceof AuctionStatus st
                    ? new StatusReply(st.leadingBidder(), st.highestBidCents(), st.bidCount()) : null;
        }
    }

    /** A view's reply as the history records it. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record StatusReply(String leader, long priceCents, int count) {
    }

    /** A final read of one auction's accepted bids ({@code bidHistory}). */
    private record ReadRequest(RequestHeader header, long auctionId) implements Workload.Request {
        @Override
        public String method() {
            return "bidHistory";
        }

        @Override
        public Outcome<?> invoke(FailoverClient client) throws Exception {
            return client.invoke("bidHistory", svc -> svc.bidHistory(header, auctionId));
        }

        @Override
        public Invocation invocation() {
            return new Invocation(AuctionRaceModel.READ, Long.toString(auctionId), null);
        }

        /** The accepted bids in the order they were accepted (rising amounts), as {@code {bids: [...]}}. */
        @Override
        public Object replyValue(Outcome<?> outcome) {
            if (!(outcome.result() instanceof Reply<?> r && r.value() instanceof BidHistory h)) {
                return null;
            }
            List<AcceptedValue> bids = h.bids().stream()
                    .sorted(Comparator.comparingLong(BidRecord::amountCents).thenComparingLong(BidRecord::bidId))
                    .map(b -> new AcceptedValue(b.bidId(), b.bidder(), b.amountCents())).toList();
            return Map.of("bids", bids);
        }
    }

    /** An accepted bid as a final read records it. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record AcceptedValue(long bid, String bidder, long amountCents) {
    }

    /** An offer as the history records its invocation. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record OfferValue(String bidder, long amountCents) {
    }

    /** An offer's reply as the history records it: the auction after it. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record OfferReply(boolean accepted, String leader, long priceCents, int count, long bid) {
    }

    /** One completed offer: who sent it, what it offered and what the service answered. */
    record Offer(String clientId, long seq, long auctionId, long amountCents, BidOutcome outcome) {
        /** The bidder's username, as the service knows it. */
        String bidder() {
            return clientId.replace('-', '_');
        }
    }

    /** One client's generator: its login and its own last bid on each hot auction. */
    public final class Bidder implements Workload.Client {
        private final String clientId;
        private final String username;
        private final String token;
        private final List<Long> auctions;
        private final long[] offersOn;
        private final SplittableRandom random;

        private Bidder(String clientId, String username, String token, List<Long> auctions) {
            this.clientId = clientId;
            this.username = username;
            this.token = token;
            this.auctions = auctions;
            this.offersOn = new long[auctions.size()];
            this.random = new SplittableRandom(clientId.hashCode());
        }

        /** Each hot auction's accepted bids, read once the run is over: what the run left, in the history. */
        @Override
        public List<Workload.Request> finalReads(Supplier<RequestHeader> header) {
            List<Workload.Request> reads = new ArrayList<>();
            for (long auction : auctions) {
                reads.add(new ReadRequest(onTier(header.get()), auction));
            }
            return reads;
        }

        @Override
        public Workload.Request next(int operation, RequestHeader header, String tag) {
            int a = random.nextInt(auctions.size());
            if (operation == 1) {
                return new StatusRequest(onTier(header), auctions.get(a));
            }
            long amount = STARTING_PRICE_CENTS + offersOn[a]++ * STEP_CENTS + random.nextInt(SPREAD_CENTS);
            return new OfferRequest(onTier(header), auctions.get(a), amount);
        }

        private final class OfferRequest implements Workload.Request {
            private final RequestHeader header;
            private final long auctionId;
            private final long amountCents;

            OfferRequest(RequestHeader header, long auctionId, long amountCents) {
                this.header = header;
                this.auctionId = auctionId;
                this.amountCents = amountCents;
            }

            @Override
            public String method() {
                return OFFER;
            }

            @Override
            public Outcome<Reply<BidOutcome>> invoke(FailoverClient client) throws Exception {
                return client.invoke(OFFER, svc -> svc.offerBid(header, token, auctionId, amountCents));
            }

            @Override
            public Invocation invocation() {
                return new Invocation(AuctionRaceModel.OFFER, Long.toString(auctionId),
                        new OfferValue(username, amountCents));
            }

            @Override
            public Object replyValue(Outcome<?> outcome) {
                return outcome.result() instanceof Reply<?> r && r.value() instanceof BidOutcome o
                        ? new OfferReply(o.accepted(), o.leadingBidder(), o.highestBidCents(), o.bidCount(),
                                o.bidId()) : null;
            }

            @Override
            public String replyDigest(Outcome<?> outcome) {
                return outcome.result() instanceof Reply<?> r && r.value() instanceof BidOutcome o ? o.digest() : null;
            }

            @Override
            public void completed(Outcome<?> outcome) {
                if (outcome.result() instanceof Reply<?> r && r.value() instanceof BidOutcome o) {
                    completed.put(clientId + "#" + header.seq(), new Offer(clientId, header.seq(), auctionId,
                            amountCents, o));
                }
            }
        }
    }
}
