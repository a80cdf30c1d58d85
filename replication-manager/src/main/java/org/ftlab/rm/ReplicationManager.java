package org.ftlab.rm;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import org.ftlab.auction.api.StatefulTierSettings;
import org.ftlab.auction.api.TierStatus;
import org.ftlab.auction.client.ReplicaConnection;
import org.ftlab.fd.FailureKind;
import org.ftlab.fd.ProcessState;
import org.ftlab.os.FlightRecording;
import org.ftlab.os.FreePorts;
import org.ftlab.os.Janitor;
import org.ftlab.os.net.Hosts;
import org.ftlab.os.net.VirtualNetwork;
import org.ftlab.rm.api.DatabaseView;
import org.ftlab.rm.api.DegreeChange;
import org.ftlab.rm.api.EventDump;
import org.ftlab.rm.api.FailureRecord;
import org.ftlab.rm.api.FaultKind;
import org.ftlab.rm.api.FaultSpec;
import org.ftlab.rm.api.InjectedFault;
import org.ftlab.rm.api.ManagerGroup;
import org.ftlab.rm.api.ManagerStatus;
import org.ftlab.rm.api.NetworkLayout;
import org.ftlab.rm.api.ObserveSwitch;
import org.ftlab.rm.api.PrimaryBackupView;
import org.ftlab.rm.api.ReplicaState;
import org.ftlab.rm.api.ReplicaStatus;
import org.ftlab.rm.api.StatefulTierReport;
import org.ftlab.rm.api.TierRecovery;
import org.ftlab.rm.consensus.LocalState;
import org.ftlab.rm.consensus.NotLeaderException;
import org.ftlab.rm.consensus.ReplicatedState;
import org.ftlab.rm.db.DatabaseKeeper;
import org.ftlab.rm.db.EpochFence;
import org.ftlab.rm.db.ReplicatedDatabase;
import org.ftlab.rm.db.SessionFence;
import org.ftlab.rm.detector.DetectorKeeper;
import org.ftlab.rm.fault.FaultsInEffect;
import org.ftlab.rm.observe.Observation;
import org.ftlab.rm.replica.ConnectionPools;
import org.ftlab.rm.replica.HeartbeatSettings;
import org.ftlab.rm.replica.Replica;
import org.ftlab.rm.tier.StatefulTierKeeper;

/**
 * Warm-passive replication, as the leading manager of a lab runs it: launches the replicas, keeps the ordered
 * primary/backup list, promotes the next backup when a Fault Detector (or, once confirmed, a client) reports the
 * primary failed, fences the failed replica (SIGKILL: a hung one must never come back as a second primary; its
 * database sessions are ended too, so that the transactions it left open release their locks at once), and restores
 * the replication degree: at once from a pool of pre-booted spares kept outside the view, or by relaunching a
 * replacement when no spare is ready. It also injects faults for experiments.
 *
 * <p>This class composes the parts and is their door: {@link LabState} (the replicated view and the processes behind
 * it, under one lock), {@link ReplicaPool} (launching, spares, degree), {@link FailureHandler} (reports, fencing,
 * promotion), {@link FaultInjector}, {@link DetectorKeeper} (the Fault Detectors), {@link StatefulTierKeeper},
 * {@link LabJvms} (what the measurements read), and {@link Takeover} (a later leader's adoption of the lab).
 */
