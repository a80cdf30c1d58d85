package org.ftlab.auction.server;

import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.ejb.EJBException;
import jakarta.ejb.LocalBean;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionManagement;
import jakarta.ejb.TransactionManagementType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.PersistenceException;
import jakarta.transaction.Status;
import jakarta.transaction.SystemException;
import jakarta.transaction.UserTransaction;
import java.io.Serializable;
import java.security.SecureRandom;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.ftlab.auction.api.AccountInfo;
import org.ftlab.auction.api.AuctionClosedException;
import org.ftlab.auction.api.AuctionDetails;
import org.ftlab.auction.api.AuctionDraft;
import org.ftlab.auction.api.AuctionException;
import org.ftlab.auction.api.AuctionPosted;
import org.ftlab.auction.api.AuctionService;
import org.ftlab.auction.api.AuctionStatus;
import org.ftlab.auction.api.BidHistory;
import org.ftlab.auction.api.BidOutcome;
import org.ftlab.auction.api.BidReceipt;
import org.ftlab.auction.api.BidRecord;
import org.ftlab.auction.api.BidTooLowException;
import org.ftlab.auction.api.InvalidAccountInfoException;
import org.ftlab.auction.api.InvalidAuctionInfoException;
import org.ftlab.auction.api.InvalidRequestException;
import org.ftlab.auction.api.LoginToken;
import org.ftlab.auction.api.MicroClock;
import org.ftlab.auction.api.NotLoggedInException;
import org.ftlab.auction.api.ReplicaProperties;
import org.ftlab.auction.api.Reply;
import org.ftlab.auction.api.ReplySize;
import org.ftlab.auction.api.RequestHeader;
import org.ftlab.auction.api.ServerProbes;
import org.ftlab.auction.api.ThreadSchedstat;
import org.ftlab.auction.api.TierProbes;
import org.ftlab.auction.api.UnknownAuctionException;
import org.ftlab.auction.api.UnknownUserException;
import org.ftlab.auction.server.stateful.StatefulTierBean;
import org.ftlab.stateful.AuctionBook;
import org.ftlab.stateful.Input;
import org.ftlab.stateful.Output;
import org.ftlab.stateful.StatefulNetwork;

/**
 * The auction service on one replica. Stateless: everything durable, logins included, lives in the database, so any
 * replica can serve any request and a backup can take over without state transfer.
 *
 * <p>Transactions are bean-managed so that the probes can bracket exactly the database work (begin to commit), and so
 * that a request-log conflict can be resolved by reading the winner's reply in a fresh transaction.
 */
@Stateless(name = "AuctionServiceBean")
@LocalBean // the HTTP door (server.http) calls it in the replica's JVM, by reference
@TransactionManagement(TransactionManagementType.BEAN)
public class AuctionServiceBean implements AuctionService {
    private static final String REPLICA = System.getProperty("jboss.node.name", "unnamed");
    private static final Duration LOGIN_VALIDITY = Duration.ofHours(24);
    private static final Pattern USERNAME = Pattern.compile("[A-Za-z0-9_.-]{3,64}");
    private static final int MIN_PASSWORD_LENGTH = 8;
    private static final int MAX_PASSWORD_LENGTH = 128;
    private static final SecureRandom RANDOM = new SecureRandom();
    /** MySQL/MariaDB "duplicate entry" (ER_DUP_ENTRY). */
    private static final int DUPLICATE_KEY_ERROR = 1062;
    /** SQLState of a transaction the database rolled back to break a deadlock (or a serialization conflict). */
    private static final String ROLLED_BACK_STATE = "40001";
    /** MySQL/MariaDB "lock wait timeout exceeded" (ER_LOCK_WAIT_TIMEOUT): only the statement was rolled back. */
    private static final int LOCK_WAIT_TIMEOUT_ERROR = 1205;
    /** Runs of one request's transaction when the database rolls it back for a conflict (duplicate key, deadlock). */
    private static final int MAX_TRANSACTION_RUNS = 3;
    /** On only for the stale-read negative control ({@link ReplicaProperties#STALE_READS}). */
    static final boolean STALE_READS = ReplicaProperties.staleReadsOn();
    /** The stale-read control's cache: an auction's first status, never invalidated. */
    private static final Map<Long, AuctionStatus> STALE_STATUS = new ConcurrentHashMap<>();

