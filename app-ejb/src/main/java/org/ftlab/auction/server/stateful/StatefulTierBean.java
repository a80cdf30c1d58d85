package org.ftlab.auction.server.stateful;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.EJBException;
import jakarta.ejb.LocalBean;
import jakarta.ejb.Remote;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionManagement;
import jakarta.ejb.TransactionManagementType;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.ftlab.auction.api.MicroClock;
import org.ftlab.auction.api.StatefulTierControl;
import org.ftlab.auction.api.StatefulTierSettings;
import org.ftlab.auction.api.TierStatus;
import org.ftlab.stateful.AuctionBook;
import org.ftlab.stateful.Checkpoint;
import org.ftlab.stateful.Input;
import org.ftlab.stateful.InputLog;
import org.ftlab.stateful.JdbcInputLog;
import org.ftlab.stateful.LoggedInput;
import org.ftlab.stateful.StatefulNetwork;
import org.ftlab.stateful.TierSettings;
import org.ftlab.stateful.TierStore;
import org.ftlab.tart.DeterminismFault;

/**
 * The stateful tier on this replica (seed 003; docs/architecture.md "The stateful tier"): while this replica is its
 * primary, the {@link StatefulNetwork} of gateways and auction engine runs here, its input log and checkpoints in the
 * lab's database. The Replication Manager starts a run of it ({@link #configure}), recovers it on a new primary
 * ({@link #recover}) and stops it on a replica that is no longer primary ({@link #deactivate}). Requests for it come
 * through the auction service ({@link #submit}); one that arrives while it recovers waits for the replay, and one
 * that arrives on a replica it has not reached yet waits {@value #ACTIVATION_WAIT_SECONDS} s for the manager's call.
 *
 * <p>Where the tier does not run, this replica is its passive backup (seed 003 §II.F.3: "a passive replica only holds
 * the state"): every {@value #STANDBY_POLL_MILLIS} ms it looks for a newer checkpoint in the database, holds it
 * deserialized, and rehearses the replay of the log's tail after it offline (nothing kept), so that a recovery here
 * reads only the tail and runs code already compiled.
 */
@Singleton(name = "StatefulTierBean")
@Startup
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionManagement(TransactionManagementType.BEAN)
@Remote(StatefulTierControl.class)
@LocalBean
public class StatefulTierBean implements StatefulTierControl {
    private static final String REPLICA = System.getProperty("jboss.node.name", "unnamed");
    /** How long a request waits for the tier to start here (the manager's recover after a promotion). */
    static final int ACTIVATION_WAIT_SECONDS = 20;
    /** How long a request waits for its answer once taken. */
    static final int ANSWER_WAIT_SECONDS = 30;
    /** How long a recovery's replay may take. */
    static final int REPLAY_WAIT_SECONDS = 300;

    @Resource(lookup = "java:jboss/datasources/FtlabDS")
    private DataSource dataSource;

    /** How often a passive backup looks for a newer checkpoint. */
    static final long STANDBY_POLL_MILLIS = 1_000;

    /** The newest checkpoint this passive backup holds, and its id; taken (once) by a recovery. */
    private final Object standbyLock = new Object();
    private Checkpoint standby;
    private long standbyId;
    private volatile boolean stopping;
    private Thread standbyThread;

    /** Guards starting and stopping; requests read {@link #current} without it. */
    private final Object lock = new Object();
    private volatile Running current;
    private volatile String lastFailure;

    /** The tier running here: its epoch, network, log and checkpoint writer, and what its start cost. */
    private record Running(long epoch, StatefulNetwork network, JdbcInputLog log, CheckpointWriter checkpoints,
            long restoreMicros) {
        void stop() {
            network.close();
            log.close();
            checkpoints.close();
        }
    }

    /** An answer, with how long the request waited for the tier to start here. */
    public record Answer(StatefulNetwork.Result result, long recoveryWaitMicros) {
    }

    @Override
    public TierStatus configure(long epoch, StatefulTierSettings given) {
        TierSettings settings = TierSettings.parse(given.determinism(), given.silence(), given.estimator(),
                given.checkpointEvery(), given.gateways(), given.workSpread());
        synchronized (lock) {
            stopCurrent();
            try (Connection c = dataSource.getConnection()) {
                TierStore.reset(c, epoch, settings);
            } catch (SQLException e) {
                throw new EJBException("the stateful tier cannot start: " + e.getMessage());
            }
            current = start(epoch, settings, null, 0);
            lock.notifyAll();
            return status();
        }
    }

