package org.ftlab.rm;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.ftlab.fd.FailureKind;
import org.ftlab.rm.api.FailureRecord;
import org.ftlab.rm.api.FaultKind;
import org.ftlab.rm.api.InjectedFault;
import org.ftlab.rm.api.ManagerGroup;
import org.ftlab.rm.api.PrimaryBackupView;
import org.ftlab.rm.api.ReplicaState;
import org.ftlab.rm.api.TierRecovery;
import org.ftlab.rm.replica.Replica;

/**
 * The view logic of warm-passive replication, apart from processes, signals and HTTP: which replicas serve (primary
 * first) and which wait as spares, the epoch, promotion when a serving replica fails, restoration of the degree by a
 * spare or a replacement, and the records of every failure and injected fault. It decides; the
 * {@link ReplicationManager} acts (kills, launches, ends sessions). Times are passed in (µs since the epoch), so every
 * decision can be tested without a clock.
 *
 * <p>Not thread-safe: the manager confines it to its lock.
 */
final class ViewKeeper {
    /** The degree the lab was started with: the highest {@link #setDegree} may ask for. */
    private final int maxDegree;
    private int targetDegree;
    private final Map<String, ReplicaState> states = new LinkedHashMap<>();
    private final List<String> serving = new ArrayList<>();
    /** Ready spares, oldest first: outside the view, taken in this order. */
    private final List<String> spares = new ArrayList<>();
    private final List<FailureRecord> failures = new ArrayList<>();
    private final List<InjectedFault> faults = new ArrayList<>();
    /** Every manager's leadership, oldest first: the view's changes since the last are its leader's. */
    private final List<ManagerGroup.Leadership> leaderships = new ArrayList<>();
    /**
     * Where each replica's process runs, as its launcher recorded it once the process started: what a manager that
     * leads after the launcher needs to take the process over. The keeper does not interpret it.
     */
    private final Map<String, Replica.Launch> launches = new LinkedHashMap<>();
    /** The lab's processes other than replicas, once its first leader started them; null before. */
    private LabProcesses lab;
    /** Whether the lab has been stopped: no later leader takes it over. */
    private boolean stopped;
    private long epoch;
    private int replicaCounter;
    private int faultCounter;

    ViewKeeper(int targetDegree) {
        if (targetDegree < 1) {
            throw new IllegalArgumentException("the replication degree must be at least 1, was " + targetDegree);
        }
        this.targetDegree = targetDegree;
        this.maxDegree = targetDegree;
    }

    /**
     * Everything a keeper holds, to write down and restore (a snapshot of the managers' replicated state).
     *
     * @param states every replica ever named, in launch order, with its state
     */
    record State(int maxDegree, int targetDegree, Map<String, ReplicaState> states, List<String> serving,
            List<String> spares, List<FailureRecord> failures, List<InjectedFault> faults,
            List<ManagerGroup.Leadership> leaderships, Map<String, Replica.Launch> launches, LabProcesses lab,
            boolean stopped, long epoch, int replicaCounter, int faultCounter) {
        State {
            launches = Collections.unmodifiableMap(new LinkedHashMap<>(launches));
            leaderships = List.copyOf(leaderships);
            states = Collections.unmodifiableMap(new LinkedHashMap<>(states));
            serving = List.copyOf(serving);
            spares = List.copyOf(spares);
            failures = List.copyOf(failures);
            faults = List.copyOf(faults);
        }
    }

    /** This keeper's state now (a copy). */
    State state() {
        return new State(maxDegree, targetDegree, states, serving, spares, failures, faults, leaderships, launches,
                lab, stopped, epoch, replicaCounter, faultCounter);
    }

    /** A keeper in state {@code s}. */
    static ViewKeeper of(State s) {
        ViewKeeper v = new ViewKeeper(s.maxDegree());
        v.targetDegree = s.targetDegree();
        v.states.putAll(s.states());
        v.serving.addAll(s.serving());
        v.spares.addAll(s.spares());
        v.failures.addAll(s.failures());
        v.faults.addAll(s.faults());
        v.leaderships.addAll(s.leaderships());
        v.launches.putAll(s.launches());
        v.lab = s.lab();
        v.stopped = s.stopped();
        v.epoch = s.epoch();
        v.replicaCounter = s.replicaCounter();
        v.faultCounter = s.faultCounter();
        return v;
    }