    /** Off only for the exactly-once exercise ({@link ReplicaProperties#REQUEST_LOG}). */
    static final boolean REQUEST_LOG = ReplicaProperties.requestLogOn();
    /** Whether the lab records events: then the probes also read the scheduler's counters (a few µs a request). */
    static final boolean OBSERVE = ReplicaProperties.observeOn();

    @PersistenceContext(unitName = "ftlab")
    private EntityManager em;

    @Resource
    private UserTransaction tx;

    /** The persistence unit's data source: only to name the transaction's connection for the probes. */
    @Resource(lookup = "java:jboss/datasources/FtlabDS")
    private DataSource dataSource;

    /** The stateful tier on this replica: requests whose header says {@link RequestHeader#isStateful()}. */
    @EJB
    private StatefulTierBean statefulTier;

    /** Login tokens the stateful tier has seen, with their user and expiry: checked once in the database. */
    private static final ConcurrentHashMap<String, Object[]> STATEFUL_LOGINS =
            new ConcurrentHashMap<>();

    @Override
    public String ping() {
        return REPLICA;
    }

    @Override
    public Reply<AccountInfo> createAccount(RequestHeader header, String username, String password)
            throws InvalidAccountInfoException, InvalidRequestException {
        long received = arrive(header);
        checkHeader(header);
        if (username == null || !USERNAME.matcher(username).matches()) {
            throw new InvalidAccountInfoException("username must be 3 to 64 letters, digits, '_', '.' or '-', was '"
                    + username + "'");
        }
        if (password == null || password.length() < MIN_PASSWORD_LENGTH || password.length() > MAX_PASSWORD_LENGTH) {
            throw new InvalidAccountInfoException("password must be " + MIN_PASSWORD_LENGTH + " to "
                    + MAX_PASSWORD_LENGTH + " characters");
        }
        String hash = PasswordHasher.hash(password);
        return executeOnce(header, "createAccount", received, () -> {
            if (findAccount(username) != null) {
                throw new InvalidAccountInfoException("username '" + username + "' is taken; choose another");
            }
            Account account = new Account(username, hash, Instant.now());
            em.persist(account);
            return new AccountInfo(account.getId(), username);
        }, InvalidAccountInfoException.class);
    }

    @Override
    public Reply<LoginToken> login(RequestHeader header, String username, String password)
            throws UnknownUserException, InvalidRequestException {
        long received = arrive(header);
        checkHeader(header);
        if (username == null || password == null) {
            throw new UnknownUserException("username and password are required");
        }
        return executeOnce(header, "login", received, () -> {
            Account account = findAccount(username);
            if (account == null || !PasswordHasher.matches(password, account.getPasswordHash())) {
                throw new UnknownUserException("unknown user '" + username + "' or wrong password");
            }
            String token = newToken();
            em.persist(new LoginSession(token, account, Instant.now().plus(LOGIN_VALIDITY)));
            return new LoginToken(token, account.getId());
        }, UnknownUserException.class);
    }

    @Override
    public Reply<AuctionPosted> postAuction(RequestHeader header, String loginToken, AuctionDraft draft)
            throws InvalidAuctionInfoException, NotLoggedInException, InvalidRequestException {
        long received = arrive(header);
        checkHeader(header);
        checkDraft(draft);
        checkTokenPresent(loginToken);
        if (header.isStateful()) {
            Output out = stateful(header, new Input.Open(header.clientId(), header.seq(), statefulUser(loginToken),
                    draft.title(), draft.startingPriceCents()));
            return statefulReply(new AuctionPosted(((Output.Opened) out).auctionId(), Long.MAX_VALUE), header,
                    received);
        }
        return executeOnce(header, "postAuction", received, () -> {
            Account seller = loggedInAccount(loginToken);
            Instant now = Instant.now();
            Instant closesAt = now.plusSeconds(draft.durationSeconds());
            Auction auction = new Auction(seller, draft.title(), draft.description(), draft.startingPriceCents(),
                    now, closesAt);
            em.persist(auction);
            return new AuctionPosted(auction.getId(), closesAt.toEpochMilli());
        }, InvalidAuctionInfoException.class, NotLoggedInException.class);
    }