    @Override
    public TierStatus recover(long epoch) {
        synchronized (lock) {
            stopCurrent();
            long t0 = System.nanoTime();
            TierStore.Recovered r;
            long claimed;
            long heldStandbyId;
            try (Connection c = dataSource.getConnection()) {
                TierStore.claim(c, epoch);
                claimed = System.nanoTime();
                Checkpoint held;
                long heldId;
                synchronized (standbyLock) {
                    held = standby;
                    heldId = standbyId;
                    standby = null;
                    standbyId = 0;
                }
                heldStandbyId = heldId;
                r = TierStore.read(c, heldId, held);
            } catch (SQLException e) {
                throw new EJBException("the stateful tier cannot recover on " + REPLICA + ": " + e.getMessage());
            }
            long restore = (System.nanoTime() - t0) / 1000;
            Running run = start(epoch, r.settings(), r, restore);
            try {
                run.network().awaitReplayed(REPLAY_WAIT_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                run.stop();
                throw new EJBException("interrupted while replaying");
            } catch (IllegalStateException e) {
                run.stop();
                throw new EJBException(e.getMessage());
            }
            current = run;
            lock.notifyAll();
            TierStatus st = status();
            LOG.info(String.format(Locale.ROOT, "stateful tier recovered at epoch %d: claim %.1f ms, read "
                    + "%.1f ms (checkpoint after %d messages%s, %d inputs after it), replay %.1f ms", epoch,
                    (claimed - t0) / 1e6, (restore * 1000 - (claimed - t0)) / 1e6, r.checkpoint().messages(),
                    r.checkpointId() != 0 && r.checkpointId() == heldStandbyId ? ", held as standby" : "",
                    r.inputs().size(), st.replayMicros() / 1000.0));
            return st;
        }
    }

    private static final Logger LOG = Logger.getLogger(
            StatefulTierBean.class.getName());

    private Running start(long epoch, TierSettings settings, TierStore.Recovered from, long restoreMicros) {
        JdbcInputLog log = new JdbcInputLog(dataSource::getConnection, epoch);
        CheckpointWriter checkpoints = new CheckpointWriter(dataSource, epoch);
        StatefulNetwork network = from == null
                ? StatefulNetwork.start(settings, log, checkpoints, StatefulTierBean::realVt)
                : StatefulNetwork.start(settings, log, checkpoints, StatefulTierBean::realVt, from.checkpoint(),
                        from.inputs(), from.faults());
        lastFailure = null;
        return new Running(epoch, network, log, checkpoints, restoreMicros);
    }

    /** Real time as virtual ticks: ns since the epoch (µs resolution). */
    static long realVt() {
        return MicroClock.nowEpochMicros() * 1000;
    }

    @Override
    public void deactivate() {
        synchronized (lock) {
            stopCurrent();
        }
    }

    private void stopCurrent() {
        Running r = current;
        current = null;
        if (r != null) {
            if (r.network().failure() != null && !r.network().running()) {
                lastFailure = r.network().failure();
            }
            r.stop();
        }
    }

    @PostConstruct
    void startStandby() {
        standbyThread = new Thread(this::keepStandby, "tart-standby");
        standbyThread.setDaemon(true);
        standbyThread.start();
    }

    /** The passive backup's loop: the newest checkpoint held, the replay of the tail after it rehearsed. */
    private void keepStandby() {
        while (!stopping) {
            try {
                Thread.sleep(STANDBY_POLL_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
            if (current != null) {
                synchronized (standbyLock) {
                    standby = null; // the tier runs here: its state is live
                    standbyId = 0;
                }
                continue;
            }
            try (Connection c = dataSource.getConnection()) {
                long id = TierStore.newestCheckpointId(c);
                long held;
                synchronized (standbyLock) {
                    held = standbyId;
                }
                if (id <= 0 || id == held) {
                    continue;
                }
                Checkpoint cp = TierStore.checkpoint(c, id);
                TierStore.Recovered tail = TierStore.read(c, id, Checkpoint.fromBytes(cp.toBytes()));
                rehearse(tail);
                synchronized (standbyLock) {
                    if (current == null) {
                        standby = cp;
                        standbyId = id;
                    }
                }
            } catch (SQLException | RuntimeException e) {
                // no database, no tier configured yet, or a checkpoint replaced meanwhile: the next round sees
            }
        }
    }

    /**
     * Replays the tail after a checkpoint through the tier's own network, as a recovery here would, and throws the
     * result away: the network's code (gateways, scheduler, engine) is then compiled when a recovery needs it. Nothing
     * is logged or stored; nothing reaches a client.
     */
    private static void rehearse(TierStore.Recovered tail) {
        InputLog nowhere = new InputLog() {
            @Override
            public void append(LoggedInput input) throws Fenced {
                throw new Fenced("a rehearsal logs nothing");
            }

            @Override
            public void appendFault(int gateway, DeterminismFault fault) throws Fenced {
                throw new Fenced("a rehearsal logs nothing");
            }
        };
        try (StatefulNetwork rehearsal = StatefulNetwork.start(tail.settings(), nowhere, (c, b, t) -> { },
                StatefulTierBean::realVt, tail.checkpoint(), tail.inputs(), tail.faults())) {
            rehearsal.awaitReplayed(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @PreDestroy
    void shutdown() {
        stopping = true;
        if (standbyThread != null) {
            standbyThread.interrupt();
        }
        deactivate();
    }

    @Override
    public TierStatus status() {
        Running r = current;
        if (r == null) {
            return new TierStatus(false, REPLICA, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, lastFailure);
        }
        StatefulNetwork.Stats s = r.network().stats();
        return new TierStatus(r.network().running(), REPLICA, r.epoch(), s.messages(), s.pessimismDelayNanos() / 1000,
                s.delayed(), s.probes(), s.outOfOrder(), s.checkpoints(), s.lastCheckpointBytes(),
                s.checkpointNanos() / 1000, s.recalibrations(), s.replayInputs(), Math.max(0, s.replayNanos()) / 1000,
                r.restoreMicros(), r.log().commits(), r.log().inputsPerCommit(), r.network().failure());
    }

    /**
     * The accepted bids of auction {@code auctionId} in the tier's book now, oldest first (a read: nothing is logged,
     * nothing changes); null when the book has no such auction. Fails when the tier does not run here.
     */
    public List<AuctionBook.AcceptedBid> acceptedBids(long auctionId) {
        Running r = current;
        if (r == null || !r.network().running()) {
            throw new EJBException("the stateful tier does not run on " + REPLICA + " (it is not its primary)");
        }
        AuctionBook.Auction a = r.network().snapshot().book().auctions().get(auctionId);
        return a == null ? null : a.bids();
    }

    @Override
    public long checkpointNow() {
        Running r = current;
        if (r == null) {
            return 0;
        }
        long t0 = System.nanoTime();
        Checkpoint c = r.network().snapshot();
        byte[] bytes = c.toBytes();
        try (Connection conn = dataSource.getConnection()) {
            return TierStore.writeCheckpoint(conn, r.epoch(), c, bytes, (System.nanoTime() - t0) / 1000);
        } catch (SQLException e) {
            throw new EJBException("cannot store a checkpoint: " + e.getMessage());
        }
    }

    /**
     * Hands {@code input} to the tier and waits for its answer. Waits first for the tier to run here (a recovery in
     * progress, or the manager's call after a promotion); fails if it does not, or if the tier was fenced.
     */
    public Answer submit(Input input) {
        long t0 = System.nanoTime();
        Running r = current;
        if (r == null) {
            long deadline = t0 + TimeUnit.SECONDS.toNanos(ACTIVATION_WAIT_SECONDS);
            synchronized (lock) {
                while ((r = current) == null && System.nanoTime() < deadline) {
                    try {
                        TimeUnit.NANOSECONDS.timedWait(lock, deadline - System.nanoTime());
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        break;
                    }
                }
            }
            if (r == null) {
                throw new EJBException("the stateful tier does not run on " + REPLICA + " (it is not its primary)"
                        + (lastFailure != null ? "; it stopped here: " + lastFailure : ""));
            }
        }
        long waited = (System.nanoTime() - t0) / 1000;
        if (!r.network().running()) {
            // the tier stopped itself (fenced, or its log failed): it no longer runs here, and says why
            synchronized (lock) {
                if (current == r) {
                    stopCurrent();
                }
            }
            throw new EJBException("the stateful tier stopped on " + REPLICA + ": " + r.network().failure());
        }
        try {
            return new Answer(r.network().submit(input).get(ANSWER_WAIT_SECONDS, TimeUnit.SECONDS), waited);
        } catch (ExecutionException e) {
            throw new EJBException("the stateful tier on " + REPLICA + " failed the request: "
                    + e.getCause().getMessage());
        } catch (TimeoutException e) {
            throw new EJBException("the stateful tier on " + REPLICA + " did not answer " + input.key() + " in "
                    + ANSWER_WAIT_SECONDS + " s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EJBException("interrupted while waiting for " + input.key());
        }
    }
}
