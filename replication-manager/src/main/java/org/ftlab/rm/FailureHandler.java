package org.ftlab.rm;

import java.io.IOException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.logging.Logger;
import org.ftlab.fd.FailureKind;
import org.ftlab.fd.ProcessState;
import org.ftlab.rm.api.FailureRecord;
import org.ftlab.rm.api.InjectedFault;
import org.ftlab.rm.api.ReplicaState;
import org.ftlab.rm.db.EpochFence;
import org.ftlab.rm.db.SessionFence;
import org.ftlab.rm.fault.FaultsInEffect;
import org.ftlab.rm.replica.Replica;
import org.ftlab.rm.tier.StatefulTierKeeper;

/**
 * What a leading manager does when a replica fails: it takes the Fault Detectors' reports (trusted) and the clients'
 * (confirmed from the process state first), lets the view decide (demote, promote, take a spare), fences the failed
 * replica (SIGKILL, and its database sessions ended by an order of the view's epoch), ends the faults the fence ended,
 * recovers the stateful tier on a promotion, and has the {@link ReplicaPool} restore the degree.
 */
final class FailureHandler {
    private static final Logger LOG = Logger.getLogger(FailureHandler.class.getName());

    private final LabState s;
    private final ReplicaPool pool;
    private final StatefulTierKeeper tier;
    private final FaultsInEffect faults;
    private final SessionFence sessionFence;
    private final Supplier<Hotness> hotness;
    /** Ends failed replicas' database sessions, off the lock. */
    private final ExecutorService fencer = ReplicationManager.daemonThread("session-fencer");

    FailureHandler(LabState s, ReplicaPool pool, StatefulTierKeeper tier, FaultsInEffect faults,
            SessionFence sessionFence, Supplier<Hotness> hotness) {
        this.s = s;
        this.pool = pool;
        this.tier = tier;
        this.faults = faults;
        this.sessionFence = sessionFence;
        this.hotness = hotness;
    }

    /**
     * A failure report from a Fault Detector: trusted (it watched the heartbeats), acted on at once.
     *
     * @return false if the report is stale (another incarnation, or already handled: another detector's report)
     */
    boolean onDetectorReport(String replicaName, long pid, FailureKind kind, long detectedEpochUs) {
        synchronized (s.lock) {
            Replica replica = s.replica(replicaName);
            if (replica == null || replica.pid() != pid
                    || s.view.read(v -> v.state(replicaName)) == ReplicaState.DEAD) {
                return false;
            }
            handle(replicaName, kind, FailureRecord.Source.FAULT_DETECTOR, detectedEpochUs);
            return true;
        }
    }

    /**
     * A client's report that a replica failed for it: only a hint. The manager confirms it from the process state
     * (gone: crash; stopped: hang) before demoting; a running process is left alone (the client's problem may be
     * its own, and the Fault Detectors watch the heartbeats).
     *
     * @return true if the replica is (now) known failed
     */
    boolean onClientReport(String replicaName) {
        Replica replica;
        synchronized (s.lock) {
            replica = s.replica(replicaName);
            if (replica == null) {
                return false;
            }
            if (s.view.read(v -> v.state(replicaName)) == ReplicaState.DEAD) {
                return true;
            }
        }
        ProcessState state = replica.state(); // off the lock: on another machine, an ssh session
        if (state == ProcessState.RUNNING) {
            return false;
        }
        synchronized (s.lock) {
            if (s.view.read(v -> v.state(replicaName)) == ReplicaState.DEAD) {
                return true; // the detector's report came first
            }
            handle(replicaName, state == ProcessState.GONE ? FailureKind.CRASH : FailureKind.HANG,
                    FailureRecord.Source.CLIENT, LabState.epochMicros());
            return true;
        }
    }