    @Override
    public Reply<AuctionDetails> viewAuction(RequestHeader header, long auctionId)
            throws UnknownAuctionException, InvalidRequestException {
        long received = arrive(header);
        checkHeader(header);
        return executeRead(header, received, () -> {
            Auction a = readAuction(auctionId, "select a from Auction a join fetch a.seller where a.id = :id");
            return new AuctionDetails(a.getId(), a.getSeller().getUsername(), a.getTitle(), a.getDescription(),
                    a.getStartingPriceCents(), a.getHighestBidCents(), a.getBidCount(),
                    a.getClosesAt().toEpochMilli(), a.isOpenAt(Instant.now()));
        }, UnknownAuctionException.class);
    }

    @Override
    public Reply<BidReceipt> placeBid(RequestHeader header, String loginToken, long auctionId, long amountCents)
            throws NotLoggedInException, UnknownAuctionException, BidTooLowException, AuctionClosedException,
            InvalidRequestException {
        long received = arrive(header);
        checkHeader(header);
        checkTokenPresent(loginToken);
        if (amountCents <= 0 || amountCents > AuctionDraft.MAX_PRICE_CENTS) {
            throw new BidTooLowException("bid must be 1 to " + AuctionDraft.MAX_PRICE_CENTS + " cents, was "
                    + amountCents);
        }
        return executeOnce(header, "placeBid", received, () -> {
            Account bidder = loggedInAccount(loginToken);
            Instant now = Instant.now();
            Auction auction = openAuctionLocked(auctionId, now);
            if (amountCents <= auction.amountToBeat()) {
                throw new BidTooLowException(auction.getBidCount() == 0
                        ? "bid of " + amountCents + " cents is below the starting price of "
                                + auction.getStartingPriceCents() + " cents"
                        : "bid of " + amountCents + " cents does not beat the highest bid of "
                                + auction.getHighestBidCents() + " cents");
            }
            auction.acceptBid(bidder, amountCents);
            Bid bid = new Bid(auction, bidder, amountCents, now);
            em.persist(bid);
            return new BidReceipt(bid.getId(), auctionId, amountCents, now.toEpochMilli());
        }, NotLoggedInException.class, UnknownAuctionException.class, BidTooLowException.class,
                AuctionClosedException.class);
    }

    @Override
    public Reply<BidOutcome> offerBid(RequestHeader header, String loginToken, long auctionId, long amountCents)
            throws NotLoggedInException, UnknownAuctionException, AuctionClosedException, InvalidRequestException {
        long received = arrive(header);
        checkHeader(header);
        checkTokenPresent(loginToken);
        if (amountCents <= 0 || amountCents > AuctionDraft.MAX_PRICE_CENTS) {
            throw new InvalidRequestException("bid must be 1 to " + AuctionDraft.MAX_PRICE_CENTS + " cents, was "
                    + amountCents);
        }
        if (header.isStateful()) {
            Output out = stateful(header, new Input.Bid(header.clientId(), header.seq(), statefulUser(loginToken),
                    auctionId, amountCents));
            if (out instanceof Output.Refused refused) {
                throw new UnknownAuctionException(refused.reason());
            }
            Output.BidResult b = (Output.BidResult) out;
            return statefulReply(new BidOutcome(b.auctionId(), b.amountCents(), b.accepted(), b.bidId(),
                    b.leadingBidder(), b.highestBidCents(), b.bidCount()), header, received);
        }
        return executeOnce(header, "offerBid", received, () -> {
            Account bidder = loggedInAccount(loginToken);
            Instant now = Instant.now();
            Auction auction = openAuctionLocked(auctionId, now);
            if (amountCents <= auction.amountToBeat()) {
                Account leader = auction.getHighestBidder();
                return new BidOutcome(auctionId, amountCents, false, 0, leader == null ? null : leader.getUsername(),
                        auction.getHighestBidCents(), auction.getBidCount());
            }
            auction.acceptBid(bidder, amountCents);
            Bid bid = new Bid(auction, bidder, amountCents, now);
            em.persist(bid);
            return new BidOutcome(auctionId, amountCents, true, bid.getId(), bidder.getUsername(), amountCents,
                    auction.getBidCount());
        }, NotLoggedInException.class, UnknownAuctionException.class, AuctionClosedException.class);
    }

