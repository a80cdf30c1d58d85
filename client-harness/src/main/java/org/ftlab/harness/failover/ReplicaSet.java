package org.ftlab.harness.failover;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import javax.naming.NamingException;
import org.ftlab.auction.api.AuctionException;
import org.ftlab.auction.api.AuctionService;
import org.ftlab.auction.api.MicroClock;
import org.ftlab.auction.client.ServiceConnection;
import org.ftlab.rm.api.PrimaryBackupView;

/**
 * The mechanism every fail-over strategy works with, and no policy: one client's connections to replicas, the replica
 * its requests currently go to, the replicas it suspects, its adaptive invocation timeout and its hedge-delay
 * history. Strategies decide when to send where; this class sends, times and switches.
 *
 * <p>With {@code keepConnected}, a keeper thread reads the Replication Manager's view every
 * {@value #KEEPER_PERIOD_MILLIS} ms, keeps a ready (connected and warmed) proxy to every serving replica, and follows
 * the view's primary: when the view names another primary than the client's current replica, and the client does not
 * suspect it, requests go there. That is how a client returns to the primary after a false suspicion and how it
 * moves to a new primary the Fault Detector found before the client's own call failed. Without it (the reactive
 * strategy) the client connects only when it has to.
 *
 * <p>A suspicion is reported to the Replication Manager, which confirms it from the process's state or, for a
 * replica that is running, declines it: a false suspicion. The replica is then no longer suspected and the keeper
 * brings requests back to it if it is the primary. Safe for concurrent use.
 *
 * <p>This class and {@link Target} are what a strategy, built in or a plug-in (docs/labs/plugins.md), works with;
 * {@link SimulatedReplicas} makes one over in-process replicas for a strategy's unit tests.
 */
public final class ReplicaSet implements AutoCloseable {
    static final long KEEPER_PERIOD_MILLIS = 100;
    /** Pings sent over a new connection to warm its invocation path (client and replica end) before it is used. */
    static final int WARMUP_PINGS = 100;
    private static final long VIEW_POLL_NANOS = 2_000_000L;

    /** A replica and this client's connection to it; strategies compare targets by identity. */
    public static final class Target {
        private final String name;
        private final ServiceConnection connection;

        Target(String name, ServiceConnection connection) {
            this.name = name;
            this.connection = connection;
        }

        /** The replica's name ({@code r1}, {@code r2}, ...): what the probe files and the report name it. */
        public String name() {
            return name;
        }

