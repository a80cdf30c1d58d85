package org.ftlab.harness.failover;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import javax.naming.NamingException;
import org.ftlab.auction.api.AuctionException;
import org.ftlab.auction.api.AuctionService;
import org.ftlab.auction.api.MicroClock;
import org.ftlab.harness.client.ReplicaConnection;
import org.ftlab.harness.lab.ManagerClient;
import org.ftlab.rm.PrimaryBackupView;
import org.ftlab.rm.replica.ApplicationUser;

/**
 * A client's fault-tolerant view of the service: invokes the primary and, when it fails, gets a working replica by
 * the chosen {@link FailoverStrategy} and retries the same request. The retry keeps the request's
 * {@code (clientId, seq)}, so the service executes it exactly once whatever happened to the first attempt.
 *
 * <p>Safe for concurrent invocations (an open-loop client has several in flight): one fail-over at a time; an
 * invocation that failed on a replica the client has already switched away from simply retries on the new one.
 */
public final class FailoverClient implements AutoCloseable {
    private static final long VIEW_POLL_NANOS = 2_000_000L;

    private final ManagerClient manager;
    private final ApplicationUser user;
    private final FailoverStrategy strategy;
    private final long invocationTimeoutMillis;
    private final long giveUpNanos;
    private volatile Target current;
    /** Held while switching replicas, so concurrent failures of one replica cause one switch. */
    private final Object switchLock = new Object();
    /** PRECONNECTED only: a ready proxy to the next backup, refreshed after every switch. */
    private volatile Target spare;
    /** Pings sent to a new spare to warm its invocation path. */
    static final int SPARE_WARMUP_CALLS = 100;
    private final Object spareLock = new Object();
    private volatile boolean closed;
    private static final long SPARE_CHECK_MILLIS = 200;
    private final java.util.concurrent.ScheduledExecutorService spareKeeper;

    private record Target(String name, ReplicaConnection connection) {
        AuctionService service() {
            return connection.service();
        }
    }

    /** A remote call on whatever replica is current; must send the same request header every time it is called. */
    @FunctionalInterface
    public interface Call<T> {
        T invoke(AuctionService service) throws AuctionException;
    }

    /** The call's result, and its fail-over phases if it was a faulty invocation (null when fault-free). */
    public record Outcome<T>(T result, FailoverPhases phases, String servedBy) {
        public boolean faulty() {
            return phases != null;
        }
    }