    /**
     * What a change of the degree decided: the backups that left the view for the spare pool, the spares that joined
     * it, and how many replicas are still missing (no spare was ready: the caller launches them).
     */
    record DegreeChange(List<String> left, List<String> joined, int missing) {
    }

    /**
     * The view's degree becomes {@code degree}, 1 to the degree the lab started with: lowering it moves the last
     * backups (never the primary) to the front of the spare pool, where they are the first taken, warm; raising it
     * takes spares, oldest first. The epoch changes if the view did. A failure waiting for its degree is restored
     * when the view reaches the new degree.
     */
    DegreeChange setDegree(int degree, long nowUs) {
        if (degree < 1 || degree > maxDegree) {
            throw new IllegalArgumentException("the replication degree can be 1 to " + maxDegree + " on this lab (it "
                    + "was started with " + maxDegree + " replicas), was " + degree);
        }
        targetDegree = degree;
        List<String> left = new ArrayList<>();
        while (serving.size() > degree) {
            String name = serving.remove(serving.size() - 1);
            states.put(name, ReplicaState.SPARE);
            spares.add(0, name);
            left.add(name);
        }
        List<String> joined = new ArrayList<>();
        while (serving.size() < degree && !spares.isEmpty()) {
            String name = spares.remove(0);
            states.put(name, serving.isEmpty() ? ReplicaState.PRIMARY : ReplicaState.BACKUP);
            serving.add(name);
            joined.add(name);
            restoredBy(name, nowUs);
        }
        if (serving.size() >= degree) {
            // a failure still waiting for the old, higher degree has the degree it now needs
            for (int i = 0; i < failures.size(); i++) {
                if (failures.get(i).restoredEpochUs() == 0 && !(failures.get(i).wasPrimary()
                        && failures.get(i).promotedEpochUs() == 0)) {
                    failures.set(i, failures.get(i).withRestored(nowUs, null));
                }
            }
        }
        if (!left.isEmpty() || !joined.isEmpty()) {
            epoch++;
        }
        return new DegreeChange(List.copyOf(left), List.copyOf(joined), degree - serving.size());
    }

    /**
     * What handling a failure decided.
     *
     * @param record the failure as recorded
     * @param wasServing whether it was in the view (a spare's failure leaves the degree as it was)
     * @param promoted the new primary, or null (no promotion, or nobody left to promote)
     * @param spareJoined the spare that joined the view, or null
     * @param ended faults on that replica's process that end with its fence (hang, freeze, slow): the caller undoes
     *     what is left of them (a frozen process must be thawed for the SIGKILL to be delivered)
     */
    record Failure(FailureRecord record, boolean wasServing, String promoted, String spareJoined,
            List<InjectedFault> ended) {
        /** Whether the degree is still short and a replacement must be launched. */
        boolean needsReplacement() {
            return record.restoredEpochUs() == 0;
        }
    }

    /**
     * Manager {@code member}, leader in {@code term}, changes the view from now on: its leadership is recorded the
     * first time. A leader of an older term, or a second leader of the current one, is refused: it may not change the
     * view (the consensus under the managers never lets it get this far; this keeps the view's own history whole if
     * it did).
     *
     * @throws IllegalStateException if another manager leads in {@code term} or a later one
     */
    void lead(String member, long term, long nowUs) {
        ManagerGroup.Leadership last = leaderships.isEmpty() ? null : leaderships.get(leaderships.size() - 1);
        if (last != null && (term < last.term() || term == last.term() && !member.equals(last.member()))) {
            throw new IllegalStateException("manager " + member + " of term " + term + " may not change the view: "
                    + last.member() + " leads in term " + last.term());
        }
        if (last == null || term > last.term()) {
            leaderships.add(new ManagerGroup.Leadership(member, term, nowUs));
        }
    }