public final class ReplicationManager implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(ReplicationManager.class.getName());

    /** The id of a lab's one manager (the first of a group's, {@code m1}, {@code m2}, …). */
    static final String MANAGER_ID = "m1";
    /** The janitor's key for a replicated database's files. */
    private static final String DATABASE_FILES = "database-files";

    final LocalLab lab;
    final LabState s;
    /** The lab's Fault Detectors, one per manager of the lab. */
    final DetectorKeeper detectors;
    private final HeartbeatSettings heartbeat;
    final ReplicaPool pool;
    final FailureHandler failures;
    private final FaultInjector injector;
    final LabJvms jvms;
    private final SessionFence sessionFence;
    /** The injected faults still in effect, and their undo. */
    private final FaultsInEffect faults;
    /** Runs the stateful tier on the view's primary and recovers it on promotions and database fail-overs. */
    private final StatefulTierKeeper tier;
    /** The lab's event recordings and samplers on this machine; null until started. */
    volatile Observation observation;
    /** How much of the request path each local replica has compiled at the top tier; null until started. */
    volatile Hotness hotness;
    /** Undoes what this manager leaves behind if it is killed: the faults in effect, a replicated database's files. */
    private final Janitor janitor;
    /** Keeps a replicated database's view and fails its writer over; null for one server. */
    private volatile DatabaseKeeper databaseKeeper;

    /**
     * Settings of the manager; {@code spares}: pre-booted replicas kept outside the view; {@code warmRounds} and
     * {@code warmRate}: the {@link ReplicaWarmer}'s rounds after boot and per second on backups and spares;
     * {@code hotWarmRate}: its rounds per second on a backup or spare that is not hot yet; {@code warmUntilSettled}:
     * a local replica that compiles at C2 gets more rounds after its boot rounds, until its JIT has settled
     * ({@link JitSettling}); {@code bootTogether}: at the lab's start the replicas and spares boot side by side
     * instead of one after another; {@code managerDir}: this manager's own files (its janitor's script).
     */
    public record Settings(LocalLab.Options lab, int replicas, int spares, long heartbeatMillis, long timeoutMillis,
            boolean relaunch, int warmRounds, double warmRate, double hotWarmRate, boolean warmUntilSettled,
            boolean bootTogether, Path managerDir) {
        public Settings {
            if (replicas < 1 || replicas > 5) {
                throw new IllegalArgumentException("replicas must be 1 to 5, was " + replicas);
            }
            if (spares < 0 || spares > 3) {
                throw new IllegalArgumentException("spares must be 0 to 3, was " + spares);
            }
        }

        /** How this lab's detectors start, reporting to {@code managerUrl}. */
        DetectorKeeper.Launch detectorLaunch(String managerUrl, String managerToken) throws IOException {
            Path runDir = lab.runDir().toAbsolutePath();
            return new DetectorKeeper.Launch(runDir.resolve("fd"), managerUrl, managerToken, lab.hosts() != null,
                    lab.observe() ? FlightRecording.settingsFile(runDir.resolve("rm")) : null, lab.network());
        }

        /** The lab's options with its heartbeat group's. */
        LocalLab.Options labOptions(HeartbeatSettings heartbeat) {
            LocalLab.Options o = lab;
            return new LocalLab.Options(o.runDir().toAbsolutePath(), o.serverHome(), o.externalDatabase(),
                    o.replicaMaxHeap(), heartbeat, o.network(), o.hosts(), o.requestLog(), warmRounds, o.observe(),
                    o.wildflyCluster(), o.databaseTier());
        }

        ReplicaWarmer warmer(LocalLab started) throws IOException {
            return new ReplicaWarmer(started.user(), warmRounds, warmRate, hotWarmRate, lab.requestLog());
        }
    }

    ReplicationManager(Settings settings, LocalLab lab, DetectorKeeper detectors, HeartbeatSettings heartbeat,
            ReplicatedState<ViewKeeper> view, SessionFence sessionFence, Janitor janitor) throws IOException {
        this.s = new LabState(view);
        this.lab = lab;
        this.detectors = detectors;
        this.heartbeat = heartbeat;
        this.sessionFence = sessionFence;
        this.janitor = janitor;
        // a new leader's first change: its copy of the view then holds every change a majority stored before it
        synchronized (s.lock) {
            s.decide(new ViewCommand.Lead(view.member(), view.term(), LabState.epochMicros()));
        }
        this.faults = new FaultsInEffect(janitor);
        this.pool = new ReplicaPool(s, lab, settings.warmer(lab), settings.spares(), settings.relaunch(),
                settings.warmUntilSettled(), settings.lab().wildflyCluster(), () -> hotness);
        this.tier = new StatefulTierKeeper(new TierReplicas(), this::tierRecovered);
        this.failures = new FailureHandler(s, pool, tier, faults, sessionFence, () -> hotness);
        this.injector = new FaultInjector(s, lab, faults, detectors);
        this.jvms = new LabJvms(s, lab, detectors);
    }

    /** A lab's one manager: its view kept here alone. */
    static ReplicatedState<ViewKeeper> alone(Settings settings) {
        return new LocalState<>(MANAGER_ID, new ViewKeeper(settings.replicas()));
    }

    /**
     * Starts the Fault Detectors (one per member of {@code view}), the database and the replicas (the first becomes
     * the primary), keeping the view in {@code view} (this manager must lead it). {@code managerUrl} is where the
     * detectors report failures: the members' addresses, comma-separated, in a lab of several managers.
     */
    public static ReplicationManager start(Settings settings, ReplicatedState<ViewKeeper> view, String managerUrl,
            String managerToken) throws Exception {
        Path runDir = settings.lab().runDir().toAbsolutePath();
        Files.createDirectories(runDir.resolve("fd"));
        VirtualNetwork network = settings.lab().network();
        Hosts hosts = settings.lab().hosts();
        // the detectors run beside the manager, where the replicas reach them
        String detectorAddress = hosts != null ? hosts.managerAddress()
                : network == null ? "127.0.0.1" : network.placement(NetworkLayout.MANAGER_HOST).address();
        List<Integer> ports = new ArrayList<>();
        for (int i = 0; i < view.members().size(); i++) {
            ports.add(FreePorts.findFreePortPair());
        }
        HeartbeatSettings heartbeat = new HeartbeatSettings(detectorAddress, ports, settings.heartbeatMillis(),
                settings.timeoutMillis());
        DetectorKeeper detectors = DetectorKeeper.start(settings.detectorLaunch(managerUrl, managerToken), heartbeat);
        LocalLab lab;
        Janitor janitor = null;
        try {
            janitor = Janitor.start(settings.managerDir().resolve("undo.sh"));
            LocalLab.Options o = settings.lab();
            if (o.databaseTier().replicated() && o.externalDatabase() == null && hosts == null) {
                // a manager stopped or killed while the servers start (a Galera node in its state transfer) leaves
                // none of them, nor their files; a killed manager's servers die with it besides (orphan guards)
                janitor.register(DATABASE_FILES, ReplicatedDatabase.leftoversScript(runDir.resolve("db"),
                        o.databaseTier().nodes()));
            }
            lab = LocalLab.start(settings.labOptions(heartbeat));
        } catch (Exception e) {
            detectors.close();
            if (janitor != null) {
                janitor.done(DATABASE_FILES); // the tier cleaned up after itself
                janitor.close();
            }
            throw e;
        }
        lab.database().endpoint().saveForAudits(runDir);
        SessionFence fence;
        try {
            fence = lab.database().fence();
        } catch (SQLException e) {
            lab.close();
            janitor.done(DATABASE_FILES);
            janitor.close();
            detectors.close();
            throw e;
        }
        ReplicationManager rm = new ReplicationManager(settings, lab, detectors, heartbeat, view, fence, janitor);
        rm.detectors.watch(rm::detectorRestarted);
        try {
            synchronized (rm.s.lock) {
                rm.s.decide(new ViewCommand.LabUp(rm.labProcesses()));
            }
            rm.sessionFence.resetEpoch(rm.s.order()); // a new lab: whatever an earlier lab's managers ordered at
            if (lab.database() instanceof ReplicatedDatabase replicated) {
                rm.databaseKeeper = DatabaseKeeper.start(replicated, settings.timeoutMillis(),
                        rm::onDatabaseWriterMoved);
            }
            rm.observation = Observation.start(rm.jvms, runDir.resolve("rm"), lab.database().endpoint(),
                    settings.lab().observe());
            if (settings.bootTogether()) {
                rm.pool.bootAll(settings.replicas(), settings.spares());
            } else {
                rm.pool.bootOneByOne(settings.replicas(), settings.spares());
            }
            rm.pool.keepWarm();
            rm.hotness = Hotness.start(rm.jvms::hotnessTargets);
        } catch (Exception e) {
            rm.close();
            throw e;
        }
        return rm;
    }

    /** Takes over the lab an earlier leader of {@code view} started: {@link Takeover#takeOver}. */
    public static ReplicationManager takeOver(Settings settings, ReplicatedState<ViewKeeper> view, String managerUrl,
            String managerToken) throws Exception {
        return Takeover.takeOver(settings, view, managerUrl, managerToken);
    }

    /** What a member that may lead next does ahead: {@link Takeover#prepare}. */
    public static void prepareToTakeOver(Settings settings) {
        Takeover.prepare(settings);
    }

    /** Where the lab's processes other than the replicas run now, as the view records them. */
    LabProcesses labProcesses() {
        return new LabProcesses(detectors.pids(), heartbeat.detectorAddress(), heartbeat.detectorPorts(),
                lab.database().pid().orElse(0));
    }

    /**
     * A Fault Detector was gone and runs again on its port (fault {@code fd-crash}): recorded, and the fault that
     * killed it repaired.
     */
    void detectorRestarted(DetectorKeeper.Restarted restarted) {
        synchronized (s.lock) {
            if (s.stopped()) {
                return;
            }
            s.decide(new ViewCommand.LabUp(labProcesses()));
            for (InjectedFault f : s.view.read(ViewKeeper::faults)) {
                if (f.active() && f.kind().actsOn() == FaultKind.ActsOn.DETECTOR_PROCESS) {
                    s.decide(new ViewCommand.Repaired(f.faultId(), LabState.epochMicros(),
                            InjectedFault.Repair.REPLACED));
                }
            }
        }
    }

    /** From now on the database refuses the orders of an epoch below {@code order}'s ({@link SessionFence}). */
    void raiseEpoch(EpochFence.Order order) throws SQLException {
        sessionFence.raiseEpoch(order);
    }

    /** The lab was stopped by an earlier leader: there is nothing to take over. */
    public static final class LabStopped extends RuntimeException {
        LabStopped() {
            super("the lab has been stopped");
        }
    }

    /**
     * This manager no longer leads: it stops acting (no launch, fence, injection or warm-up more), undoes the faults
     * it made, and lets go of the lab's processes, which run on for the next leader to adopt. Safe to call twice.
     */
    public void stepDown() {
        synchronized (s.lock) {
            if (!s.stopActing()) {
                return;
            }
        }
        // first: a launch this stops midway (its thread interrupted) must leave the booting replica running, for the
        // next leader to adopt
        lab.release();
        detectors.release();
        tier.close();
        // the faults this manager made on itself (a partition that deposed it) last their duration, leader or not;
        // the others are undone now, and recorded by the next leader: this one can no longer change the view
        Set<String> onItself = s.view.read(ViewKeeper::faults).stream().filter(f -> f.active()
                && f.kind().actsOn() == FaultKind.ActsOn.MANAGER_PROCESS).map(InjectedFault::faultId)
                .collect(Collectors.toSet());
        faults.undoAllBut(onItself);
        pool.stop(false);
        Hotness h = hotness;
        if (h != null) {
            h.close();
        }
        failures.stop(false);
        sessionFence.close();
        Observation o = observation;
        if (o != null) {
            o.close();
        }
        synchronized (s.lock) {
            s.records.values().stream().map(r -> r.replica).filter(r -> r != null).forEach(Replica::release);
        }
        faults.close();
        LOG.info(s.view.member() + " stepped down: it no longer acts on the lab");
    }

    static ExecutorService daemonThread(String name) {
        return Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * The view's degree becomes {@code replicas} ({@link DegreeChange}): backups leave for the spare pool, or spares
     * join (at normal priority), and a replica is launched for each that no ready spare could give.
     */
    public DegreeChange.Result setDegree(DegreeChange change) {
        return pool.setDegree(change, () -> view().members().size());
    }

    // ---- views ------------------------------------------------------------------------------------------------

    public PrimaryBackupView view() {
        synchronized (s.lock) {
            return s.view.read(v -> v.view(name -> s.records.get(name).replica.remotingUri()));
        }
    }

    /** Status of every replica ever launched in this lab, every failure and every injected fault. */
    public ManagerStatus status() {
        synchronized (s.lock) {
            List<ReplicaStatus> replicas = new ArrayList<>();
            long nowMillis = System.currentTimeMillis();
            ReplicatedState<ViewKeeper> view = s.view;
            for (String name : view.read(ViewKeeper::names)) {
                ReplicaRecord r = s.records.get(name);
                ReplicaState state = view.read(v -> v.state(name));
                Replica p = r.replica;
                Hotness.Reading hot = hotness == null ? null : hotness.of(name);
                replicas.add(new ReplicaStatus(name, state, p == null ? null : p.pid(), r.niceness, r.warmUpMillis,
                        p == null ? null : p.remotingUri(), r.launchedEpochMillis,
                        state == ReplicaState.DEAD ? null : nowMillis - r.launchedEpochMillis,
                        p == null || p.startupTime() == null ? null : p.startupTime().toMillis(),
                        hot == null || state == ReplicaState.DEAD ? null : hot.share(),
                        hot == null || !hot.hot() || state == ReplicaState.DEAD ? null : hot.hotSinceEpochMillis()));
            }
            List<String> serving = view.read(ViewKeeper::servingNames);
            return new ManagerStatus(view.read(ViewKeeper::epoch), serving.isEmpty() ? null : serving.get(0),
                    serving.size(), view.read(ViewKeeper::targetDegree), view.read(ViewKeeper::spares),
                    pool.targetSpares(), pool.warmRoundsRun(), heartbeat.heartbeatMillis(),
                    heartbeat.timeoutMillis(), detectors.coordinator().pid(), lab.database().endpoint().redactedUrl(),
                    replicas, view.read(ViewKeeper::failures), view.read(ViewKeeper::faults), databaseView(),
                    new ManagerGroup(view.members(), view.leader(), view.term(), view.read(ViewKeeper::leaderships)));
        }
    }

    /** The database tier's view: the keeper's for a replicated one; one writer, never failed over, otherwise. */
    public DatabaseView databaseView() {
        DatabaseKeeper keeper = databaseKeeper;
        return keeper != null ? keeper.view()
                : DatabaseView.single("db", lab.database().pid().orElse(0));
    }

    public List<FailureRecord> failures() {
        synchronized (s.lock) {
            return s.view.read(ViewKeeper::failures);
        }
    }

    public LocalLab lab() {
        return lab;
    }

    /** The term this manager leads in (1 for a lab's one manager). */
    public long term() {
        return s.view.term();
    }

    // ---- failures ---------------------------------------------------------------------------------------------

    /** A Fault Detector's report: {@link FailureHandler#onDetectorReport}. */
    public boolean onDetectorReport(String replicaName, long pid, FailureKind kind, long detectedEpochUs) {
        return failures.onDetectorReport(replicaName, pid, kind, detectedEpochUs);
    }

    /** A client's report: {@link FailureHandler#onClientReport}. */
    public boolean onClientReport(String replicaName) {
        return failures.onClientReport(replicaName);
    }

    /** A replica's process state, for a detector that cannot see its host: {@link FailureHandler#processState}. */
    public ProcessState processState(String replicaName, long pid) {
        return failures.processState(replicaName, pid);
    }

    /** This manager could not change the view: it no longer leads (the door sends the caller to the leader). */
    public static final class NoLongerLeads extends IllegalStateException {
        NoLongerLeads(NotLeaderException cause) {
            super("this manager no longer leads: " + cause.getMessage(), cause);
        }
    }

    // ---- the stateful tier (seed 003) ---------------------------------------------------------------------------

    /** Starts a run of the stateful tier on the primary: {@link StatefulTierKeeper#configure}. */
    public TierStatus configureStatefulTier(StatefulTierSettings settings) throws Exception {
        return tier.configure(settings);
    }

    /** Stops the stateful tier everywhere, and its recovery on promotions: {@link StatefulTierKeeper#stop}. */
    public boolean stopStatefulTier() {
        return tier.stop();
    }

    /** The stateful tier on the primary: {@link StatefulTierKeeper#status}. */
    public StatefulTierReport statefulTierStatus(boolean checkpoint) throws Exception {
        return tier.status(checkpoint);
    }

    /** A promotion's recovery of the stateful tier, recorded in the failure that caused it. */
    private void tierRecovered(String faultId, TierRecovery result) {
        synchronized (s.lock) {
            s.decide(new ViewCommand.TierRecovered(faultId, result));
        }
    }

    /**
     * A replicated database's new writer takes writes (off the keeper's thread): every replica's connection pool is
     * emptied of the connections the fail-over cut, then the stateful tier recovers on the primary.
     */
    private void onDatabaseWriterMoved() {
        List<Replica> running;
        synchronized (s.lock) {
            running = s.records.values().stream().map(rec -> rec.replica).filter(r -> r != null).toList();
        }
        tier.writerMoved(() -> {
            for (Replica r : running) {
                try {
                    ConnectionPools.flush(r, lab.user());
                } catch (IOException e) {
                    LOG.info(r.name() + "'s connection pool was not emptied: " + e.getMessage());
                }
            }
        });
    }

    /** The view as the stateful tier's keeper sees it, and connections to its replicas as the application user. */
    private final class TierReplicas implements StatefulTierKeeper.Replicas {
        @Override
        public StatefulTierKeeper.Snapshot now() {
            synchronized (s.lock) {
                List<String> live = new ArrayList<>();
                for (String name : s.view.read(ViewKeeper::names)) {
                    if (s.view.read(v -> v.state(name)) != ReplicaState.DEAD && s.replica(name) != null) {
                        live.add(name);
                    }
                }
                return new StatefulTierKeeper.Snapshot(s.view.read(ViewKeeper::servingNames), live,
                        s.view.read(ViewKeeper::epoch));
            }
        }

        @Override
        public ReplicaConnection connect(String name) throws Exception {
            Replica r;
            synchronized (s.lock) {
                r = s.replica(name);
                if (r == null) {
                    throw new IllegalStateException("no replica " + name);
                }
            }
            return ReplicaConnection.open(r.remotingUri(), lab.user().username(), lab.user().password(), 30_000);
        }
    }

    // ---- events ----------------------------------------------------------------------------------------------

    /** What every recording JVM of the lab recorded since a time: {@link Observation#dump}. Off the lock. */
    public EventDump.Files dumpEvents(EventDump request) {
        return observing().dump(request);
    }

    /** The lab's observation; a manager that has just taken the lab over starts it after it acts again. */
    private Observation observing() {
        Observation o = observation;
        if (o == null) {
            throw new IllegalStateException("this manager took the lab over a moment ago and is still starting its "
                    + "observation: ask again shortly");
        }
        return o;
    }

    /**
     * Starts or stops observing: {@link Observation#observe}.
     *
     * @throws IllegalArgumentException if this lab records no events ({@code --observe off})
     */
    public ObserveSwitch.Result observe(ObserveSwitch request) throws IOException {
        return observing().observe(request);
    }

    // ---- fault injection --------------------------------------------------------------------------------------

    /** Injects a fault now and repairs it after its duration: {@link FaultInjector#inject}. */
    public InjectedFault inject(FaultSpec spec) throws IOException {
        return injector.inject(spec);
    }

    @Override
    public void close() {
        synchronized (s.lock) {
            if (s.stopped()) {
                return;
            }
            try {
                s.decide(new ViewCommand.Stop()); // in a lab of several managers, no later leader takes it over
            } catch (IllegalStateException e) {
                LOG.warning("the lab stops without the other managers knowing: " + e.getMessage());
            }
            s.stopActing();
        }
        tier.close();
        faults.undoAll(id -> {
            synchronized (s.lock) {
                s.decide(new ViewCommand.Repaired(id, LabState.epochMicros(), InjectedFault.Repair.AT_SHUTDOWN));
            }
        });
        Hotness h = hotness;
        if (h != null) {
            h.close();
        }
        pool.stop(true);
        failures.stop(true);
        sessionFence.close();
        DatabaseKeeper keeper = databaseKeeper;
        if (keeper != null) {
            keeper.close();
        }
        lab.close();
        janitor.done(DATABASE_FILES); // deleted by the lab's close
        detectors.close();
        faults.close();
        Observation o = observation;
        if (o != null) {
            o.close();
        }
    }
}
