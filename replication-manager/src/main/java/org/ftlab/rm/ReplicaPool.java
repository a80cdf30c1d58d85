package org.ftlab.rm;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import java.util.logging.Logger;
import org.ftlab.rm.api.DegreeChange;
import org.ftlab.rm.api.Platform;
import org.ftlab.rm.api.ReplicaState;
import org.ftlab.rm.replica.Replica;
import org.ftlab.rm.replica.RequestPath;
import org.ftlab.rm.replica.Suspension;

/**
 * The replicas as a leading manager launches them: the lab's first boot, replacements for failed replicas, the pool of
 * pre-booted spares kept outside the view and refilled in the background, changes of the view's degree; the nice
 * value and (in WildFly's cluster) the suspension of each, by whether it serves; and keeping idle ones warm.
 */
final class ReplicaPool {
    private static final Logger LOG = Logger.getLogger(ReplicaPool.class.getName());
    /**
     * Nice value of a replacement replica. Its boot (seconds of JIT and class loading on every core) would otherwise
     * slow the primary's requests right after a fail-over by an order of magnitude on a 2-core lab host. Linux does
     * not let an unprivileged process lower it again, so a replacement later promoted serves at this nice value.
     */
    static final int REPLACEMENT_NICENESS = 10;
    /** Nice value of a spare booted beside the running service: it is not urgent, so it yields nearly all CPU. */
    static final int SPARE_NICENESS = 19;
    /** How long a manager that takes over waits for a replica its predecessor was booting. */
    private static final Duration ADOPTED_BOOT_TIMEOUT = Duration.ofSeconds(180);

    private final LabState s;
    private final LocalLab lab;
    private final ReplicaWarmer warmer;
    private final int targetSpares;
    private final boolean relaunch;
    /** Whether a booting local C2 replica is warmed until its JIT has settled. */
    private final boolean warmUntilSettled;
    /**
     * Whether the replicas form WildFly's own cluster, whose clients call every member that is not suspended: then
     * spares, and replicas booted while the service runs, wait suspended ({@link Suspension}) until they join the view.
     */
    private final boolean wildflyCluster;
    /** How hot each replica is; null until started. */
    private final Supplier<Hotness> hotness;
    private final ExecutorService relauncher = ReplicationManager.daemonThread("relauncher");

    ReplicaPool(LabState s, LocalLab lab, ReplicaWarmer warmer, int targetSpares, boolean relaunch,
            boolean warmUntilSettled, boolean wildflyCluster, Supplier<Hotness> hotness) {
        this.s = s;
        this.lab = lab;
        this.warmer = warmer;
        this.targetSpares = targetSpares;
        this.relaunch = relaunch;
        this.warmUntilSettled = warmUntilSettled;
        this.wildflyCluster = wildflyCluster;
        this.hotness = hotness;
    }

    int targetSpares() {
        return targetSpares;
    }

    long warmRoundsRun() {
        return warmer.roundsRun();
    }

    /** From now on, the backups and spares are kept warm ({@link ReplicaWarmer#keepWarm}). */
    void keepWarm() {
        warmer.keepWarm(this::idleReplicas, this::knownNotHot, this::doorsInUse);
    }

    /** The lab's first boot, one replica after another (the first becomes the primary), then the spares. */
    void bootOneByOne(int replicas, int spares) throws IOException, TimeoutException, InterruptedException {
        for (int i = 0; i < replicas; i++) {
            launchAndJoin(0, false);
        }
        for (int i = 0; i < spares; i++) {
            launchSpare(0, false);
        }
    }