    /**
     * The leader of {@code term} has taken the lab over and acts on failures again: it begins a new epoch of the view
     * (the same members), so that every order its predecessors gave is of an older epoch than its own and refused at
     * the targets (rm.db.EpochFence); the faults that failed its predecessor (rm-crash, rm-hang) are repaired by it.
     */
    void acting(String member, long term, long nowUs) {
        ManagerGroup.Leadership last = leaderships.isEmpty() ? null : leaderships.get(leaderships.size() - 1);
        if (last == null || last.term() != term || !last.member().equals(member)) {
            throw new IllegalStateException("manager " + member + " of term " + term + " does not lead the view");
        }
        epoch++;
        leaderships.set(leaderships.size() - 1, last.acting(nowUs));
        for (int i = 0; i < faults.size(); i++) {
            InjectedFault f = faults.get(i);
            if (f.active() && f.kind().actsOn() == FaultKind.ActsOn.MANAGER_PROCESS) {
                faults.set(i, f.repaired(nowUs, InjectedFault.Repair.REPLACED));
            }
        }
    }

    /** Every leadership so far, oldest first. */
    List<ManagerGroup.Leadership> leaderships() {
        return List.copyOf(leaderships);
    }

    /** A new replica name ({@code r1}, {@code r2}, …), state STARTING. */
    String launching() {
        String name = "r" + (++replicaCounter);
        states.put(name, ReplicaState.STARTING);
        return name;
    }

    /** The lab's first leader has started its detector and database (or a later one a new detector): where they run. */
    void labUp(LabProcesses processes) {
        lab = processes;
    }

    /** The lab stops: its leader stops every process, and no later leader takes it over. */
    void stop() {
        stopped = true;
    }

    boolean stopped() {
        return stopped;
    }

    /** The lab's processes other than replicas; null until its first leader started them. */
    LabProcesses lab() {
        return lab;
    }

    /** A launched replica's process has started (it boots): where it runs. */
    void launched(Replica.Launch launch) {
        requireState(launch.name(), ReplicaState.STARTING);
        launches.put(launch.name(), launch);
    }

    /** Where replica {@code name}'s process runs; null before its process started. */
    Replica.Launch launchOf(String name) {
        return launches.get(name);
    }

    /** A launch that failed: the replica is dead without ever serving. */
    void launchFailed(String name) {
        states.put(name, ReplicaState.DEAD);
    }

    /**
     * A booted replica joins the view (primary if there is none, else the last backup); if a failure is waiting for
     * its degree, the oldest is restored by it.
     */
    void join(String name, long nowUs) {
        requireState(name, ReplicaState.STARTING, ReplicaState.SPARE);
        spares.remove(name);
        states.put(name, serving.isEmpty() ? ReplicaState.PRIMARY : ReplicaState.BACKUP);
        serving.add(name);
        epoch++;
        restoredBy(name, nowUs);
    }

    /**
     * A booted spare: it joins the view at once if the degree is short (a failure was waiting for it), else waits
     * outside the view. Returns whether it joined.
     */
    boolean offerSpare(String name, long nowUs) {
        if (serving.size() < targetDegree) {
            join(name, nowUs);
            return true;
        }
        requireState(name, ReplicaState.STARTING);
        states.put(name, ReplicaState.SPARE);
        spares.add(name);
        return false;
    }

    /** The oldest failure still short of its degree is restored by replica {@code name}. */
    /** Records how the stateful tier recovered after failure {@code faultId}. */
    void tierRecovered(String faultId, TierRecovery recovery) {
        for (int i = 0; i < failures.size(); i++) {
            if (failures.get(i).faultId().equals(faultId)) {
                failures.set(i, failures.get(i).withTierRecovery(recovery));
            }
        }
    }