    /**
     * The state of replica {@code replicaName}'s process {@code pid} on its host, for a Fault Detector that cannot see
     * the replicas' machines: gone if that incarnation is no longer the replica's.
     */
    ProcessState processState(String replicaName, long pid) {
        Replica replica;
        synchronized (s.lock) {
            ReplicaRecord rec = s.records.get(replicaName);
            replica = rec == null ? null : rec.replica;
            if (replica == null) {
                // no such replica: gone; one still starting (its pid not yet known here): running
                return rec == null ? ProcessState.GONE : ProcessState.RUNNING;
            }
        }
        return replica.pid() != pid ? ProcessState.GONE : replica.state(); // asked off the lock
    }

    /** Under {@link LabState#lock}: the view decides (demote, promote, take a spare); then fence, record, relaunch. */
    private void handle(String name, FailureKind verdict, FailureRecord.Source source, long detectedEpochUs) {
        // the shares of the request path at the top tier of the replicas that may be promoted (those serving and
        // the spares), as read now: the promoted one's is recorded
        Map<String, Double> shares = new HashMap<>();
        Hotness h = hotness.get();
        if (h != null) {
            List<String> candidates = new ArrayList<>(s.view.read(ViewKeeper::servingNames));
            candidates.addAll(s.view.read(ViewKeeper::spares));
            for (String replica : candidates) {
                Hotness.Reading r = h.of(replica);
                shares.put(replica, r == null ? null : r.share());
            }
        }
        ViewKeeper.Failure decided = s.decide(new ViewCommand.Fail(name, verdict, source, detectedEpochUs,
                LabState.epochMicros(), shares));
        if (decided == null) {
            return;
        }
        Replica failed = s.records.get(name).replica;
        // Fencing: a hung replica must never resume as a second primary. SIGKILL also ends a stopped process; ending
        // its database sessions as well rolls back the transactions it left open now, not when the kernel has torn
        // the process down, so the requests it held (hedged or retried elsewhere) wait no longer. That runs right
        // after the SIGKILL, off the lock: finding the sessions takes about 15 ms. A frozen process gets the SIGKILL
        // only once thawed: the faults its fence ended are undone at once.
        failed.kill();
        if (s.stopped()) {
            // Stopping (replicas stopping look failed to the detector): the executors are shut down, and the lab's
            // close stops what is left; only a fault this fence ended is undone, here.
            for (InjectedFault ended : decided.ended()) {
                faults.endNow(ended.faultId(), true);
            }
            return;
        }
        endSessionsLater(failed, s.order());
        for (InjectedFault ended : decided.ended()) {
            faults.endNow(ended.faultId(), false);
        }
        if (decided.spareJoined() != null) {
            pool.serveAtNormalPriority(decided.spareJoined());
        }
        if (decided.promoted() != null) {
            tier.promoted(decided.record().faultId(), decided.promoted(), s.view.read(ViewKeeper::epoch));
        }
        pool.replaceFailed(failed, s.view.read(ViewKeeper::failureCount) - 1, !decided.needsReplacement());
    }

    /**
     * In the fencer thread: ends the killed replica's database sessions, an order of epoch {@code order} (the view's
     * when its failure was decided, or a takeover's); a failure is logged (the kill ends them), and so is a refusal (a
     * newer leader's epoch: this one was deposed since it decided).
     */
    void endSessionsLater(Replica failed, EpochFence.Order order) {
        fencer.execute(() -> {
            try {
                sessionFence.endSessionsOf(failed.pid(), failed.placement(), order);
            } catch (EpochFence.Refused refused) {
                LOG.warning("the database sessions of " + failed.name() + " were not ended: " + refused.getMessage());
            } catch (IOException | SQLException e) {
                LOG.warning("could not end the database sessions of " + failed.name()
                        + " (they end with its process): " + e.getMessage());
            }
        });
    }

    /** No fence more; {@code waitForFences}: the sessions being ended are, first. */
    void stop(boolean waitForFences) {
        if (!waitForFences) {
            fencer.shutdownNow();
            return;
        }
        fencer.shutdown();
        try {
            fencer.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