        ServiceConnection connection() {
            return connection;
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** A connection to one replica's service. */
    /** What a replica set needs from the lab: the manager's view, its answer to a report, and connections. */
    interface Lab {
        PrimaryBackupView view() throws IOException;

        /** Reports a suspicion; true if the manager confirmed it (the replica failed), false if it declined. */
        boolean report(String replica) throws IOException;

        ServiceConnection connect(PrimaryBackupView.Member member) throws NamingException;

        /**
         * One connection to all of {@code members} through the middleware's own cluster support, which chooses a
         * member for each call and fails over by itself (WildFly's clustering: {@link
         * org.ftlab.auction.client.ClusterConnection}); every call bounded by {@code invocationTimeoutMillis}.
         */
        default ServiceConnection connectCluster(List<PrimaryBackupView.Member> members, long invocationTimeoutMillis)
                throws NamingException {
            throw new UnsupportedOperationException("these replicas form no middleware cluster");
        }
    }

    private final Lab manager;
    private final boolean keepConnected;
    private final long giveUpNanos;
    private final InvocationTimeout timeout;
    private final HedgeDelay hedgeDelay;
    /** keepConnected: a ready proxy to every serving replica (and to the current one). */
    private final Map<String, Target> connected = new ConcurrentHashMap<>();
    private final Set<String> suspected = ConcurrentHashMap.newKeySet();
    private final AtomicInteger falseSuspicions = new AtomicInteger();
    /** Replicas the client has asked the manager to check, until it answers. */
    private final Object switchLock = new Object();
    /** The newest view this client has read ({@link #followView}). */
    private volatile PrimaryBackupView view;
    private final Object viewLock = new Object();
    private volatile Target current;
    private volatile boolean closed;
    private final ScheduledExecutorService keeper;
    private final ExecutorService reporter;
    private volatile ExecutorService attempts;

    ReplicaSet(Lab manager, boolean keepConnected, long giveUpNanos, ClientTuning tuning)
            throws IOException, NamingException {
        this.manager = manager;
        this.keepConnected = keepConnected;
        this.giveUpNanos = giveUpNanos;
        this.timeout = tuning.invocationTimeoutMillis() == null ? new InvocationTimeout()
                : InvocationTimeout.fixed(tuning.invocationTimeoutMillis());
        this.hedgeDelay = tuning.hedgeDelayMillis() == null ? new HedgeDelay(timeout)
                : HedgeDelay.fixed(tuning.hedgeDelayMillis());
        followView();
        if (view.primary() == null) {
            throw new IOException("the Replication Manager reports no primary");
        }
        current = connect(view.primary());
        reporter = Executors.newSingleThreadExecutor(daemon("suspicion-reporter"));
        if (keepConnected) {
            connected.put(current.name(), current);
            keeper = Executors.newSingleThreadScheduledExecutor(daemon("replica-keeper"));
            keeper.scheduleWithFixedDelay(this::keep, 0, KEEPER_PERIOD_MILLIS, TimeUnit.MILLISECONDS);
        } else {
            keeper = null;
        }
    }

    private static ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    // ---- what strategies read ---------------------------------------------------------------------------------

    /**
     * A connection to every replica of the manager's current view at once, through the middleware's own cluster
     * support ({@link Lab#connectCluster}): where its calls go is the middleware's decision, not this client's.
     */
    ServiceConnection connectCluster(long invocationTimeoutMillis) throws IOException, NamingException {
        followView();
        return manager.connectCluster(view.members(), invocationTimeoutMillis);
    }

    /**
     * Reads the manager's view, and follows it unless this client has seen a newer one: a view of an older epoch (a
     * deposed leader's, answering before it learns it was replaced) is ignored. Returns the view followed.
     */
    private PrimaryBackupView followView() throws IOException {
        PrimaryBackupView read = manager.view();
        synchronized (viewLock) {
            PrimaryBackupView seen = view;
            if (seen == null || read.epoch() >= seen.epoch()) {
                view = read;
            }
            return view;
        }
    }

    /** The manager's view as this client last read it (fresh: {@code true} reads it again first). */
    PrimaryBackupView view(boolean fresh) throws IOException {
        if (fresh) {
            followView();
        }
        return view;
    }

    /** The replica requests currently go to. */
    public Target current() {
        return current;
    }

    /**
     * A ready replica to send to besides {@code besides}: the first serving replica of the view, in promotion order,
     * that the client has a connection to and does not suspect; null if there is none.
     */
    public Target standby(Target besides) {
        PrimaryBackupView v = view;
        for (PrimaryBackupView.Member m : v.members()) {
            if (!m.name().equals(besides.name()) && !suspected.contains(m.name())) {
                Target t = connected.get(m.name());
                if (t != null) {
                    return t;
                }
            }
        }
        return null;
    }

    /** The current replica first, then every other connected serving replica the client does not suspect. */
    public List<Target> serving() {
        Target first = current;
        List<Target> out = new ArrayList<>();
        out.add(first);
        for (PrimaryBackupView.Member m : view.members()) {
            Target t = connected.get(m.name());
            if (t != null && t != first && !suspected.contains(m.name())) {
                out.add(t);
            }
        }
        return out;
    }

    /**
     * Whether this client works with view {@code epoch} or a newer one: it has read it and, if it keeps replicas
     * connected, holds a ready proxy to each of its members (a client without a keeper follows the view when it has
     * to, so it is always ready).
     */
    public boolean follows(long epoch) {
        if (!keepConnected) {
            return true;
        }
        PrimaryBackupView v = view;
        return v.epoch() >= epoch && v.members().stream().allMatch(m -> connected.containsKey(m.name()));
    }

    public InvocationTimeout timeout() {
        return timeout;
    }

    public HedgeDelay hedgeDelay() {
        return hedgeDelay;
    }

    /** Suspicions the Replication Manager declined: the replica was running. */
    public int falseSuspicions() {
        return falseSuspicions.get();
    }

    // ---- sending ----------------------------------------------------------------------------------------------

    /**
     * Sends {@code call} to {@code target} on the calling thread under the current invocation timeout; a successful
     * attempt's time feeds the timeout and the hedge delay. A business refusal is an answer and is rethrown; any
     * other failure is the replica's (or the connection's) and comes back as a RuntimeException.
     */
    public <T> T attempt(Target target, String operation, Call<T> call) throws AuctionException {
        target.connection().invocationTimeout(timeout.currentMillis());
        long t0 = System.nanoTime();
        T result = call.invoke(target.connection().service());
        long micros = (System.nanoTime() - t0) / 1000;
        timeout.record(micros);
        hedgeDelay.record(operation, micros);
        return result;
    }

    /** What an asynchronous attempt gave: a result, a business refusal, or a failure of the replica. */
    public record Answer<T>(Target target, long sentMicros, long doneMicros, T result, AuctionException refusal,
            RuntimeException failure) {
        public boolean failed() {
            return failure != null;
        }
    }

    /**
     * As {@link #attempt}, on one of the client's attempt threads; the future never completes exceptionally. A failed
     * attempt moves the client's requests off its replica ({@link #failedOver}) before the future completes, even
     * when another replica has answered the request meanwhile.
     */
    public <T> CompletableFuture<Answer<T>> attemptAsync(Target target, String operation, Call<T> call) {
        long sent = MicroClock.nowEpochMicros();
        return CompletableFuture.supplyAsync(() -> {
            try {
                T r = attempt(target, operation, call);
                return new Answer<>(target, sent, MicroClock.nowEpochMicros(), r, null, null);
            } catch (AuctionException refused) {
                return new Answer<>(target, sent, MicroClock.nowEpochMicros(), null, refused, null);
            } catch (RuntimeException e) {
                long done = MicroClock.nowEpochMicros();
                failedOver(target);
                return new Answer<>(target, sent, done, null, null, e);
            }
        }, attemptThreads());
    }

    private ExecutorService attemptThreads() {
        ExecutorService e = attempts;
        if (e == null) {
            synchronized (this) {
                if (attempts == null) {
                    attempts = Executors.newCachedThreadPool(daemon("attempt"));
                }
                e = attempts;
            }
        }
        return e;
    }

    // ---- failures ---------------------------------------------------------------------------------------------

    /**
     * {@code failed} failed an attempt: suspect it (reported to the Replication Manager in the background) and, if
     * requests still go to it, switch them to the ready standby. Returns the replica requests now go to (another
     * caller may have switched already), or null when no standby is ready.
     */
    public Target failedOver(Target failed) {
        suspect(failed.name());
        synchronized (switchLock) {
            Target now = current;
            if (now != failed) {
                return now;
            }
            Target next = standby(failed);
            if (next != null) {
                replaceCurrent(next);
            }
            return next;
        }
    }

    /** Suspects {@code replica} and reports it; a report the manager declines is a false suspicion. */
    public void suspect(String replica) {
        if (closed || !suspected.add(replica)) {
            return;
        }
        reporter.execute(() -> {
            boolean confirmed;
            try {
                confirmed = manager.report(replica);
            } catch (IOException | RuntimeException e) {
                confirmed = false; // unconfirmed: the view, not this client, decides whether it serves
            }
            if (!confirmed && suspected.remove(replica) && !closed) {
                falseSuspicions.incrementAndGet();
            }
        });
    }

    /**
     * If {@code attempt} on {@code target} has not answered {@code afterMicros} from now, asks the Replication Manager
     * to check that replica, without suspecting it: the manager confirms a failure from the process's state (stopped:
     * a hang; gone: a crash) and fences the replica, and leaves a running one alone. Nothing changes on the client
     * and nothing is counted; questions go one at a time, from the client's reporter thread. For the strategies that send a request
     * to more than one replica: a hung primary holds the request_log row of the request it was executing in an open
     * transaction until it is fenced, and every copy of that request sent elsewhere waits for the row. Asking gets the
     * hang fenced in a few hedge delays instead of an invocation timeout or the Fault Detector's timeout.
     */
    public void askIfSilent(Target target, CompletableFuture<?> attempt, long afterMicros) {
        askIfSilent(List.of(target), List.of(attempt), afterMicros);
    }

    /**
     * As {@link #askIfSilent(Target, CompletableFuture, long)} for the attempts of one request on several replicas
     * ({@code attempts.get(i)} on {@code targets.get(i)}): one delayed check per request, which asks about each
     * attempt still silent.
     */
    public void askIfSilent(List<Target> targets, List<? extends CompletableFuture<?>> attempts, long afterMicros) {
        if (closed) {
            return;
        }
        CompletableFuture.delayedExecutor(afterMicros, TimeUnit.MICROSECONDS, reporter).execute(() -> {
            for (int i = 0; i < targets.size() && !closed; i++) {
                if (attempts.get(i).isDone()) {
                    continue;
                }
                try {
                    manager.report(targets.get(i).name());
                } catch (IOException | RuntimeException e) {
                    // unanswered: the attempt's own timeout and the Fault Detector still watch that replica
                }
            }
        });
    }

    /**
     * Reports {@code failed} and waits for a view whose primary is another replica the client does not suspect, then
     * sends there (connecting if it must). Returns null when the deadline passed first. If the manager declines the
     * report (the replica runs: the failure was this client's alone), the client goes back to it.
     */
    public Target awaitNewPrimary(Target failed, long deadlineNanos) throws IOException, NamingException {
        synchronized (switchLock) {
            if (current != failed) {
                return current;
            }
            suspected.add(failed.name());
            boolean confirmed = manager.report(failed.name());
            while (System.nanoTime() < deadlineNanos && !closed) {
                PrimaryBackupView v = followView();
                PrimaryBackupView.Member primary = v.primary();
                if (primary != null && !suspected.contains(primary.name())) {
                    Target t = connected.get(primary.name());
                    return replaceCurrent(t != null ? t : connect(primary));
                }
                if (primary != null && !confirmed && !(confirmed = manager.report(failed.name()))) {
                    // The manager sees the replica running: the failure was the client's alone. Retry it.
                    suspected.remove(failed.name());
                    falseSuspicions.incrementAndGet();
                    return current;
                }
                LockSupport.parkNanos(VIEW_POLL_NANOS);
            }
            return null;
        }
    }

    /** The client's bound on one request's fail-overs, as a {@link System#nanoTime()} deadline from now. */
    public long giveUpDeadline() {
        return System.nanoTime() + giveUpNanos;
    }

    public long giveUpNanos() {
        return giveUpNanos;
    }

    public boolean closed() {
        return closed;
    }

    /** Under {@link #switchLock}. Without a keeper, the old connection is closed (the client keeps only one). */
    private Target replaceCurrent(Target next) {
        Target old = current;
        current = next;
        if (!keepConnected && old != null && old != next) {
            old.connection().close();
        }
        return next;
    }

    // ---- the keeper -------------------------------------------------------------------------------------------

    /** Keeper thread: read the view, connect to new replicas, drop departed ones, follow the view's primary. */
    private void keep() {
        try {
            PrimaryBackupView v = followView();
            Set<String> names = new HashSet<>();
            v.members().forEach(m -> names.add(m.name()));
            suspected.retainAll(names); // a replica that left the view is gone; names are never reused
            for (PrimaryBackupView.Member m : v.members()) {
                if (!connected.containsKey(m.name()) && !closed) {
                    Target t = connect(m);
                    warm(t);
                    if (connected.putIfAbsent(m.name(), t) != null) {
                        t.connection().close();
                    }
                }
            }
            PrimaryBackupView.Member primary = v.primary();
            if (primary != null && !suspected.contains(primary.name())) {
                Target p = connected.get(primary.name());
                synchronized (switchLock) {
                    if (p != null && current != p) {
                        replaceCurrent(p);
                    }
                }
            }
            for (Map.Entry<String, Target> e : connected.entrySet()) {
                if (!names.contains(e.getKey()) && e.getValue() != current) {
                    connected.remove(e.getKey());
                    e.getValue().connection().close();
                }
            }
        } catch (IOException | NamingException | RuntimeException e) {
            // Try again at the next round; meanwhile strategies work with the connections they have.
        }
    }

    /**
     * Runs the invocation path of a new connection (client and replica ends) before it is needed, so that the first
     * request sent there does not pay for first-use class loading and interpretation. A failure here is not news:
     * the replica is judged by its real requests.
     */
    private static void warm(Target t) {
        try {
            for (int i = 0; i < WARMUP_PINGS; i++) {
                t.connection().service().ping();
            }
        } catch (RuntimeException e) {
            // a replica that cannot be warmed fails its first real attempt and the client fails over again
        }
    }

    private Target connect(PrimaryBackupView.Member member) throws NamingException {
        return new Target(member.name(), manager.connect(member));
    }

    @Override
    public void close() {
        closed = true;
        if (keeper != null) {
            keeper.shutdownNow();
        }
        reporter.shutdownNow();
        synchronized (this) {
            if (attempts != null) {
                attempts.shutdownNow();
            }
        }
        current.connection().close();
        connected.values().forEach(t -> t.connection().close());
    }
}