    /**
     * At the lab's start, when nothing serves yet: the replicas and the spares boot side by side, and once all serve,
     * the first {@code replicas} launched join the view in launch order (the first is the primary) and the rest are
     * spares. Measured on 2 cores (docs/performance.md §3): faster for replicas whose JIT stops at C1 and that run a
     * few warm-up rounds (the test suite's), slower for the default ones, whose boots each keep both cores busy
     * compiling at C2.
     */
    void bootAll(int replicas, int spares) throws Exception {
        ExecutorService boots = Executors.newFixedThreadPool(replicas + spares, r -> {
            Thread t = new Thread(r, "boot");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<String>> launched = new ArrayList<>();
            for (int i = 0; i < replicas + spares; i++) {
                launched.add(boots.submit(() -> launch(0, false)));
            }
            List<String> names = new ArrayList<>();
            for (Future<String> f : launched) {
                try {
                    names.add(f.get());
                } catch (ExecutionException e) {
                    throw e.getCause() instanceof Exception cause ? cause : e;
                }
            }
            names.sort(Comparator.comparingInt(Replica::launchNumber));
            synchronized (s.lock) {
                for (int i = 0; i < names.size() && !s.stopped(); i++) {
                    if (i < replicas) {
                        s.decide(new ViewCommand.Join(names.get(i), LabState.epochMicros()));
                    } else {
                        s.decide(new ViewCommand.OfferSpare(names.get(i), LabState.epochMicros()));
                        standBy(names.get(i));
                    }
                }
            }
        } finally {
            boots.shutdownNow(); // after a failure, the boots still running are interrupted; close() stops them
        }
    }

    /**
     * Launches a new replica, waits until it serves, and appends it to the view (primary if there is none);
     * {@code suspended}: it boots suspended and is resumed as it joins.
     */
    private String launchAndJoin(int niceness, boolean suspended) throws IOException, TimeoutException,
            InterruptedException {
        String name = launch(niceness, suspended);
        synchronized (s.lock) {
            // the degree may have been lowered while it booted: then it waits as a spare
            if (!s.stopped() && s.decide(new ViewCommand.OfferSpare(name, LabState.epochMicros()))) {
                serveAtNormalPriority(name);
            } else if (!s.stopped()) {
                standBy(name);
            }
        }
        return name;
    }

    /**
     * The view's degree becomes {@code replicas} ({@link DegreeChange}): backups leave for the spare pool, or spares
     * join (at normal priority), and a replica is launched for each that no ready spare could give.
     */
    DegreeChange.Result setDegree(DegreeChange change, Supplier<Integer> members) {
        synchronized (s.lock) {
            if (s.stopped()) {
                throw new IllegalStateException("the lab is stopping");
            }
            ViewKeeper.DegreeChange decided = s.decide(new ViewCommand.SetDegree(change.replicas(),
                    LabState.epochMicros()));
            decided.left().forEach(this::standBy);
            decided.joined().forEach(this::serveAtNormalPriority);
            for (int i = 0; i < decided.missing(); i++) {
                relauncher.submit(() -> {
                    try {
                        if (!s.stopped() && members.get() < change.replicas()) {
                            launchAndJoin(REPLACEMENT_NICENESS, wildflyCluster);
                        }
                    } catch (Exception e) {
                        LOG.warning("launch for degree " + change.replicas() + " failed: " + e.getMessage());
                    }
                });
            }
            if (!decided.left().isEmpty() || !decided.joined().isEmpty()) {
                LOG.info("degree " + change.replicas() + (decided.left().isEmpty() ? ""
                        : ", to the spare pool: " + decided.left()) + (decided.joined().isEmpty() ? ""
                        : ", joined: " + decided.joined()));
            }
            return new DegreeChange.Result(s.view.read(ViewKeeper::epoch), s.view.read(ViewKeeper::targetDegree),
                    decided.left(), decided.joined(), decided.missing());
        }
    }

    /**
     * Launches a spare and waits until it serves; it stays outside the view until a serving replica fails;
     * {@code suspended}: it boots suspended (WildFly's cluster).
     */
    private void launchSpare(int niceness, boolean suspended) throws IOException, TimeoutException,
            InterruptedException {
        String name = launch(niceness, suspended);
        synchronized (s.lock) {
            if (!s.stopped() && s.view.read(v -> v.state(name)) == ReplicaState.STARTING
                    && s.decide(new ViewCommand.OfferSpare(name, LabState.epochMicros()))) {
                serveAtNormalPriority(name); // a failure was waiting for its degree: this spare restored it
            } else if (!s.stopped()) {
                standBy(name);
            }
        }
    }

    /**
     * Launches a replica under a new name and waits until it serves (state STARTING until the caller decides);
     * {@code suspended}: WildFly starts suspended, with its own warm-up at deployment but none of the warmer's
     * rounds (a suspended server refuses them).
     */
    private String launch(int niceness, boolean suspended) throws IOException, TimeoutException,
            InterruptedException {
        String name;
        ReplicaRecord rec = new ReplicaRecord(niceness);
        rec.suspended = suspended;
        synchronized (s.lock) {
            name = s.decide(new ViewCommand.Launching());
            s.records.put(name, rec);
        }
        Replica replica;
        try {
            replica = lab.startReplica(name, niceness, suspended, started -> {
                if (!started.placement().isRemote()) { // one on another machine dies with its launcher's ssh
                    synchronized (s.lock) {
                        s.decide(new ViewCommand.Launched(started.launch()));
                    }
                }
            });
        } catch (IOException | TimeoutException | InterruptedException e) {
            synchronized (s.lock) {
                s.decide(new ViewCommand.LaunchFailed(name));
            }
            throw e;
        }
        boolean settle = warmUntilSettled && replica.compilesAtC2() && !replica.placement().isRemote();
        long warmMillis = suspended ? 0
                : warmer.warmUp(replica, settle ? JitSettling.of(replica.pid()) : ReplicaWarmer.Settling.NONE);
        ReplicaWarmer.BootWarmUp warmed = warmer.bootWarmUpOf(name);
        if (settle && warmed != null) {
            LOG.info("" + name + (warmed.settled() ? " warmed until its JIT settled: "
                    : " warmed without its JIT settling: ") + warmed.rounds() + " rounds in " + warmMillis + " ms");
        }
        synchronized (s.lock) {
            rec.replica = replica;
            rec.warmUpMillis = warmMillis;
        }
        return name;
    }

    /** A replica the earlier leader was booting: it joins once up, as its launch would have ({@link Takeover}). */
    void joinWhenUp(String name, Replica replica) {
        relauncher.submit(() -> {
            try {
                replica.awaitReady(ADOPTED_BOOT_TIMEOUT);
            } catch (Exception e) {
                LOG.warning(name + ", booting when this manager took over, did not come up: " + e.getMessage());
                replica.stop();
                lab.forget(replica);
                synchronized (s.lock) {
                    s.decide(new ViewCommand.LaunchFailed(name));
                }
                return;
            }
            synchronized (s.lock) {
                s.records.get(name).replica = replica;
                if (!s.stopped() && s.decide(new ViewCommand.OfferSpare(name, LabState.epochMicros()))) {
                    serveAtNormalPriority(name);
                }
            }
        });
    }

    /**
     * In the relaunch thread, after a takeover: every failure whose degree is still short is restored, then the spare
     * pool refilled.
     */
    void restoreAll() {
        relauncher.submit(() -> {
            int failures;
            synchronized (s.lock) {
                failures = s.view.read(ViewKeeper::failureCount);
            }
            for (int i = 0; i < failures && relaunch && !s.stopped(); i++) {
                restore(i); // returns at once for a failure whose degree was restored
            }
            if (relaunch && !s.stopped()) {
                refillSpares();
            }
        });
    }

    /**
     * In the relaunch thread, after failure {@code failureIndex} of replica {@code failed} (killed): its process is
     * reaped and forgotten, its degree restored unless a spare did ({@code restored}), and the spare pool refilled.
     */
    void replaceFailed(Replica failed, int failureIndex, boolean restored) {
        relauncher.submit(() -> {
            failed.stop(); // reaps the process, closes its guard, frees its ports
            lab.forget(failed);
            warmer.forget(failed.name());
            if (relaunch && !s.stopped()) {
                if (!restored) {
                    restore(failureIndex);
                }
                refillSpares();
            }
        });
    }

    /** In the relaunch thread: a replacement replica, appended to the view; retried a few times. */
    private void restore(int failureIndex) {
        for (int attempt = 1; attempt <= 3 && !s.stopped(); attempt++) {
            synchronized (s.lock) {
                if (!s.view.read(v -> v.stillShort(failureIndex))) {
                    return; // a spare that finished booting meanwhile has restored it
                }
            }
            try {
                launchAndJoin(REPLACEMENT_NICENESS, wildflyCluster);
                return;
            } catch (Exception e) {
                LOG.warning("relaunch attempt " + attempt + " failed: " + e.getMessage());
            }
        }
    }

    /** In the relaunch thread: boots spares, beside the running service, until the pool is full again. */
    private void refillSpares() {
        int failuresInARow = 0;
        while (!s.stopped() && failuresInARow < 3) {
            synchronized (s.lock) {
                if (s.view.read(ViewKeeper::spares).size()
                        + s.view.read(v -> v.inState(ReplicaState.STARTING)).size() >= targetSpares) {
                    return;
                }
            }
            try {
                launchSpare(SPARE_NICENESS, wildflyCluster);
                failuresInARow = 0;
            } catch (Exception e) {
                failuresInARow++;
                LOG.warning("spare launch failed: " + e.getMessage());
            }
        }
    }

    /**
     * Whether {@code replica}'s last reading says it is not hot. Unknown (no reading yet, no primary to compare
     * with, a replica on another machine) is not "not hot": the warmer then keeps it warm at its usual rate.
     */
    private boolean knownNotHot(String replica) {
        Hotness h = hotness.get();
        Hotness.Reading r = h == null ? null : h.of(replica);
        return r != null && !r.hot();
    }

    /**
     * The doors the warmer keeps idle replicas hot through: remote EJB always, and the HTTP door once the primary's
     * hot code shows clients use it (unknown without a hotness reading, e.g. replicas on other machines: EJB only).
     */
    private List<Platform> doorsInUse() {
        Hotness h = hotness.get();
        return h != null && h.referenceHas(RequestPath.HTTP_DOOR_PACKAGE)
                ? List.of(Platform.EJB, Platform.REST) : List.of(Platform.EJB);
    }

    /** The replicas that serve no clients but must be ready to: backups and spares. */
    private List<Replica> idleReplicas() {
        synchronized (s.lock) {
            List<Replica> out = new ArrayList<>();
            for (String name : s.view.read(ViewKeeper::names)) {
                ReplicaState state = s.view.read(v -> v.state(name));
                ReplicaRecord rec = s.records.get(name);
                Replica r = rec.replica;
                if ((state == ReplicaState.BACKUP || state == ReplicaState.SPARE) && r != null && !rec.suspended) {
                    out.add(r);
                }
            }
            return out;
        }
    }

    /**
     * Under {@link LabState#lock}: a replica that joined the view serves from now on; one launched at a raised nice
     * value gets the normal one back (where the system allows it).
     */
    void serveAtNormalPriority(String name) {
        ReplicaRecord rec = s.records.get(name);
        if (rec.suspended && rec.replica != null) {
            try {
                Suspension.resume(rec.replica, lab.user());
                rec.suspended = false;
            } catch (IOException e) {
                LOG.warning("" + name + " stays suspended: " + e.getMessage());
            }
        }
        if (rec.niceness != 0) {
            try {
                rec.replica.renice(0);
                rec.niceness = 0;
            } catch (IOException e) {
                LOG.warning("" + name + " serves at nice " + rec.niceness + ": " + e.getMessage());
            }
        }
    }

    /**
     * Under {@link LabState#lock}: in WildFly's cluster a replica outside the view (a spare, or a backup the degree
     * sent to the pool) is suspended, so that the cluster's clients do not call it; elsewhere nothing changes.
     */
    private void standBy(String name) {
        ReplicaRecord rec = s.records.get(name);
        if (!wildflyCluster || rec.suspended || rec.replica == null
                || s.view.read(v -> v.state(name)) != ReplicaState.SPARE) {
            return;
        }
        try {
            Suspension.suspend(rec.replica, lab.user());
            rec.suspended = true;
        } catch (IOException e) {
            LOG.warning("" + name + " could not be suspended, so WildFly's clients may call it: " + e.getMessage());
        }
    }

    /** No launch, warm-up or relaunch more; a launch under way is interrupted. */
    void stop(boolean waitForRelaunches) {
        warmer.close();
        relauncher.shutdownNow();
        if (waitForRelaunches) {
            try {
                relauncher.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