    @Override
    public Reply<BidHistory> bidHistory(RequestHeader header, long auctionId)
            throws UnknownAuctionException, InvalidRequestException {
        long received = arrive(header);
        checkHeader(header);
        if (header.isStateful()) { // the tier's book, read where it runs: no input logged
            List<AuctionBook.AcceptedBid> accepted = statefulTier.acceptedBids(auctionId);
            if (accepted == null) {
                throw new UnknownAuctionException("no auction " + auctionId + " in the stateful tier");
            }
            List<BidRecord> bids = new ArrayList<>();
            for (int i = accepted.size() - 1; i >= 0; i--) { // as the database's reply: highest first
                AuctionBook.AcceptedBid b = accepted.get(i);
                bids.add(new BidRecord(b.bidId(), b.bidder(), b.amountCents(), 0));
            }
            return reply(new BidHistory(auctionId, bids), header, false, received, 0, 0);
        }
        return executeRead(header, received, () -> {
            readAuction(auctionId, "select a from Auction a where a.id = :id");
            List<BidRecord> bids = em.createQuery(
                            "select b from Bid b join fetch b.bidder where b.auction.id = :id"
                                    + " order by b.amountCents desc, b.id desc", Bid.class)
                    .setParameter("id", auctionId)
                    .getResultList().stream()
                    .map(b -> new BidRecord(b.getId(), b.getBidder().getUsername(), b.getAmountCents(),
                            b.getPlacedAt().toEpochMilli()))
                    .toList();
            return new BidHistory(auctionId, bids);
        }, UnknownAuctionException.class);
    }

    @Override
    public Reply<AuctionStatus> auctionStatus(RequestHeader header, long auctionId)
            throws UnknownAuctionException, InvalidRequestException {
        long received = arrive(header);
        checkHeader(header);
        if (STALE_READS && STALE_STATUS.containsKey(auctionId)) { // the negative control: never invalidated
            return reply(STALE_STATUS.get(auctionId), header, false, received, 0, 0);
        }
        if (header.isStateful()) { // the tier's book, read where it runs: no input logged
            List<AuctionBook.AcceptedBid> accepted = statefulTier.acceptedBids(auctionId);
            if (accepted == null) {
                throw new UnknownAuctionException("no auction " + auctionId + " in the stateful tier");
            }
            AuctionBook.AcceptedBid top = accepted.isEmpty() ? null : accepted.get(accepted.size() - 1);
            AuctionStatus status = new AuctionStatus(auctionId, true, top == null ? 0 : top.amountCents(),
                    top == null ? null : top.bidder(), accepted.size(), Long.MAX_VALUE);
            if (STALE_READS) {
                STALE_STATUS.putIfAbsent(auctionId, status);
            }
            return reply(status, header, false, received, 0, 0);
        }
        Reply<AuctionStatus> r = executeRead(header, received, () -> {
            Auction a = readAuction(auctionId,
                    "select a from Auction a left join fetch a.highestBidder where a.id = :id");
            String leader = a.getHighestBidder() == null ? null : a.getHighestBidder().getUsername();
            return new AuctionStatus(a.getId(), a.isOpenAt(Instant.now()), a.getHighestBidCents(), leader,
                    a.getBidCount(), a.getClosesAt().toEpochMilli());
        }, UnknownAuctionException.class);
        if (STALE_READS && r.value() != null) {
            STALE_STATUS.putIfAbsent(auctionId, r.value());
        }
        return r;
    }