    private void restoredBy(String name, long nowUs) {
        for (int i = 0; i < failures.size(); i++) {
            FailureRecord f = failures.get(i);
            if (f.restoredEpochUs() == 0) {
                if (f.wasPrimary() && f.promotedEpochUs() == 0 && serving.get(0).equals(name)) {
                    f = f.withPromoted(nowUs, name); // nobody was left to promote: this replica is the new primary
                }
                failures.set(i, f.withRestored(nowUs, name));
                return;
            }
        }
    }

    /**
     * A replica failed (the caller fences it): it leaves the view or the spare pool, the next backup is promoted if
     * it was the primary, a ready spare joins at once, and the failure is recorded, under the fault injected into
     * that replica if one is in effect.
     *
     * @return null if the replica is unknown or already dead (a stale report)
     */
    Failure fail(String name, FailureKind verdict, FailureRecord.Source source, long detectedEpochUs, long nowUs) {
        return fail(name, verdict, source, detectedEpochUs, nowUs, replica -> null);
    }

    /**
     * As {@link #fail(String, FailureKind, FailureRecord.Source, long, long)}, recording the promoted replica's share
     * of the request path at the top tier as {@code topTierShare} gives it (null: not read).
     */
    Failure fail(String name, FailureKind verdict, FailureRecord.Source source, long detectedEpochUs, long nowUs,
            Function<String, Double> topTierShare) {
        ReplicaState state = states.get(name);
        if (state == null || state == ReplicaState.DEAD) {
            return null;
        }
        boolean wasPrimary = !serving.isEmpty() && serving.get(0).equals(name);
        boolean wasServing = serving.remove(name);
        spares.remove(name);
        int sparesReady = spares.size();
        states.put(name, ReplicaState.DEAD);
        InjectedFault cause = activeFaultOn(name);
        String faultId = cause != null ? cause.faultId() : nextFaultId();
        FailureRecord record = new FailureRecord(faultId, name, verdict, source, wasPrimary,
                cause != null ? cause.injectedEpochUs() : 0, detectedEpochUs, 0, 0, null, sparesReady, null, null, null);
        String promoted = null;
        if (wasPrimary && !serving.isEmpty()) {
            promoted = serving.get(0);
            states.put(promoted, ReplicaState.PRIMARY);
            record = record.withPromoted(nowUs, promoted);
        }
        String spareJoined = null;
        if (wasServing && !spares.isEmpty()) {
            spareJoined = spares.remove(0);
            states.put(spareJoined, serving.isEmpty() ? ReplicaState.PRIMARY : ReplicaState.BACKUP);
            serving.add(spareJoined);
            if (wasPrimary && promoted == null) {
                promoted = spareJoined;
                record = record.withPromoted(nowUs, promoted); // no backup was left: the spare is the new primary
            }
            record = record.withRestored(nowUs, spareJoined);
        }
        if (!wasServing) {
            record = record.withRestored(nowUs, null); // a spare: the degree never dropped
        }
        if (promoted != null) {
            record = record.withPromotedTopTierShare(topTierShare.apply(promoted));
        }
        epoch++;
        failures.add(record);
        List<InjectedFault> ended = new ArrayList<>();
        for (int i = 0; i < faults.size(); i++) {
            InjectedFault f = faults.get(i);
            if (f.active() && name.equals(f.replica()) && f.kind().layer() == FaultKind.Layer.PROCESS) {
                InjectedFault done = f.repaired(nowUs, f.kind().madeByManager()
                        ? InjectedFault.Repair.REPLACED : InjectedFault.Repair.FENCED);
                faults.set(i, done);
                ended.add(done);
            }
        }
        return new Failure(record, wasServing, promoted, spareJoined, List.copyOf(ended));
    }

    /** The fault in effect on replica {@code name} (the newest), or null. */
    private InjectedFault activeFaultOn(String name) {
        for (int i = faults.size() - 1; i >= 0; i--) {
            InjectedFault f = faults.get(i);
            if (f.active() && name.equals(f.replica())) {
                return f;
            }
        }
        return null;
    }

    /** The id the next fault or unprovoked failure gets. */
    String nextFaultId() {
        return "f" + (++faultCounter);
    }

