package org.ftlab.rm;

import java.util.LinkedHashMap;
import java.util.Map;
import org.ftlab.auction.api.MicroClock;
import org.ftlab.rm.consensus.NotLeaderException;
import org.ftlab.rm.consensus.ReplicatedState;
import org.ftlab.rm.db.EpochFence;
import org.ftlab.rm.replica.Replica;

/**
 * What every part of a leading manager acts on, under one lock: the view, changed only by commands the managers agree
 * on ({@link ViewCommand}; a lab's one manager: at once), and the processes behind its names; and whether this manager
 * still acts (it stops when the lab stops or when it steps down).
 */
final class LabState {
    /** Guards {@link #view}'s changes and {@link #records}. */
    final Object lock = new Object();
    final ReplicatedState<ViewKeeper> view;
    /** The processes behind the names the view keeps; guarded by {@link #lock}. */
    final Map<String, ReplicaRecord> records = new LinkedHashMap<>();
    private volatile boolean stopped;

    LabState(ReplicatedState<ViewKeeper> view) {
        this.view = view;
    }

    /**
     * Under {@link #lock}: a change of the view, once the managers agreed on it; answers the view's decision.
     *
     * @throws ReplicationManager.NoLongerLeads if this manager no longer leads (it must not act on the view)
     */
    <R> R decide(ViewCommand<R> command) {
        try {
            return view.apply(command);
        } catch (NotLeaderException e) {
            throw new ReplicationManager.NoLongerLeads(e);
        }
    }

    /** Whether this manager has stopped acting on the lab (it closed it, or stepped down). */
    boolean stopped() {
        return stopped;
    }

    /** Under {@link #lock}: this manager stops acting; false if it already had. */
    boolean stopActing() {
        if (stopped) {
            return false;
        }
        stopped = true;
        return true;
    }

    /** Under {@link #lock}: the process of replica {@code name}; null if it has none (yet). */
    Replica replica(String name) {
        ReplicaRecord rec = records.get(name);
        return rec == null ? null : rec.replica;
    }

    /** An order of the view's current epoch, given by this manager in its term ({@link EpochFence}). */
    EpochFence.Order order() {
        return new EpochFence.Order(view.read(ViewKeeper::epoch), view.member(), view.term());
    }

    static long epochMicros() {
        return MicroClock.nowEpochMicros();
    }
}