    // ---- the stateful tier ------------------------------------------------------------------------------------

    /** The answer of the stateful tier on this replica to one input; its measures wait in {@link #tierAnswer}. */
    private Output stateful(RequestHeader header, Input input) {
        StatefulTierBean.Answer a = statefulTier.submit(input);
        tierAnswer = a;
        return a.result().output();
    }

    /** The stateful tier's answer to this invocation, for its reply's {@link TierProbes}. */
    private StatefulTierBean.Answer tierAnswer;

    private <T extends Serializable> Reply<T> statefulReply(T value, RequestHeader header, long received) {
        StatefulNetwork.Result res = tierAnswer.result();
        TierProbes probes = new TierProbes(res.logNanos() / 1000, res.pessimismDelayNanos() / 1000, res.probes(),
                res.outOfOrder(), res.gateway() + 1, tierAnswer.recoveryWaitMicros(), res.vt());
        tierAnswer = null;
        return reply(value, header, res.replayed(), received, 0, 0, probes);
    }

    /** The user of a login token, for the stateful tier (which keeps no accounts): checked once, then remembered. */
    private String statefulUser(String token) throws NotLoggedInException {
        Object[] known = STATEFUL_LOGINS.get(token);
        if (known == null) {
            List<Object[]> rows = em.createQuery("select a.username, s.expiresAt from LoginSession s join s.account a"
                    + " where s.token = :t", Object[].class).setParameter("t", token).getResultList();
            if (rows.isEmpty()) {
                throw new NotLoggedInException("not logged in: unknown login token; log in first");
            }
            known = rows.get(0);
            STATEFUL_LOGINS.put(token, known);
        }
        if (!Instant.now().isBefore((Instant) known[1])) {
            STATEFUL_LOGINS.remove(token);
            throw new NotLoggedInException("not logged in: the login expired at " + known[1] + "; log in again");
        }
        return (String) known[0];
    }

    // ---- exactly-once execution -------------------------------------------------------------------------------

    /** Business work run inside a transaction; may refuse the request with a declared exception. */
    @FunctionalInterface
    private interface Work<T extends Serializable> {
        T run() throws AuctionException;
    }

    /**
     * Runs a state-changing request at most once per {@code (clientId, seq)}: the reply is stored in request_log in
     * the same transaction as the change. A rehearsal (a header from {@link RequestHeader#rehearsal}) runs all of it
     * and rolls back. A request already in the log returns the stored reply; a concurrent twin
     * (e.g. the same retry reaching two replicas) loses on the primary key, rolls back, and returns the winner's reply.
     * A transaction the database rolls back for a conflict (see {@link #isConflict}) runs again, at most
     * {@value #MAX_TRANSACTION_RUNS} times in all.
     */
    private <T extends Serializable, E extends Exception> Reply<T> executeOnce(RequestHeader header, String operation,
            long received, Work<T> work, Class<?>... declared) throws E {
        RequestLogEntry.Key key = new RequestLogEntry.Key(header.clientId(), header.seq());
        long dbStart = probe(header);
        for (int attempt = 1; ; attempt++) {
            try {
                tx.begin();
                if (OBSERVE && header.probes() && header.observed()) {
                    database = DatabaseThreads.start(dataSource); // takes the connection the statements will use
                }
                RequestLogEntry done = REQUEST_LOG ? em.find(RequestLogEntry.class, key) : null;
                if (done != null) {
                    long commitStart = probe(header);
                    tx.commit();
                    return replay(header, operation, done, received, dbStart, commitStart);
                }
                T value = work.run();
                if (REQUEST_LOG) {
                    em.persist(new RequestLogEntry(header.clientId(), header.seq(), operation,
                            ReplyCodec.serialize(value), Instant.now()));
                }
                em.flush();
                long commitStart = 0;
                if (header.isRehearsal()) {
                    tx.rollback(); // every statement ran; nothing is kept
                } else {
                    commitStart = probe(header);
                    tx.commit();
                }
                return reply(value, header, false, received, dbStart, commitStart);
            } catch (AuctionException refused) {
                boolean readFailed = markedForRollback();
                rollbackQuietly();
                if (readFailed) {
                    // Hibernate's find answers null, not an exception, once the transaction is marked for rollback
                    // (HHH-12472), and WildFly marks it when a connection breaks (the database's writer died): the
                    // refusal rests on a read that failed, not on the data. The client tries again.
                    throw new EJBException("database failure in " + operation + ": a read failed, so the refusal '"
                            + refused.getMessage() + "' is void");
                }
                throw this.<E>declared(refused, declared);
            } catch (PersistenceException e) {
                rollbackQuietly();
                // A conflict with a concurrent transaction, not a failure of this replica: run the transaction again.
                // A unique key taken by the twin of this request (or by a request racing for the same username): the
                // replay check or the business check now sees it. A deadlock: when a replica dies in the middle of a
                // request, its twins on other replicas wait for its request_log row; its rollback wakes them all, and
                // the database picks one as the deadlock victim. A lock wait that timed out: the holder may be gone.
                if (attempt < MAX_TRANSACTION_RUNS && isConflict(e)) {
                    continue;
                }
                throw new EJBException("database failure in " + operation + ": " + e.getMessage(), e);
            } catch (RuntimeException e) {
                rollbackQuietly();
                throw e;
            } catch (Exception e) {
                rollbackQuietly();
                throw new EJBException("transaction failure in " + operation + ": " + e.getMessage(), e);
            }
        }
    }