    /**
     * Records an injected fault (its id from {@link #nextFaultId()}). A fault that takes time to make is recorded
     * before it is made, with the time its making began, so that a failure its replica shows meanwhile (a client's
     * report can come within milliseconds of a SIGSTOP) is that fault's; {@link #made} then gives the time it was in
     * place, and {@link #withdrawn} forgets one that could not be made.
     */
    void injected(InjectedFault fault) {
        faults.add(fault);
    }

    /**
     * The fault {@code faultId} has been made: in place from {@code epochUs} on. Returns its record. One that ended
     * while it was being made (its replica failed and was fenced) keeps the time its making began.
     */
    InjectedFault made(String faultId, long epochUs) {
        for (int i = 0; i < faults.size(); i++) {
            InjectedFault f = faults.get(i);
            if (f.faultId().equals(faultId)) {
                if (f.active()) {
                    f = new InjectedFault(f.faultId(), f.spec(), f.replica(), f.pid(), epochUs, 0, f.repair());
                    faults.set(i, f);
                }
                return f;
            }
        }
        throw new IllegalArgumentException("unknown fault '" + faultId + "'");
    }

    /** Forgets a fault that was recorded while being made and could not be made. */
    void withdrawn(String faultId) {
        faults.removeIf(f -> f.faultId().equals(faultId));
    }

    /**
     * The fault {@code faultId} was undone at {@code nowUs}; returns its record, or null if it had already ended (its
     * replica was fenced first: what is left of it is undone all the same, without a second record).
     */
    InjectedFault repaired(String faultId, long nowUs, InjectedFault.Repair how) {
        for (int i = 0; i < faults.size(); i++) {
            InjectedFault f = faults.get(i);
            if (f.faultId().equals(faultId)) {
                if (!f.active()) {
                    return null;
                }
                InjectedFault done = f.repaired(nowUs, how);
                faults.set(i, done);
                return done;
            }
        }
        throw new IllegalArgumentException("unknown fault '" + faultId + "'");
    }

    /** The replica serving at {@code index} of the view (0: the primary), or null. */
    String serving(int index) {
        return serving.size() > index ? serving.get(index) : null;
    }

    /** Whether the oldest failure at {@code index} still waits for its degree and the view is short. */
    boolean stillShort(int failureIndex) {
        return failures.get(failureIndex).restoredEpochUs() == 0 && serving.size() < targetDegree;
    }

    int failureCount() {
        return failures.size();
    }

    ReplicaState state(String name) {
        return states.get(name);
    }

    /** Names of replicas in state {@code s}, in launch order. */
    List<String> inState(ReplicaState s) {
        return states.entrySet().stream().filter(e -> e.getValue() == s).map(Map.Entry::getKey).toList();
    }

    long epoch() {
        return epoch;
    }

    int degree() {
        return serving.size();
    }

    int targetDegree() {
        return targetDegree;
    }

    int maxDegree() {
        return maxDegree;
    }

    List<String> servingNames() {
        return List.copyOf(serving);
    }

    List<String> spares() {
        return List.copyOf(spares);
    }

    List<FailureRecord> failures() {
        return List.copyOf(failures);
    }

    List<InjectedFault> faults() {
        return List.copyOf(faults);
    }

    /** Every replica ever named, in launch order. */
    List<String> names() {
        return List.copyOf(states.keySet());
    }

    PrimaryBackupView view(Function<String, String> uriOf) {
        List<PrimaryBackupView.Member> members = new ArrayList<>();
        for (String name : serving) {
            members.add(new PrimaryBackupView.Member(name, uriOf.apply(name)));
        }
        return new PrimaryBackupView(epoch, members);
    }

    private void requireState(String name, ReplicaState... allowed) {
        ReplicaState s = states.get(name);
        for (ReplicaState a : allowed) {
            if (s == a) {
                return;
            }
        }
        throw new IllegalStateException("replica " + name + " is " + s + ", expected one of "
                + Arrays.toString(allowed));
    }
}
