package org.ftlab.rm;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.logging.Logger;
import javax.naming.NamingException;
import org.ftlab.auction.api.AuctionDraft;
import org.ftlab.auction.api.AuctionException;
import org.ftlab.auction.api.AuctionService;
import org.ftlab.auction.api.ReplicaProperties;
import org.ftlab.auction.api.ReplySize;
import org.ftlab.auction.api.RequestHeader;
import org.ftlab.auction.client.ServiceConnection;
import org.ftlab.os.access.ApplicationUser;
import org.ftlab.rm.api.Platform;
import org.ftlab.rm.replica.Replica;

/**
 * Keeps replicas that serve no clients hot, so that a backup or spare serves at full speed from its first request
 * after a fail-over. Through the real remote path (the EJB client, remoting, the bean, Hibernate, the JDBC driver,
 * the database) — and, once the primary's hot code shows that clients use the HTTP door, through that door too, the
 * rounds taking the doors in turn — it sends every operation of the service: ping, the three reads of a fixture auction, rehearsals
 * of posting an auction and bidding (run in full, then rolled back: nothing is stored, see
 * {@link RequestHeader#rehearsal}), and the fixture's own post sent again (found in the request log, its stored reply
 * returned and the transaction committed: the path of a client's retry, and the commit path, which a rehearsal never
 * takes; nothing is stored either; not on replicas without the request log).
 * <ul>
 * <li>{@link #warmUp}: {@code bootRounds} rounds on a replica that has just booted, before it joins the view or the
 * spare pool: enough for the JIT to compile the request paths, as the primary's own traffic did for it;</li>
 * <li>{@link #keepWarm}: then {@code roundsPerSecond} rounds per second on every backup and spare, so that their
 * connections, pools and compiled code stay as the primary's are; and, where set, {@code hotRoundsPerSecond} on
 * one that is not hot (docs/architecture.md): a rate that keeps a replica warm leaves the request path's methods
 * short of the invocation counts at which the JIT compiles them at its top tier, so the warm-up goes on, faster,
 * until the replica is hot (measured: it does not get there; off by default).</li>
 * </ul>
 * The fixture (an account, a login and one auction, under a client id of the warmer's own) is real: it is created
 * once, on the first replica warmed. Failures are not news here: the Fault Detector judges replicas.
 */