    /**
     * Runs a read-only request outside any transaction: nothing to log (re-running it changes nothing), and no
     * begin, commit or autocommit switches, only the query itself on a connection in autocommit mode. Each read
     * fetches what it returns in one statement (join fetch), so it sees one committed state.
     */
    private <T extends Serializable, E extends Exception> Reply<T> executeRead(RequestHeader header, long received,
            Work<T> work, Class<?>... declared) throws E {
        long dbStart = probe(header);
        try {
            return reply(work.run(), header, false, received, dbStart, 0);
        } catch (AuctionException refused) {
            throw this.<E>declared(refused, declared);
        }
    }

    @SuppressWarnings("unchecked")
    private <T extends Serializable> Reply<T> replay(RequestHeader header, String operation, RequestLogEntry done,
            long received, long dbStart, long commitStart) throws InvalidRequestException {
        if (!done.getOperation().equals(operation)) {
            throw new InvalidRequestException("request " + header.clientId() + "#" + header.seq() + " was already used"
                    + " for " + done.getOperation() + ", not " + operation + "; use a new seq for every request");
        }
        return reply((T) ReplyCodec.deserialize(done.getReply()), header, true, received, dbStart, commitStart);
    }

    private <T extends Serializable> Reply<T> reply(T value, RequestHeader header, boolean replayed, long received,
            long dbStart, long commitStart) {
        return reply(value, header, replayed, received, dbStart, commitStart, null);
    }

    /** As above, with the stateful tier's measures of the request (null on the stateless tier). */
    private <T extends Serializable> Reply<T> reply(T value, RequestHeader header, boolean replayed, long received,
            long dbStart, long commitStart, TierProbes tierProbes) {
        long dbEnd = probe(header);
        ReplySize size = header.replySize();
        long thread = Thread.currentThread().getId();
        long cpu = ThreadSchedstat.UNKNOWN;
        long runQueue = ThreadSchedstat.UNKNOWN;
        if (arrivalSchedstat[0] >= 0) {
            ThreadSchedstat.read(replySchedstat);
            cpu = ThreadSchedstat.deltaMicros(arrivalSchedstat[0], replySchedstat[0]);
            runQueue = ThreadSchedstat.deltaMicros(arrivalSchedstat[1], replySchedstat[1]);
        }
        long[] db = database == null ? new long[] {-1, -1} : database.sinceStart();
        long connection = database == null ? -1 : database.connection();
        database = null;
        if (size.isOriginal()) {
            return new Reply<>(value, null, replayed, REPLICA, new ServerProbes(received, dbStart, commitStart, dbEnd,
                    probe(header), thread, cpu, runQueue, db[0], db[1], connection), tierProbes);
        }
        byte[] payload = ReplyCodec.sizedPayload(value, size);
        return new Reply<>(null, payload, replayed, REPLICA, new ServerProbes(received, dbStart, commitStart, dbEnd,
                probe(header), thread, cpu, runQueue, db[0], db[1], connection), tierProbes);
    }

