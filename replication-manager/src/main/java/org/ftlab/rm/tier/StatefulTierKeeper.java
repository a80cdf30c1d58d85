package org.ftlab.rm.tier;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BiConsumer;
import java.util.logging.Logger;
import org.ftlab.auction.api.MicroClock;
import org.ftlab.auction.api.StatefulTierControl;
import org.ftlab.auction.api.StatefulTierSettings;
import org.ftlab.auction.api.TierStatus;
import org.ftlab.auction.client.ReplicaConnection;
import org.ftlab.rm.api.StatefulTierReport;
import org.ftlab.rm.api.TierRecovery;

/**
 * The stateful tier (seed 003) as the manager runs it: configured on the primary at the view's epoch, stopped
 * everywhere else, recovered on a new primary after a promotion (restore the newest checkpoint, replay the input log)
 * and on the primary after the database's writer moved. Each order carries the view's epoch, which the replica's tier
 * claims in the database: a replica told to recover at an epoch older than one claimed refuses. Its calls can take
 * seconds (a replay), so they run on a thread of their own, never under the manager's lock; the manager only tells it
 * what happened.
 */
public final class StatefulTierKeeper implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(StatefulTierKeeper.class.getName());
    /** Tries of a recovery after a database fail-over. */
    private static final int RECOVERY_ATTEMPTS_AFTER_WRITER_MOVED = 10;
    /** A recovery may replay the whole log: its call waits this long. */
    private static final long RECOVERY_TIMEOUT_MILLIS = 300_000;

    /** What the keeper needs of the manager: its view as it is now, and connections to its replicas. */
    public interface Replicas {
        /** The view now. */
        Snapshot now();

        /** A connection to replica {@code name} as the lab's application user. */
        ReplicaConnection connect(String name) throws Exception;
    }

    /**
     * The view at one moment.
     *
     * @param serving the replicas in the view, primary first
     * @param live every replica launched and not dead: in the view, spares, and those booting with a process
     * @param epoch the view's epoch
     */
    public record Snapshot(List<String> serving, List<String> live, long epoch) {
        /** The primary, or null when nothing serves. */
        public String primary() {
            return serving.isEmpty() ? null : serving.get(0);
        }
    }

    private final Replicas replicas;
    /** Records a promotion's recovery in the failure that caused it: (fault id, how the recovery went). */
    private final BiConsumer<String, TierRecovery> recovered;
    private final ExecutorService recoverer = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "tier-recoverer");
        t.setDaemon(true);
        return t;
    });
    /** The tier's settings once a run of it was configured; null while it does not run in this lab. */
    private volatile StatefulTierSettings settings;
    /**
     * A connection to each backup, opened ahead so that a promotion's recovery call does not first open one (a naming
     * context and a ping: tens of ms).
     */
    private final Map<String, ReplicaConnection> ready = new ConcurrentHashMap<>();
    private volatile boolean closed;

    public StatefulTierKeeper(Replicas replicas, BiConsumer<String, TierRecovery> recovered) {
        this.replicas = replicas;
        this.recovered = recovered;
    }

    /** Whether a run of the tier is configured: promotions recover it. */
    public boolean running() {
        return settings != null;
    }

    /**
     * Starts a run of the tier on the primary at the view's epoch (emptying its log and checkpoints), and stops it on
     * every other live replica; from now on a promotion recovers it on the new primary.
     *
     * @throws IllegalStateException if nothing serves
     */
    public TierStatus configure(StatefulTierSettings settings) throws Exception {
        Snapshot now = replicas.now();
        String primary = now.primary();
        if (primary == null) {
            throw new IllegalStateException("no primary to run the stateful tier on");
        }
        deactivate(now.live().stream().filter(name -> !name.equals(primary)).toList());
        try (ReplicaConnection c = replicas.connect(primary)) {
            TierStatus s = c.tierControl(60_000).configure(now.epoch(), settings);
            this.settings = settings;
            recoverer.execute(this::connectBackups);
            return s;
        }
    }

    /**
     * Stops the tier on every live replica and its recovery on promotions (a run on the stateless tier after one on
     * the stateful tier); returns whether it ran.
     */
    public boolean stop() {
        synchronized (this) {
            if (settings == null) {
                return false;
            }
            settings = null;
        }
        deactivate(replicas.now().live());
        return true;
    }

    /** The tier on the primary: its totals, and a checkpoint stored now when {@code checkpoint}. */
    public StatefulTierReport status(boolean checkpoint) throws Exception {
        String primary = replicas.now().primary();
        if (primary == null) {
            throw new IllegalStateException("no primary");
        }
        try (ReplicaConnection c = replicas.connect(primary)) {
            StatefulTierControl control = c.tierControl(60_000);
            long id = checkpoint ? control.checkpointNow() : 0;
            return new StatefulTierReport(control.status(), id);
        }
    }

    /**
     * Replica {@code promoted} became the primary at {@code epoch} after failure {@code faultId}: if the tier runs, it
     * restores and replays there, and the failure records how. Returns at once (may be called under the manager's
     * lock).
     */
    public void promoted(String faultId, String promoted, long epoch) {
        if (settings != null && !closed) {
            recoverer.execute(() -> recover(faultId, promoted, epoch));
        }
    }

    /**
     * A replicated database's new writer takes writes: {@code first} runs (the replicas' connection pools emptied of
     * the connections the fail-over cut), then a tier whose input log failed with the old writer, stopped on the
     * primary, restores and replays from the new writer, in the same epoch. Returns at once.
     */
    public void writerMoved(Runnable first) {
        if (closed) {
            return;
        }
        recoverer.execute(first);
        if (settings == null) {
            return;
        }
        Snapshot now = replicas.now();
        String primary = now.primary();
        if (primary == null) {
            return;
        }
        recoverer.execute(() -> {
            // the replica's pool may hand out a connection the fail-over cut, which it drops once it fails: try again
            String why = null;
            for (int attempt = 1; attempt <= RECOVERY_ATTEMPTS_AFTER_WRITER_MOVED && !closed; attempt++) {
                try (ReplicaConnection c = replicas.connect(primary)) {
                    TierStatus s = c.tierControl(RECOVERY_TIMEOUT_MILLIS).recover(now.epoch());
                    LOG.info("the stateful tier recovered on " + primary + " from the database's new writer: "
                            + s.replayInputs() + " inputs replayed in " + s.replayMicros() / 1000 + " ms");
                    return;
                } catch (Exception e) {
                    why = e.getMessage();
                }
                try {
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
            LOG.warning("the stateful tier did not recover on " + primary + " after the database's fail-over: " + why);
        });
    }

    /** Stops the tier on each of {@code names}; a replica that fails is reported. */
    private void deactivate(List<String> names) {
        for (String name : names) {
            try (ReplicaConnection c = replicas.connect(name)) {
                c.tierControl(30_000).deactivate();
            } catch (Exception e) {
                LOG.warning("could not stop the stateful tier on " + name + ": " + e.getMessage());
            }
        }
    }

    /** On the recoverer's thread: the promoted replica restores and replays; the failure records how. */
    private void recover(String faultId, String promoted, long epoch) {
        long started = MicroClock.nowEpochMicros();
        TierRecovery result;
        ReplicaConnection open = ready.remove(promoted);
        try (ReplicaConnection c = open != null ? open : replicas.connect(promoted)) {
            TierStatus s = c.tierControl(RECOVERY_TIMEOUT_MILLIS).recover(epoch);
            result = new TierRecovery(promoted, started, MicroClock.nowEpochMicros(), s.replayInputs(),
                    s.replayMicros(), s.restoreMicros(), null);
        } catch (Exception e) {
            result = new TierRecovery(promoted, started, 0, 0, 0, 0, e.getMessage());
            LOG.warning("the stateful tier did not recover on " + promoted + ": " + e.getMessage());
        }
        recovered.accept(faultId, result);
        connectBackups();
    }

    /** On the recoverer's thread: a connection ready to each backup, none kept to a replica no longer one. */
    private void connectBackups() {
        List<String> serving = replicas.now().serving();
        List<String> backups = serving.size() > 1 ? List.copyOf(serving.subList(1, serving.size())) : List.of();
        for (String name : new ArrayList<>(ready.keySet())) {
            if (!backups.contains(name)) {
                ReplicaConnection gone = ready.remove(name);
                if (gone != null) {
                    gone.close();
                }
            }
        }
        for (String name : backups) {
            if (!closed && !ready.containsKey(name)) {
                try {
                    ready.put(name, replicas.connect(name));
                } catch (Exception e) {
                    // the promotion opens its own
                }
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        recoverer.shutdownNow();
        ready.values().forEach(ReplicaConnection::close);
        ready.clear();
    }
}