public final class ReplicaWarmer implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(ReplicaWarmer.class.getName());

    public static final int DEFAULT_BOOT_ROUNDS = ReplicaProperties.DEFAULT_WARM_ROUNDS;
    /** The environment variable that sets the boot rounds of every lab started where it is set. */
    public static final String ROUNDS_ENV = "FTLAB_WARM_ROUNDS";
    public static final double DEFAULT_ROUNDS_PER_SECOND = 5;
    /** The environment variable that sets the rounds per second on idle replicas of every lab started where it is set. */
    public static final String RATE_ENV = "FTLAB_WARM_RATE";
    /**
     * Rounds per second on a backup or spare until it is hot; by default none beyond the usual rate: measured, even
     * 200 a second did not bring a backup to the share that makes it hot, and under load the rounds took CPU from
     * the primary (docs/performance.md §3).
     */
    public static final double DEFAULT_HOT_ROUNDS_PER_SECOND = 0;
    /** The environment variable that sets the rounds per second on replicas that are not hot yet. */
    public static final String HOT_RATE_ENV = "FTLAB_WARM_TO_HOT_RATE";
    /** The environment variable that, {@code true}, warms every booting C2 replica until its JIT has settled. */
    public static final String SETTLE_ENV = "FTLAB_WARM_UNTIL_SETTLED";
    /** How often the rounds owed to each replica are sent. */
    private static final long TICK_MILLIS = 200;
    private static final long INVOCATION_TIMEOUT_MILLIS = 5_000;

    private final ApplicationUser user;
    private final int bootRounds;
    private final double roundsPerSecond;
    private final double hotRoundsPerSecond;
    private final boolean replays;
    /** Rounds owed to each replica since its last rounds were sent (fractions carry over). */
    private final Map<String, Double> owed = new ConcurrentHashMap<>();
    private final String clientId;
    private final AtomicLong seq = new AtomicLong();
    /** One connection per replica and door ({@code r2/ejb}). */
    private final Map<String, ServiceConnection> connections = new ConcurrentHashMap<>();
    /** The doors the rounds go through, in turn: remote EJB, and the HTTP door once clients use it. */
    private volatile Supplier<List<Platform>> doors = () -> List.of(Platform.EJB);
    /** Rounds sent so far to each replica, which picks each round's door. */
    private final Map<String, AtomicLong> roundsTo = new ConcurrentHashMap<>();
    private final Set<String> busy = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(daemon("warmer-tick"));
    private final ExecutorService rounds = Executors.newFixedThreadPool(2, daemon("warmer"));
    private final AtomicLong roundsRun = new AtomicLong();
    /** Each replica's boot warm-up, as it ended. */
    private final Map<String, BootWarmUp> bootWarmUps = new ConcurrentHashMap<>();
    private volatile String token;
    private volatile long auctionId;
    /** The request that posted the fixture auction: sent again in every round, it is a replay. */
    private volatile RequestHeader fixturePost;
    private static final AuctionDraft FIXTURE = new AuctionDraft("warm-up fixture", "read and bid on by rehearsals",
            100, AuctionDraft.MAX_DURATION_SECONDS);
    /** What each boot round posts for real (and bids on): a short auction of the warmer's own. */
    private static final AuctionDraft FIXTURE_WRITE = new AuctionDraft("warm-up write", "committed by a boot round",
            100, 3_600);
    private volatile boolean closed;

    /**
     * A warmer for the lab's application user; {@code roundsPerSecond} 0 keeps no replica warm after boot,
     * {@code hotRoundsPerSecond} 0 warms one that is not hot at the same rate as one that is; {@code replays} false
     * for replicas without the request log, where the fixture's post sent again would post it again.
     */
    public ReplicaWarmer(ApplicationUser user, int bootRounds, double roundsPerSecond, double hotRoundsPerSecond,
            boolean replays) {
        if (bootRounds < 0 || roundsPerSecond < 0 || roundsPerSecond > 100 || hotRoundsPerSecond < 0
                || hotRoundsPerSecond > 500) {
            throw new IllegalArgumentException("warm-up rounds must be >= 0, the rate 0 to 100 per second and the "
                    + "rate until hot 0 to 500, was " + bootRounds + ", " + roundsPerSecond + " and "
                    + hotRoundsPerSecond);
        }
        this.user = user;
        this.bootRounds = bootRounds;
        this.roundsPerSecond = roundsPerSecond;
        this.hotRoundsPerSecond = hotRoundsPerSecond;
        this.replays = replays;
        this.clientId = "ftlab-warmer-" + Long.toString(System.nanoTime() & 0xffffffL, 36);
    }

    private static ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    /** What says whether a replica's JIT has settled: asked after every {@value #SETTLE_BATCH} rounds past the boot ones. */
    @FunctionalInterface
    public interface Settling {
        /** Settled from the start: the boot rounds only. */
        Settling NONE = () -> true;

        /** Whether the replica's compilers have caught up with what the rounds so far run. */
        boolean settled();
    }

    /** Threads a boot warm-up sends its rounds from at once. */
    static final int BOOT_STREAMS = 4;
    /** Rounds between two readings of whether the JIT has settled. */
    static final int SETTLE_BATCH = 200;
    /** The most rounds a boot warm-up runs while the JIT has not settled, as a multiple of the boot rounds. */
    static final int SETTLE_MAX_FACTOR = 10;

    /** Runs the boot rounds on {@code replica} (blocking); returns how long they took, ms (-1 if they failed). */
    public long warmUp(Replica replica) {
        return warmUp(replica, Settling.NONE);
    }

    /**
     * Runs the boot rounds on {@code replica}, then more, {@value #SETTLE_BATCH} at a time, until {@code settling} says
     * its JIT has settled (at most {@value #SETTLE_MAX_FACTOR} times the boot rounds in all), blocking; returns how
     * long they took, ms (-1 if they failed). Unless {@code settling} is {@link Settling#NONE}, the rounds come from
     * {@value #BOOT_STREAMS} threads at once and each also commits a real post and bid of the warmer's own
     * ({@link #bootRounds}): measured, a new primary warmed by rehearsals alone compiled the commit path of a write
     * and the contended paths of its queues only once clients reached it (docs/performance.md §3).
     */
    public long warmUp(Replica replica, Settling settling) {
        if (bootRounds == 0) {
            return 0;
        }
        long t0 = System.nanoTime();
        ExecutorService streams = null;
        try {
            ensureFixture(connection(replica, Platform.EJB).service());
            Doors s = doorsOf(replica);
            if (settling == Settling.NONE) { // the boot rounds as they always were: one stream, nothing written
                int i = 0;
                for (; i < bootRounds && !closed; i++) {
                    round(s.next());
                }
                bootWarmUps.put(replica.name(), new BootWarmUp(i, true));
                return (System.nanoTime() - t0) / 1_000_000;
            }
            streams = Executors.newFixedThreadPool(BOOT_STREAMS, daemon("warmer-boot"));
            int i = bootRounds(streams, s, bootRounds);
            int max = bootRounds * SETTLE_MAX_FACTOR;
            boolean settled = false;
            while (!closed && i < max && !(settled = settling.settled())) {
                i += bootRounds(streams, s, SETTLE_BATCH);
            }
            bootWarmUps.put(replica.name(), new BootWarmUp(i, settled));
            return (System.nanoTime() - t0) / 1_000_000;
        } catch (NamingException | AuctionException | RuntimeException e) {
            LOG.warning("warm-up of " + replica.name() + " stopped: " + e.getMessage());
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        } catch (ExecutionException e) {
            LOG.warning("warm-up of " + replica.name() + " stopped: "
                    + e.getCause().getMessage());
            return -1;
        } finally {
            if (streams != null) {
                streams.shutdownNow();
            }
        }
    }

    /**
     * {@code n} boot rounds on {@code s} from {@value #BOOT_STREAMS} threads at once (the concurrency a served
     * replica sees: its pools and queues take their contended paths), each boot round also committing a real post and
     * a real bid on it under the warmer's own client id (the commit path of a write, which a rehearsal never takes);
     * returns the rounds run.
     */
    private int bootRounds(ExecutorService streams, Doors s, int n)
            throws InterruptedException, ExecutionException {
        List<Future<Integer>> runs = new ArrayList<>();
        for (int t = 0; t < BOOT_STREAMS; t++) {
            int share = n / BOOT_STREAMS + (t < n % BOOT_STREAMS ? 1 : 0);
            runs.add(streams.submit(() -> {
                int done = 0;
                for (; done < share && !closed; done++) {
                    AuctionService door = s.next();
                    round(door);
                    long posted = door.postAuction(header(), token, FIXTURE_WRITE).value().auctionId();
                    door.placeBid(header(), token, posted, 200);
                }
                return done;
            }));
        }
        int done = 0;
        for (var r : runs) {
            done += r.get();
        }
        return done;
    }

    /**
     * From now on, {@code roundsPerSecond} rounds per second on each replica {@code targets} names at the time, and
     * {@code hotRoundsPerSecond} (if higher) on each of them that {@code notHot} says is not hot yet. A replica gets
     * one batch of rounds in flight at a time: one that answers slowly gets fewer, never a queue.
     */
    public void keepWarm(Supplier<List<Replica>> targets, Predicate<String> notHot) {
        keepWarm(targets, notHot, () -> List.of(Platform.EJB));
    }

    /**
     * As above, the rounds going through the doors {@code doorsInUse} names at the time, in turn (the boot rounds of
     * replicas launched from now on too): a promoted replica must be hot on the path its clients take.
     */
    public void keepWarm(Supplier<List<Replica>> targets, Predicate<String> notHot,
            Supplier<List<Platform>> doorsInUse) {
        this.doors = doorsInUse;
        if (roundsPerSecond == 0 && hotRoundsPerSecond == 0) {
            return;
        }
        ticker.scheduleAtFixedRate(() -> {
            List<Replica> now = targets.get();
            owed.keySet().retainAll(now.stream().map(Replica::name).toList());
            for (Replica r : now) {
                boolean toHot = hotRoundsPerSecond > roundsPerSecond && notHot.test(r.name());
                double rate = toHot ? hotRoundsPerSecond : roundsPerSecond;
                // a replica still busy with its last batch owes at most a second's rounds: no backlog builds up
                double cap = Math.max(1, rate);
                double due = owed.merge(r.name(), rate * TICK_MILLIS / 1000.0, (a, b) -> Math.min(a + b, cap));
                int n = (int) Math.floor(due);
                if (n == 0 || closed || token == null || !busy.add(r.name())) {
                    continue;
                }
                owed.put(r.name(), due - n);
                rounds.execute(() -> {
                    try {
                        Doors s = doorsOf(r);
                        for (int i = 0; i < n && !closed; i++) {
                            round(s.next());
                        }
                    } catch (NamingException | AuctionException | RuntimeException e) {
                        forget(r.name()); // reconnect next time; a failed replica leaves the targets
                    } finally {
                        busy.remove(r.name());
                    }
                });
            }
        }, TICK_MILLIS, TICK_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** A replica's boot warm-up: the rounds it got (those while its JIT settled included), and whether it settled. */
    public record BootWarmUp(int rounds, boolean settled) {
    }

    /** How {@code replica}'s boot warm-up ended, or null if none ran. */
    public BootWarmUp bootWarmUpOf(String replica) {
        return bootWarmUps.get(replica);
    }

    /** Rounds run so far, boot rounds included. */
    public long roundsRun() {
        return roundsRun.get();
    }

    /** Drops the connections to a replica that is gone. */
    public void forget(String replicaName) {
        for (Platform p : Platform.values()) {
            ServiceConnection c = connections.remove(replicaName + "/" + p.wireName());
            if (c != null) {
                c.close();
            }
        }
        roundsTo.remove(replicaName);
    }

    private ServiceConnection connection(Replica r, Platform door) throws NamingException {
        String key = r.name() + "/" + door.wireName();
        ServiceConnection c = connections.get(key);
        if (c == null) {
            c = ServiceConnection.open(door, r.remotingUri(), user.username(), user.password(),
                    INVOCATION_TIMEOUT_MILLIS);
            ServiceConnection raced = connections.putIfAbsent(key, c);
            if (raced != null) {
                c.close();
                c = raced;
            }
        }
        return c;
    }

    /** The doors of one replica the rounds take in turn: one round through each door in use, then again. */
    private final class Doors {
        private final List<AuctionService> services;
        private final AtomicLong counter;

        Doors(List<AuctionService> services, AtomicLong counter) {
            this.services = services;
            this.counter = counter;
        }

        AuctionService next() {
            return services.get((int) (counter.getAndIncrement() % services.size()));
        }
    }

    private Doors doorsOf(Replica r) throws NamingException {
        List<AuctionService> services = new ArrayList<>();
        for (Platform p : doors.get()) {
            services.add(connection(r, p).service());
        }
        return new Doors(services, roundsTo.computeIfAbsent(r.name(), k -> new AtomicLong()));
    }

    /** The account, login and auction the rounds use: real, created once, on the first replica warmed. */
    private synchronized void ensureFixture(AuctionService s) throws AuctionException {
        if (token != null) {
            return;
        }
        String username = clientId.replace('-', '_');
        String password = Long.toString(System.nanoTime(), 36) + "-warmer";
        s.createAccount(header(), username, password);
        String t = s.login(header(), username, password).value().token();
        RequestHeader post = header();
        auctionId = s.postAuction(post, t, FIXTURE).value().auctionId();
        fixturePost = post;
        token = t;
    }

    /** One round: every operation once, the state-changing ones as rehearsals, and one replay. */
    private void round(AuctionService s) throws AuctionException {
        s.ping();
        s.viewAuction(header(), auctionId);
        s.auctionStatus(header(), auctionId);
        s.bidHistory(header(), auctionId);
        s.postAuction(RequestHeader.rehearsal(clientId, seq.getAndIncrement()), token,
                new AuctionDraft("rehearsal", "rolled back", 100, 3_600));
        s.placeBid(RequestHeader.rehearsal(clientId, seq.getAndIncrement()), token, auctionId, 1_000);
        if (replays) {
            s.postAuction(fixturePost, token, FIXTURE); // a replay: the stored reply, committed, nothing stored
        }
        roundsRun.incrementAndGet();
    }

    private RequestHeader header() {
        return new RequestHeader(clientId, seq.getAndIncrement(), ReplySize.ORIGINAL);
    }

    @Override
    public void close() {
        closed = true;
        ticker.shutdownNow();
        rounds.shutdownNow();
        connections.values().forEach(ServiceConnection::close);
        connections.clear();
    }
}