    /**
     * The thread's scheduler readings when this invocation arrived (the container runs one invocation at a time on
     * a stateless instance, so they are this invocation's until its reply).
     */
    private final long[] arrivalSchedstat = {ThreadSchedstat.UNKNOWN, ThreadSchedstat.UNKNOWN};
    private final long[] replySchedstat = new long[2];
    /** The database thread's readings at the start of this invocation's transaction, or null. */
    private DatabaseThreads.Reading database;

    /** The arrival probe: its timestamp, and the thread's CPU and run-queue times then (none without probes). */
    private long arrive(RequestHeader header) {
        if (OBSERVE && (header == null || header.probes() && header.observed())) {
            ThreadSchedstat.read(arrivalSchedstat);
        } else {
            arrivalSchedstat[0] = ThreadSchedstat.UNKNOWN;
            arrivalSchedstat[1] = ThreadSchedstat.UNKNOWN;
        }
        database = null;
        return probe(header);
    }

    /** A probe timestamp (µs since the epoch), or 0 when the request asked for none (probe-overhead benchmark). */
    private static long probe(RequestHeader header) {
        return header == null || header.probes() ? MicroClock.nowEpochMicros() : 0;
    }

    /** Rethrows a business refusal as the checked type the operation declares (all callers list theirs). */
    @SuppressWarnings("unchecked")
    private <E extends Exception> E declared(AuctionException refused, Class<?>... declared) throws E {
        for (Class<?> type : declared) {
            if (type.isInstance(refused)) {
                throw (E) refused;
            }
        }
        if (refused instanceof InvalidRequestException) {
            throw (E) refused;
        }
        throw new EJBException("undeclared refusal " + refused.getClass().getSimpleName() + ": "
                + refused.getMessage());
    }

    /** Whether the transaction can only roll back: a statement of it failed, whether or not it threw. */
    private boolean markedForRollback() {
        try {
            return tx.getStatus() == Status.STATUS_MARKED_ROLLBACK;
        } catch (SystemException e) {
            return true;
        }
    }

    private void rollbackQuietly() {
        try {
            if (tx.getStatus() != Status.STATUS_NO_TRANSACTION) {
                tx.rollback();
            }
        } catch (SystemException | IllegalStateException | SecurityException e) {
            // The transaction is gone either way; the original failure is the one worth reporting.
        }
    }

