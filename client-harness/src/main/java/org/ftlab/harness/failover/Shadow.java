package org.ftlab.harness.failover;

import java.io.IOException;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import javax.naming.NamingException;
import org.ftlab.auction.api.AuctionException;
import org.ftlab.auction.client.ServiceConnection;
import org.ftlab.rm.api.PrimaryBackupView;

/**
 * Shadow traffic (request mirroring, as a proxy's mirror policy does it): a sampled share of a client's answered
 * requests is sent again, as shadows, to every backup of the Replication Manager's view, so that backups run the
 * request paths of the primary's real traffic, with its real arguments, and are hot when one of them is promoted.
 * A shadow is a rehearsal under the client's shadow id ({@code RequestHeader#shadow}): it runs in full on the backup,
 * database statements included, and is rolled back, so nothing is stored.
 *
 * <p>A shadow never answers a client and never delays one: it is offered after the client has its answer, runs on
 * this client's own sender thread over connections of its own, and when that thread is behind (a slow or hung
 * backup) the shadow is dropped, not queued without bound. A business refusal is a backup's answer, like any other.
 * The view is read at most every {@value #VIEW_REFRESH_MILLIS} ms; a backup that fails a shadow is connected again
 * on the next one. Failures are counted, not news: the Fault Detector judges replicas.
 */
public final class Shadow implements AutoCloseable {
    static final long VIEW_REFRESH_MILLIS = 1_000;
    /** How long a shadow may take on one backup before it counts as failed, ms. */
    static final long INVOCATION_TIMEOUT_MILLIS = 2_000;
    /** Shadows waiting for the sender; one more is dropped. */
    static final int QUEUE = 32;

    /** What a client's shadows did: offered (sampled and queued), sent to a backup and answered, failed, dropped. */
    public record Counts(long offered, long answered, long failed, long dropped) {
        public Counts plus(Counts o) {
            return new Counts(offered + o.offered, answered + o.answered, failed + o.failed, dropped + o.dropped);
        }
    }

    private final ReplicaSet.Lab lab;
    private final double share;
    private final ThreadPoolExecutor sender;
    /** Connections to the backups the sender sends to (the sender's; {@link #close} closes what is left). */
    private final Map<String, ServiceConnection> connections = new ConcurrentHashMap<>();
    private PrimaryBackupView view;
    private long viewReadNanos;
    private final AtomicLong offered = new AtomicLong();
    private final AtomicLong answered = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private volatile boolean closed;

    /** Shadows of {@code share} (above 0, at most 1) of the requests offered, to the backups of {@code lab}'s view. */
    Shadow(ReplicaSet.Lab lab, double share) {
        if (!(share > 0 && share <= 1)) {
            throw new IllegalArgumentException("a shadow share is above 0 and at most 1, was " + share);
        }
        this.lab = lab;
        this.share = share;
        this.sender = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(QUEUE), r -> {
            Thread t = new Thread(r, "shadow-sender");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Offers the shadow of a request the client has had answered: with probability {@code share} it is queued for
     * every backup. {@code shadow} null (an operation without a shadow) is ignored. Returns at once.
     */
    void offer(Call<?> shadow) {
        if (shadow == null || sender.isShutdown() || ThreadLocalRandom.current().nextDouble() >= share) {
            return;
        }
        try {
            sender.execute(() -> send(shadow));
            offered.incrementAndGet();
        } catch (RejectedExecutionException e) {
            dropped.incrementAndGet();
        }
    }

    public Counts counts() {
        return new Counts(offered.get(), answered.get(), failed.get(), dropped.get());
    }

    private void send(Call<?> shadow) {
        PrimaryBackupView v = view();
        if (v == null) {
            failed.incrementAndGet();
            return;
        }
        for (PrimaryBackupView.Member backup : v.backups()) {
            if (closed) {
                return;
            }
            ServiceConnection c = connections.get(backup.name());
            try {
                if (c == null) {
                    c = lab.connect(backup);
                    c.invocationTimeout(INVOCATION_TIMEOUT_MILLIS);
                    connections.put(backup.name(), c);
                }
                shadow.invoke(c.service());
                answered.incrementAndGet();
            } catch (AuctionException refused) {
                answered.incrementAndGet(); // the backup ran the request and refused it, as the primary may have
            } catch (NamingException | RuntimeException e) {
                failed.incrementAndGet();
                ServiceConnection gone = connections.remove(backup.name());
                if (gone != null) {
                    gone.close();
                }
            }
        }
    }

    /** The view, read again when older than {@value #VIEW_REFRESH_MILLIS} ms; connections to non-backups closed. */
    private PrimaryBackupView view() {
        long now = System.nanoTime();
        if (view == null || now - viewReadNanos > TimeUnit.MILLISECONDS.toNanos(VIEW_REFRESH_MILLIS)) {
            try {
                view = lab.view();
                viewReadNanos = now;
                Set<String> backups = view.backups().stream().map(PrimaryBackupView.Member::name)
                        .collect(Collectors.toSet());
                connections.entrySet().removeIf(e -> {
                    if (backups.contains(e.getKey())) {
                        return false;
                    }
                    e.getValue().close();
                    return true;
                });
            } catch (IOException | RuntimeException e) {
                return view; // the last view read, if any: the manager may be busy
            }
        }
        return view;
    }

    @Override
    public void close() {
        sender.shutdown(); // what is queued is sent, for as long as one shadow may take
        try {
            if (!sender.awaitTermination(INVOCATION_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS)) {
                closed = true;
                sender.shutdownNow();
                sender.awaitTermination(INVOCATION_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        closed = true;
        connections.values().forEach(ServiceConnection::close);
        connections.clear();
    }
}