    /**
     * @param invocationTimeout how long a call may take before the replica counts as failed (a hung replica never
     *     answers)
     * @param giveUpAfter how long to keep failing over before {@link AllReplicasDownException}
     */
    public FailoverClient(ManagerClient manager, ApplicationUser user, FailoverStrategy strategy,
            Duration invocationTimeout, Duration giveUpAfter) throws IOException, NamingException {
        this.manager = manager;
        this.user = user;
        this.strategy = strategy;
        this.invocationTimeoutMillis = invocationTimeout.toMillis();
        this.giveUpNanos = giveUpAfter.toNanos();
        PrimaryBackupView view = manager.view();
        if (view.primary() == null) {
            throw new IOException("the Replication Manager reports no primary");
        }
        current = connect(view.primary());
        if (strategy == FailoverStrategy.PRECONNECTED) {
            spareKeeper = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "spare-keeper");
                t.setDaemon(true);
                return t;
            });
            // Keep the spare in step with the view: a backup can crash or be replaced while the primary is fine.
            spareKeeper.scheduleWithFixedDelay(this::keepSpare, 0, SPARE_CHECK_MILLIS,
                    java.util.concurrent.TimeUnit.MILLISECONDS);
        } else {
            spareKeeper = null;
        }
    }

    /** In the spare keeper: (re)connect the spare when it is missing or no longer a serving backup. */
    private void keepSpare() {
        try {
            PrimaryBackupView view = manager.view();
            Target s = spare;
            boolean spareServes = s != null && view.members().stream().anyMatch(m -> m.name().equals(s.name()))
                    && !s.name().equals(current.name());
            if (!spareServes) {
                refreshSpare(view, null);
            }
        } catch (IOException | NamingException | RuntimeException e) {
            // Try again at the next check; a fail-over without a spare takes the reactive path.
        }
    }

    /** The replica requests currently go to. */
    public String currentReplica() {
        return current.name();
    }

    /**
     * Invokes {@code call} on the current replica; on a replica failure (anything but a declared business
     * exception) fails over and retries until it succeeds or {@code giveUpAfter} has passed.
     */
    public <T> Outcome<T> invoke(Call<T> call) throws AuctionException, AllReplicasDownException {
        long sent = MicroClock.nowEpochMicros();
        Target target = current;
        try {
            return new Outcome<>(call.invoke(target.service()), null, target.name());
        } catch (AuctionException refused) {
            throw refused;
        } catch (RuntimeException firstFailure) {
            long detected = MicroClock.nowEpochMicros();
            return failOverAndRetry(call, target, sent, detected, firstFailure);
        }
    }

    private <T> Outcome<T> failOverAndRetry(Call<T> call, Target failed, long sent, long detected,
            RuntimeException failure) throws AuctionException, AllReplicasDownException {
        long deadline = System.nanoTime() + giveUpNanos;
        String firstFailed = failed.name();
        RuntimeException last = failure;
        int attempts = 1;
        while (System.nanoTime() < deadline && !closed) {
            Target next;
            try {
                next = switchAway(failed, deadline);
            } catch (IOException | NamingException | RuntimeException e) {
                last = new IllegalStateException(e.getMessage(), e);
                LockSupport.parkNanos(50_000_000L);
                continue;
            }
            if (next == null) {
                break;
            }
            long failedOver = MicroClock.nowEpochMicros();
            attempts++;
            try {
                T result = call.invoke(next.service());
                long done = MicroClock.nowEpochMicros();
                return new Outcome<>(result, new FailoverPhases(firstFailed, detected - sent, failedOver - detected,
                        done - failedOver, attempts), next.name());
            } catch (AuctionException refused) {
                throw refused;
            } catch (RuntimeException again) {
                last = again;
                failed = next;
            }
        }
        throw new AllReplicasDownException("no replica answered for " + giveUpNanos / 1_000_000_000.0
                + " s after " + firstFailed + " failed (" + attempts + " attempts); last failure: "
                + rootMessage(last), last);
    }

    /** The target to retry on after {@code failed} failed: the strategy's choice, or the current one if another
     * invocation has already switched away from {@code failed}. */
    private Target switchAway(Target failed, long deadline) throws IOException, NamingException {
        synchronized (switchLock) {
            Target now = current;
            if (now != failed) {
                return now;
            }
            return strategy == FailoverStrategy.PRECONNECTED ? switchToSpare(failed, deadline)
                    : awaitNewPrimary(failed, deadline);
        }
    }

    /** REACTIVE: report, wait for a view whose primary is another replica, connect to it. */
    private Target awaitNewPrimary(Target failed, long deadline) throws IOException, NamingException {
        manager.report(failed.name());
        while (System.nanoTime() < deadline) {
            PrimaryBackupView view = manager.view();
            PrimaryBackupView.Member primary = view.primary();
            if (primary != null && !primary.name().equals(failed.name())) {
                return replaceCurrent(connect(primary));
            }
            if (primary != null && !manager.report(failed.name())) {
                // The manager sees the replica running: the failure was the client's alone. Retry it.
                return current;
            }
            LockSupport.parkNanos(VIEW_POLL_NANOS);
        }
        return null;
    }

    /** PRECONNECTED: switch to the ready spare at once; report and refresh the spare in the background. */
    private Target switchToSpare(Target failed, long deadline) throws IOException, NamingException {
        Target next;
        synchronized (spareLock) {
            next = spare;
            spare = null;
        }
        if (next == null || next.name().equals(failed.name())) {
            if (next != null) {
                next.connection().close();
            }
            return awaitNewPrimary(failed, deadline);
        }
        replaceCurrent(next);
        String failedName = failed.name();
        spareKeeper.execute(() -> {
            try {
                manager.report(failedName);
            } catch (IOException | RuntimeException e) {
                // The Fault Detector reports it too; the keeper refreshes the spare at its next check.
            }
            keepSpare();
        });
        return next;
    }

    /** Connects a spare to the first serving replica that is neither current nor known failed. */
    private boolean refreshSpare(PrimaryBackupView view, String failedName) throws NamingException {
        String currentName = current.name();
        for (PrimaryBackupView.Member m : view.members()) {
            if (!m.name().equals(currentName) && !m.name().equals(failedName)) {
                Target s = spare;
                if (s != null && s.name().equals(m.name())) {
                    return true; // already the spare
                }
                Target t = connect(m);
                warm(t);
                synchronized (spareLock) {
                    if (spare != null) {
                        spare.connection().close();
                    }
                    spare = t;
                }
                return true;
            }
        }
        return false;
    }

    /**
     * Runs the invocation path of a new spare (client and replica ends of this connection) before it is needed, so
     * that the retry after a fail-over does not pay for first-use class loading and interpretation. A failure here
     * is not news: the spare is checked again when it is used.
     */
    private static void warm(Target t) {
        try {
            for (int i = 0; i < SPARE_WARMUP_CALLS; i++) {
                t.connection().service().ping();
            }
        } catch (RuntimeException e) {
            // a spare that cannot be warmed fails its first real call and the client fails over again
        }
    }

    private Target replaceCurrent(Target next) {
        Target old = current;
        current = next;
        if (old != null && old != next) {
            old.connection().close();
        }
        return next;
    }

    private Target connect(PrimaryBackupView.Member member) throws NamingException {
        return new Target(member.name(), ReplicaConnection.open(member.uri(), user.username(), user.password(),
                invocationTimeoutMillis));
    }

    private static String rootMessage(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + ": " + root.getMessage();
    }

    @Override
    public void close() {
        closed = true;
        if (spareKeeper != null) {
            spareKeeper.shutdownNow();
        }
        current.connection().close();
        synchronized (spareLock) {
            if (spare != null) {
                spare.connection().close();
            }
        }
    }
}