    /** A duplicate key, a deadlock or a lock wait timeout: the transaction may succeed when run again. */
    static boolean isConflict(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && (sql.getErrorCode() == DUPLICATE_KEY_ERROR
                    || sql.getErrorCode() == LOCK_WAIT_TIMEOUT_ERROR || ROLLED_BACK_STATE.equals(sql.getSQLState()))) {
                return true;
            }
        }
        return false;
    }

    // ---- lookups and validation -------------------------------------------------------------------------------

    private Account findAccount(String username) {
        List<Account> found = em.createQuery("select a from Account a where a.username = :u", Account.class)
                .setParameter("u", username).getResultList();
        return found.isEmpty() ? null : found.get(0);
    }

    private Account loggedInAccount(String token) throws NotLoggedInException {
        LoginSession session = em.find(LoginSession.class, token);
        if (session == null) {
            throw new NotLoggedInException("not logged in: unknown login token; log in first");
        }
        if (!Instant.now().isBefore(session.getExpiresAt())) {
            throw new NotLoggedInException("not logged in: the login expired at " + session.getExpiresAt()
                    + "; log in again");
        }
        return session.getAccount();
    }

    /**
     * The auction a bid is for, its row locked: concurrent bids on one auction are serialised by the database, which
     * decides the race, not by a replica. Refused when it is closed at {@code now}.
     */
    private Auction openAuctionLocked(long auctionId, Instant now) throws UnknownAuctionException,
            AuctionClosedException {
        Auction auction = findAuction(auctionId, LockModeType.PESSIMISTIC_WRITE);
        if (!auction.isOpenAt(now)) {
            throw new AuctionClosedException("auction " + auctionId + " closed at " + auction.getClosesAt());
        }
        return auction;
    }

    /** One auction by a single-row query that fetches what the caller reads (outside a transaction). */
    private Auction readAuction(long auctionId, String jpql) throws UnknownAuctionException {
        List<Auction> found = em.createQuery(jpql, Auction.class).setParameter("id", auctionId).getResultList();
        if (found.isEmpty()) {
            throw new UnknownAuctionException("unknown auction " + auctionId);
        }
        return found.get(0);
    }

    private Auction findAuction(long auctionId, LockModeType lock) throws UnknownAuctionException {
        Auction auction = em.find(Auction.class, auctionId, lock);
        if (auction == null) {
            throw new UnknownAuctionException("unknown auction " + auctionId);
        }
        return auction;
    }

    private static void checkHeader(RequestHeader header) throws InvalidRequestException {
        if (header == null || header.clientId() == null || header.replySize() == null) {
            throw new InvalidRequestException("request header with client id, seq and reply size is required");
        }
        String id = header.clientId();
        if (id.isBlank() || id.length() > RequestHeader.MAX_CLIENT_ID_LENGTH) {
            throw new InvalidRequestException("client id must be 1 to " + RequestHeader.MAX_CLIENT_ID_LENGTH
                    + " characters, was '" + id + "'");
        }
        if (header.seq() < 0) {
            throw new InvalidRequestException("seq must be non-negative, was " + header.seq());
        }
    }

    private static void checkTokenPresent(String token) throws NotLoggedInException {
        if (token == null || token.isBlank()) {
            throw new NotLoggedInException("not logged in: no login token given; log in first");
        }
    }

    private static void checkDraft(AuctionDraft d) throws InvalidAuctionInfoException {
        if (d == null) {
            throw new InvalidAuctionInfoException("auction info is required");
        }
        if (d.title() == null || d.title().isBlank()) {
            throw new InvalidAuctionInfoException("auction title must not be empty");
        }
        if (d.title().length() > AuctionDraft.MAX_TITLE_LENGTH) {
            throw new InvalidAuctionInfoException("auction title is " + d.title().length() + " characters; at most "
                    + AuctionDraft.MAX_TITLE_LENGTH + " allowed");
        }
        if (d.description() != null && d.description().length() > AuctionDraft.MAX_DESCRIPTION_LENGTH) {
            throw new InvalidAuctionInfoException("auction description is " + d.description().length()
                    + " characters; at most " + AuctionDraft.MAX_DESCRIPTION_LENGTH + " allowed");
        }
        if (d.description() == null) {
            throw new InvalidAuctionInfoException("auction description must not be null (use \"\" for none)");
        }
        if (d.startingPriceCents() < 0) {
            throw new InvalidAuctionInfoException("starting price must not be negative, was "
                    + d.startingPriceCents() + " cents");
        }
        if (d.startingPriceCents() > AuctionDraft.MAX_PRICE_CENTS) {
            throw new InvalidAuctionInfoException("starting price must be at most " + AuctionDraft.MAX_PRICE_CENTS
                    + " cents, was " + d.startingPriceCents());
        }
        if (d.durationSeconds() < 1 || d.durationSeconds() > AuctionDraft.MAX_DURATION_SECONDS) {
            throw new InvalidAuctionInfoException("auction duration must be 1 to " + AuctionDraft.MAX_DURATION_SECONDS
                    + " seconds, was " + d.durationSeconds());
        }
    }

    private static String newToken() {
        byte[] bytes = new byte[24];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
