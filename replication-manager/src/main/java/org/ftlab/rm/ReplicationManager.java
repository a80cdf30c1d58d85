package org.ftlab.rm;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import org.ftlab.auction.api.MicroClock;
import org.ftlab.auction.api.StatefulTierSettings;
import org.ftlab.auction.api.TierStatus;
import org.ftlab.auction.client.ReplicaConnection;
import org.ftlab.faults.FaultSite;
import org.ftlab.fd.FailureKind;
import org.ftlab.fd.FaultDetector;
import org.ftlab.fd.ProcessState;
import org.ftlab.os.Cgroup;
import org.ftlab.os.ChildJvm;
import org.ftlab.os.FlightRecording;
import org.ftlab.os.FreePorts;
import org.ftlab.os.Janitor;
import org.ftlab.os.Jcmd;
import org.ftlab.os.OrphanGuard;
import org.ftlab.os.Placement;
import org.ftlab.os.ProcessTools;
import org.ftlab.os.Undo;
import org.ftlab.os.access.ApplicationUser;
import org.ftlab.os.access.DatabaseEndpoint;
import org.ftlab.os.net.Hosts;
import org.ftlab.os.net.VirtualNetwork;
import org.ftlab.rm.api.DatabaseView;
import org.ftlab.rm.api.DegreeChange;
import org.ftlab.rm.api.EventDump;
import org.ftlab.rm.api.FailureRecord;
import org.ftlab.rm.api.FaultKind;
import org.ftlab.rm.api.FaultSpec;
import org.ftlab.rm.api.FaultTarget;
import org.ftlab.rm.api.InjectedFault;
import org.ftlab.rm.api.ManagerGroup;
import org.ftlab.rm.api.ManagerStatus;
import org.ftlab.rm.api.NetworkLayout;
import org.ftlab.rm.api.ObserveSwitch;
import org.ftlab.rm.api.Platform;
import org.ftlab.rm.api.PrimaryBackupView;
import org.ftlab.rm.api.ReplicaState;
import org.ftlab.rm.api.ReplicaStatus;
import org.ftlab.rm.api.StatefulTierReport;
import org.ftlab.rm.api.TierRecovery;
import org.ftlab.rm.consensus.LocalState;
import org.ftlab.rm.consensus.NotLeaderException;
import org.ftlab.rm.consensus.ReplicatedState;
import org.ftlab.rm.db.AdoptedDatabase;
import org.ftlab.rm.db.DatabaseKeeper;
import org.ftlab.rm.db.EpochFence;
import org.ftlab.rm.db.ExternalDatabase;
import org.ftlab.rm.db.ReplicatedDatabase;
import org.ftlab.rm.db.SessionFence;
import org.ftlab.rm.fault.FaultsInEffect;
import org.ftlab.rm.observe.Observation;
import org.ftlab.rm.replica.ConnectionPools;
import org.ftlab.rm.replica.HeartbeatSettings;
import org.ftlab.rm.replica.Replica;
import org.ftlab.rm.replica.ReplicaLauncher;
import org.ftlab.rm.replica.RequestPath;
import org.ftlab.rm.replica.Suspension;
import org.ftlab.rm.tier.StatefulTierKeeper;

/**
 * Warm-passive replication: launches the replicas, keeps the ordered primary/backup list, promotes the next backup
 * when the Fault Detector (or, once confirmed, a client) reports the primary failed, fences the failed replica
 * (SIGKILL: a hung one must never come back as a second primary; its database sessions are ended too, so that the
 * transactions it left open release their locks at once), and restores the replication degree: at once from a pool of
 * pre-booted spares kept outside the view, or by relaunching a replacement when no spare is ready. A used spare is
 * replaced in the background. It also injects faults for experiments.
 *
 * <p>As in the seeds, the Replication Manager itself, the naming of replicas and the database are assumed not to fail.
 */
public final class ReplicationManager implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(ReplicationManager.class.getName());

    private static final Duration DETECTOR_START_TIMEOUT = Duration.ofSeconds(60);
    /** The id of a lab's one manager (the first of a group's, {@code m1}, {@code m2}, …). */
    static final String MANAGER_ID = "m1";
    /** How long a manager that takes over waits for a replica its predecessor was booting. */
    private static final Duration ADOPTED_BOOT_TIMEOUT = Duration.ofSeconds(180);

    private final LocalLab lab;
    /** The Fault Detector's process (this manager's child, adopted from its predecessor, or a restarted one). */
    private volatile ProcessHandle detector;
    private volatile OrphanGuard detectorGuard;
    /** Where a restarted detector reports, and its token. */
    private volatile String managerUrl;
    private volatile String managerToken;
    /** Whether the lab's JVMs record events (a restarted detector too). */
    private volatile boolean observeEvents;
    private final HeartbeatSettings heartbeat;
    private final int targetSpares;
    private final boolean relaunch;
    private final ReplicaWarmer warmer;
    /** Whether a booting local C2 replica is warmed until its JIT has settled ({@link Settings#warmUntilSettled}). */
    private volatile boolean warmUntilSettled;
    private final SessionFence sessionFence;
    /**
     * Nice value of a replacement replica. Its boot (seconds of JIT and class loading on every core) would otherwise
     * slow the primary's requests right after a fail-over by an order of magnitude on a 2-core lab host. Linux does
     * not let an unprivileged process lower it again, so a replacement later promoted serves at this nice value.
     */
    static final int REPLACEMENT_NICENESS = 10;
    /** Nice value of a spare booted beside the running service: it is not urgent, so it yields nearly all CPU. */
    static final int SPARE_NICENESS = 19;
    /**
     * Whether the replicas form WildFly's own cluster, whose clients call every member that is not suspended: then
     * spares, and replicas booted while the service runs, wait suspended ({@link Suspension}) until they join the view.
     */
    private volatile boolean wildflyCluster;
    /** Ends failed replicas' database sessions, off the lock. */
    private final ExecutorService fencer = daemonThread("session-fencer");
    /** Replicas a takeover found decided failed and running: killed, their sessions ended once it acts. */
    private final List<Replica> fencedOnTakeover = new ArrayList<>();
    private final ExecutorService relauncher = daemonThread("relauncher");
    /** Runs the stateful tier on the view's primary and recovers it on promotions and database fail-overs. */
    private final StatefulTierKeeper tier = new StatefulTierKeeper(new TierReplicas(), this::tierRecovered);

    private final Object lock = new Object();
    /**
     * The view logic, changed only by commands ({@link ViewCommand}) that the managers agree on (one manager: at once);
     * guarded by {@link #lock}.
     */
    private final ReplicatedState<ViewKeeper> view;
    /** The processes behind the names the view keeps; guarded by {@link #lock}. */
    private final Map<String, ReplicaRecord> records = new LinkedHashMap<>();
    /** The injected faults still in effect, and their undo. */
    private final FaultsInEffect faults;
    private volatile boolean closed;
    /** The lab's event recordings and samplers on this machine; null until started. */
    private volatile Observation observation;
    /** How much of the request path each local replica has compiled at the top tier; null until started. */
    private volatile Hotness hotness;
    /** Undoes what this manager leaves behind if it is killed: the faults in effect, a replicated database's files. */
    private final Janitor janitor;
    /** The janitor's key for a replicated database's files. */
    private static final String DATABASE_FILES = "database-files";
    /** Keeps a replicated database's view and fails its writer over; null for one server. */
    private volatile DatabaseKeeper databaseKeeper;

    /** A replica's process and how it was launched. */
    private static final class ReplicaRecord {
        final long launchedEpochMillis;
        final int launchNiceness;
        volatile Replica replica;
        /** The nice value it runs at (a replacement or spare booted beside a running service). */
        volatile int niceness;
        /** How long the warmer's boot rounds took, ms (-1: they failed). */
        volatile long warmUpMillis;
        /** Whether what it recorded before it died was collected into a dump ({@link #dumpEvents}). */
        volatile boolean deadEventsCollected;
        /** Whether WildFly is suspended (a spare of WildFly's cluster): no client, and no warmer, reaches it. */
        volatile boolean suspended;

        ReplicaRecord(int niceness) {
            this(niceness, System.currentTimeMillis());
        }

        ReplicaRecord(int niceness, long launchedEpochMillis) {
            this.launchNiceness = niceness;
            this.niceness = niceness;
            this.launchedEpochMillis = launchedEpochMillis;
        }
    }

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
    }

    private ReplicationManager(LocalLab lab, ProcessHandle detector, OrphanGuard detectorGuard,
            HeartbeatSettings heartbeat, ReplicatedState<ViewKeeper> view, int targetSpares, boolean relaunch,
            ReplicaWarmer warmer, SessionFence sessionFence, Janitor janitor) {
        this.warmer = warmer;
        this.sessionFence = sessionFence;
        this.lab = lab;
        this.detector = detector;
        this.detectorGuard = detectorGuard;
        this.heartbeat = heartbeat;
        this.view = view;
        // a new leader's first change: its copy of the view then holds every change a majority stored before it
        decide(new ViewCommand.Lead(view.member(), view.term(), epochMicros()));
        this.targetSpares = targetSpares;
        this.relaunch = relaunch;
        this.faults = new FaultsInEffect(janitor);
        this.janitor = janitor;
    }

    /** A lab's one manager: its view kept here alone. */
    static ReplicatedState<ViewKeeper> alone(Settings settings) {
        return new LocalState<>(MANAGER_ID, new ViewKeeper(settings.replicas()));
    }

    /**
     * Starts the Fault Detector process, the database and the replicas (one after another; the first becomes the
     * primary), keeping the view in {@code view} (this manager must lead it). {@code managerUrl} is where the
     * detector reports failures: the members' addresses, comma-separated, in a lab of several managers.
     */
    public static ReplicationManager start(Settings settings, ReplicatedState<ViewKeeper> view, String managerUrl,
            String managerToken) throws Exception {
        Path runDir = settings.lab().runDir().toAbsolutePath();
        Files.createDirectories(runDir.resolve("fd"));
        int detectorPort = FreePorts.findFreePortPair();
        VirtualNetwork network = settings.lab().network();
        Hosts hosts = settings.lab().hosts();
        // the detector runs beside the manager, where the replicas reach it
        String detectorAddress = hosts != null ? hosts.managerAddress()
                : network == null ? "127.0.0.1" : network.placement(NetworkLayout.MANAGER_HOST).address();
        HeartbeatSettings heartbeat = new HeartbeatSettings(detectorAddress, detectorPort, settings.heartbeatMillis(),
                settings.timeoutMillis());
        boolean observe = settings.lab().observe();
        Process detector = startDetector(runDir.resolve("fd"), detectorPort, managerUrl, managerToken, heartbeat,
                hosts != null, observe ? FlightRecording.settingsFile(runDir.resolve("rm")) : null, network);
        OrphanGuard guard = OrphanGuard.watch(detector.pid());
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
            lab = LocalLab.start(new LocalLab.Options(runDir, o.serverHome(), o.externalDatabase(),
                    o.replicaMaxHeap(), heartbeat, network, hosts, o.requestLog(), settings.warmRounds(),
                    o.observe(), o.wildflyCluster(), o.databaseTier()));
        } catch (Exception e) {
            ProcessTools.terminate(detector.toHandle(), Duration.ofSeconds(5));
            guard.close();
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
            ProcessTools.terminate(detector.toHandle(), Duration.ofSeconds(5));
            guard.close();
            throw e;
        }
        ReplicationManager rm = new ReplicationManager(lab, detector.toHandle(), guard, heartbeat, view,
                settings.spares(), settings.relaunch(), new ReplicaWarmer(lab.user(), settings.warmRounds(),
                        settings.warmRate(), settings.hotWarmRate(), settings.lab().requestLog()), fence, janitor);
        rm.warmUntilSettled = settings.warmUntilSettled();
        rm.wildflyCluster = settings.lab().wildflyCluster();
        rm.managerUrl = managerUrl;
        rm.managerToken = managerToken;
        rm.observeEvents = settings.lab().observe();
        rm.watchDetector();
        try {
            synchronized (rm.lock) {
                rm.decide(new ViewCommand.LabUp(new LabProcesses(detector.pid(), detectorAddress, detectorPort,
                        lab.database().pid().orElse(0))));
            }
            rm.sessionFence.resetEpoch(rm.order()); // a new lab: whatever an earlier lab's managers ordered at
            if (lab.database() instanceof ReplicatedDatabase replicated) {
                rm.databaseKeeper = DatabaseKeeper.start(replicated, settings.timeoutMillis(),
                        rm::onDatabaseWriterMoved);
            }
            rm.observation = Observation.start(rm.new RecordingJvms(), runDir.resolve("rm"),
                    lab.database().endpoint(), observe);
            if (settings.bootTogether()) {
                rm.bootAll(settings.replicas(), settings.spares());
            } else {
                for (int i = 0; i < settings.replicas(); i++) {
                    rm.launchAndJoin(0, false);
                }
                for (int i = 0; i < settings.spares(); i++) {
                    rm.launchSpare(0, false);
                }
            }
            rm.warmer.keepWarm(rm::idleReplicas, rm::knownNotHot, rm::doorsInUse);
            rm.hotness = Hotness.start(rm::hotnessTargets);
        } catch (Exception e) {
            rm.close();
            throw e;
        }
        return rm;
    }

    /**
     * Takes over the lab an earlier leader of {@code view} started; this manager leads now. It adopts the Fault
     * Detector, the database and every replica by what the view recorded of them (a detector that is gone is started
     * again on its port), then finishes what the earlier leader began and did not end: a replica that was booting
     * joins, or waits as a spare, once up (and is recorded failed if its process never ran); a failed replica still
     * running is fenced; a degree still short is restored and the spare pool refilled; the faults the earlier
     * leader's janitor undid when it went are recorded so. {@code managerUrl}: where a restarted detector reports.
     */
    public static ReplicationManager takeOver(Settings settings, ReplicatedState<ViewKeeper> view, String managerUrl,
            String managerToken) throws Exception {
        long t0 = System.nanoTime();
        try {
            // first a command of this term: until then this member's copy may lack what the last leader committed
            view.apply(new ViewCommand.Lead(view.member(), view.term(), epochMicros()));
        } catch (NotLeaderException e) {
            throw new IllegalStateException("this manager no longer leads: " + e.getMessage(), e);
        }
        long led = System.nanoTime();
        if (view.read(ViewKeeper::stopped)) {
            throw new LabStopped();
        }
        LabProcesses p = view.read(ViewKeeper::lab);
        if (p == null) {
            return start(settings, view, managerUrl, managerToken); // the first leader went before the lab was up
        }
        Path runDir = settings.lab().runDir().toAbsolutePath();
        LocalLab.Options o = settings.lab();
        HeartbeatSettings heartbeat = new HeartbeatSettings(p.detectorAddress(), p.detectorPort(),
                settings.heartbeatMillis(), settings.timeoutMillis());
        ProcessHandle detector = ProcessHandle.of(p.detectorPid()).filter(ProcessHandle::isAlive).orElse(null);
        boolean newDetector = detector == null;
        if (newDetector) {
            detector = startDetector(runDir.resolve("fd"), p.detectorPort(), managerUrl, managerToken, heartbeat,
                    false, o.observe() ? FlightRecording.settingsFile(runDir.resolve("rm")) : null, o.network())
                    .toHandle();
        }
        OrphanGuard guard = OrphanGuard.watch(detector.pid());
        LocalLab lab = LocalLab.adopt(new LocalLab.Options(runDir, o.serverHome(), o.externalDatabase(),
                o.replicaMaxHeap(), heartbeat, o.network(), o.hosts(), o.requestLog(), settings.warmRounds(),
                o.observe(), o.wildflyCluster(), o.databaseTier()), p.databasePid());
        Janitor janitor = Janitor.start(settings.managerDir().resolve("undo.sh"));
        ReplicationManager rm = new ReplicationManager(lab, detector, guard, heartbeat, view, settings.spares(),
                settings.relaunch(), new ReplicaWarmer(lab.user(), settings.warmRounds(), settings.warmRate(),
                        settings.hotWarmRate(), o.requestLog()), lab.database().fence(), janitor);
        rm.warmUntilSettled = settings.warmUntilSettled();
        rm.managerUrl = managerUrl;
        rm.managerToken = managerToken;
        rm.observeEvents = settings.lab().observe();
        rm.watchDetector();
        long labAdopted = System.nanoTime();
        try {
            if (newDetector) {
                synchronized (rm.lock) {
                    rm.decide(new ViewCommand.LabUp(new LabProcesses(detector.pid(), p.detectorAddress(),
                            p.detectorPort(), p.databasePid())));
                }
            }
            rm.adoptAll();
            long replicasAdopted = System.nanoTime();
            synchronized (rm.lock) {
                rm.decide(new ViewCommand.Acting(view.member(), view.term(), epochMicros()));
            }
            // the epoch Acting began: from now on the database refuses its predecessors' orders
            EpochFence.Order order = rm.order();
            rm.sessionFence.raiseEpoch(order);
            for (Replica fenced : rm.fencedOnTakeover) {
                rm.fencer.execute(() -> rm.endDatabaseSessions(fenced, order));
            }
            LOG.info(String.format(Locale.ROOT, "%s took over the lab in term %d in %.1f ms: its lead committed in "
                    + "%.1f ms, the detector and database adopted in %.1f ms, the replicas in %.1f ms%s",
                    view.member(), view.term(), (System.nanoTime() - t0) / 1e6, (led - t0) / 1e6,
                    (labAdopted - led) / 1e6, (replicasAdopted - labAdopted) / 1e6,
                    newDetector ? " (with a new Fault Detector)" : ""));
            // what serves the measurements, not the fail-overs: beside the manager acting again, which answers at once
            Thread measuring = new Thread(() -> {
                try {
                    Observation started = Observation.start(rm.new RecordingJvms(), runDir.resolve("rm"),
                            lab.database().endpoint(), o.observe());
                    Hotness hot = Hotness.start(rm::hotnessTargets);
                    synchronized (rm.lock) {
                        if (rm.closed) { // it stepped down meanwhile
                            started.close();
                            hot.close();
                            return;
                        }
                        rm.observation = started;
                        rm.hotness = hot;
                    }
                    rm.warmer.keepWarm(rm::idleReplicas, rm::knownNotHot, rm::doorsInUse);
                } catch (IOException | RuntimeException e) {
                    LOG.warning("the new leader's observation did not start: " + e.getMessage());
                }
            }, "observation-start");
            measuring.setDaemon(true);
            measuring.start();
        } catch (Exception e) {
            rm.stepDown();
            throw e;
        }
        return rm;
    }

    /**
     * What a member that may lead next does ahead, while it follows a lab that is up: the classes a takeover needs
     * loaded, a database connection and a session fence opened once (Connector/J's first connection costs hundreds of
     * ms in a cold JVM, more on a loaded machine), so that its takeover spends its time on the lab, not on warming
     * itself up. Nothing is kept; a failure only leaves the takeover to do it.
     */
    public static void prepareToTakeOver(Settings settings) {
        Path runDir = settings.lab().runDir().toAbsolutePath();
        try {
            DatabaseEndpoint db = settings.lab().externalDatabase() != null ? settings.lab().externalDatabase()
                    : DatabaseEndpoint.loadForAudits(runDir);
            SessionFence.open(db).close();
            ApplicationUser.load(runDir);
            for (Class<?> k : List.of(LocalLab.class, AdoptedDatabase.class, ReplicaLauncher.class, ReplicaWarmer.class,
                    Observation.class, Hotness.class, Janitor.class, Replica.class)) {
                Class.forName(k.getName(), true, ReplicationManager.class.getClassLoader());
            }
        } catch (IOException | SQLException | ClassNotFoundException | RuntimeException e) {
            LOG.fine("preparing to take over: " + e.getMessage());
        }
    }

    /** When the Fault Detector's process ends while the lab runs (fault fd-crash), a new one is started. */
    private void watchDetector() {
        ProcessHandle watched = detector;
        watched.onExit().thenRun(() -> {
            if (!closed && watched == detector) {
                Thread t = new Thread(this::restartDetector, "detector-restart");
                t.setDaemon(true);
                t.start();
            }
        });
    }

    /**
     * A new Fault Detector on the lost one's address and port, where every replica's heartbeat stack looks for it:
     * their group and the new detector's merge, and failures are reported again. The fault that killed it is repaired.
     */
    private void restartDetector() {
        long t0 = System.nanoTime();
        Path runDir = lab.runDir().toAbsolutePath();
        try {
            Process p = startDetector(runDir.resolve("fd"), heartbeat.detectorPort(), managerUrl, managerToken,
                    heartbeat, false, observeEvents ? FlightRecording.settingsFile(runDir.resolve("rm")) : null,
                    lab.network());
            synchronized (lock) {
                if (closed) {
                    ProcessTools.terminate(p.toHandle(), Duration.ofSeconds(5));
                    return;
                }
                detectorGuard = OrphanGuard.watch(p.pid());
                detector = p.toHandle();
                decide(new ViewCommand.LabUp(new LabProcesses(p.pid(), heartbeat.detectorAddress(),
                        heartbeat.detectorPort(), lab.database().pid().orElse(0))));
                for (InjectedFault f : view.read(ViewKeeper::faults)) {
                    if (f.active() && f.kind().actsOn() == FaultKind.ActsOn.DETECTOR_PROCESS) {
                        decide(new ViewCommand.Repaired(f.faultId(), epochMicros(), InjectedFault.Repair.REPLACED));
                    }
                }
            }
            LOG.info(String.format(Locale.ROOT, "the Fault Detector was gone: a new one (pid %d) runs since %.0f ms",
                    p.pid(), (System.nanoTime() - t0) / 1e6));
            watchDetector();
        } catch (IOException | RuntimeException e) {
            LOG.warning("the Fault Detector was gone and could not be started again: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The lab was stopped by an earlier leader: there is nothing to take over. */
    public static final class LabStopped extends RuntimeException {
        LabStopped() {
            super("the lab has been stopped");
        }
    }

    /** Adopts the replicas the view names and finishes what the earlier leader left half done ({@link #takeOver}). */
    private void adoptAll() {
        List<String> booting = new ArrayList<>();
        synchronized (lock) {
            for (InjectedFault f : view.read(ViewKeeper::faults)) {
                boolean endsWithItsReplica = f.kind().layer() == FaultKind.Layer.PROCESS && f.kind().madeByManager();
                boolean failedAManager = f.kind().actsOn() == FaultKind.ActsOn.MANAGER_PROCESS; // repaired by acting
                if (f.active() && !endsWithItsReplica && !failedAManager) {
                    decide(new ViewCommand.Repaired(f.faultId(), epochMicros(), InjectedFault.Repair.HANDED_OVER));
                }
            }
            for (String name : view.read(ViewKeeper::names)) {
                ReplicaState state = view.read(v -> v.state(name));
                Replica.Launch launch = view.read(v -> v.launchOf(name));
                if (launch == null) {
                    if (state == ReplicaState.STARTING) {
                        decide(new ViewCommand.LaunchFailed(name)); // its launcher went before its process ran
                    }
                    continue;
                }
                Replica replica = Replica.adopt(launch, OrphanGuard.watch(launch.pid()));
                ReplicaRecord rec = new ReplicaRecord(0, launch.launchedEpochMillis());
                records.put(name, rec);
                if (state == ReplicaState.DEAD) {
                    rec.replica = replica;
                    if (replica.isAlive()) { // decided failed, not yet fenced
                        replica.kill();
                        // its sessions: an order of this leader's epoch, which begins when it acts
                        fencedOnTakeover.add(replica);
                    }
                    continue;
                }
                lab.adopted(replica);
                if (state == ReplicaState.STARTING) {
                    booting.add(name);
                    relauncher.submit(() -> joinWhenUp(name, replica));
                    continue;
                }
                rec.replica = replica;
                if (state != ReplicaState.SPARE) {
                    rec.niceness = -1; // unknown: a replacement may still run at its boot's nice value
                    serveAtNormalPriority(name);
                }
            }
        }
        relauncher.submit(() -> {
            int failures;
            synchronized (lock) {
                failures = view.read(ViewKeeper::failureCount);
            }
            for (int i = 0; i < failures && relaunch && !closed; i++) {
                restore(i); // returns at once for a failure whose degree was restored
            }
            if (relaunch && !closed) {
                refillSpares();
            }
        });
        LOG.info("adopted " + records.keySet() + (booting.isEmpty() ? "" : ", waiting for " + booting + " to boot"));
    }

    /** In the relaunch thread: a replica the earlier leader was booting joins once up, as its launch would have. */
    private void joinWhenUp(String name, Replica replica) {
        try {
            replica.awaitReady(ADOPTED_BOOT_TIMEOUT);
        } catch (Exception e) {
            LOG.warning(name + ", booting when this manager took over, did not come up: " + e.getMessage());
            replica.stop();
            lab.forget(replica);
            synchronized (lock) {
                decide(new ViewCommand.LaunchFailed(name));
            }
            return;
        }
        synchronized (lock) {
            records.get(name).replica = replica;
            if (!closed && decide(new ViewCommand.OfferSpare(name, epochMicros()))) {
                serveAtNormalPriority(name);
            }
        }
    }

    /**
     * This manager no longer leads: it stops acting (no launch, fence, injection or warm-up more), undoes the faults
     * it made, and lets go of the lab's processes, which run on for the next leader to adopt. Safe to call twice.
     */
    public void stepDown() {
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
        }
        // first: a launch this stops midway (its thread interrupted) must leave the booting replica running, for the
        // next leader to adopt
        lab.release();
        tier.close();
        // the faults this manager made on itself (a partition that deposed it) last their duration, leader or not;
        // the others are undone now, and recorded by the next leader: this one can no longer change the view
        Set<String> onItself = view.read(ViewKeeper::faults).stream().filter(f -> f.active()
                && f.kind().actsOn() == FaultKind.ActsOn.MANAGER_PROCESS).map(InjectedFault::faultId)
                .collect(Collectors.toSet());
        faults.undoAllBut(onItself);
        warmer.close();
        Hotness h = hotness;
        if (h != null) {
            h.close();
        }
        relauncher.shutdownNow();
        fencer.shutdownNow();
        sessionFence.close();
        Observation o = observation;
        if (o != null) {
            o.close();
        }
        synchronized (lock) {
            records.values().stream().map(r -> r.replica).filter(r -> r != null).forEach(Replica::release);
        }
        faults.close();
        LOG.info(view.member() + " stepped down: it no longer acts on the lab");
    }

    private static ExecutorService daemonThread(String name) {
        return Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Starts the Fault Detector; on a virtual network in the manager's host ({@code rm}), where the replicas reach it,
     * whichever member's host the manager that starts it runs in.
     */
    private static Process startDetector(Path dir, int port, String managerUrl, String managerToken,
            HeartbeatSettings hb, boolean remoteReplicas, Path eventSettings, VirtualNetwork network)
            throws IOException, InterruptedException {
        Path console = dir.resolve("console.log");
        Files.deleteIfExists(console);
        List<String> options = new ArrayList<>(List.of("-Xmx128m", "-Djava.net.preferIPv4Stack=true"));
        if (eventSettings != null) {
            options.addAll(FlightRecording.jvmOptions(eventSettings, dir.resolve("jfr")));
        }
        List<String> cmd = ChildJvm.command(FaultDetector.class.getName(), options.toArray(String[]::new));
        cmd.addAll(List.of("--bind", hb.detectorAddress(), "--port", Integer.toString(port),
                "--rm-url", managerUrl,
                "--heartbeat-ms", Long.toString(hb.heartbeatMillis()), "--timeout-ms", Long.toString(hb.timeoutMillis()),
                "--log", dir.resolve("detector.log").toString(),
                // replicas on other machines: their process states come from their hosts, through this manager
                "--process-states", remoteReplicas ? "manager" : "here"));
        if (network != null) {
            cmd = network.placement(NetworkLayout.MANAGER_HOST).wrap(cmd);
        }
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(console.toFile());
        pb.environment().put(FaultDetector.TOKEN_ENV, managerToken); // not on the command line, where ps shows it
        Process p = pb.start();
        if (ProcessTools.awaitOutput(p, console, DETECTOR_START_TIMEOUT,
                out -> out.contains("fault-detector ready") ? Boolean.TRUE : null) != null) {
            return p;
        }
        p.destroyForcibly();
        throw new IOException("the Fault Detector did not start; see " + console + ": "
                + ProcessTools.readOutput(console).lines().reduce((a, b) -> b).orElse("(no output)"));
    }

    /**
     * At the lab's start, when nothing serves yet: the replicas and the spares boot side by side, and once all serve,
     * the first {@code replicas} launched join the view in launch order (the first is the primary) and the rest are
     * spares. Measured on 2 cores (docs/performance.md §3): faster for replicas whose JIT stops at C1 and that run a
     * few warm-up rounds (the test suite's), slower for the default ones, whose boots each keep both cores busy
     * compiling at C2.
     */
    private void bootAll(int replicas, int spares) throws Exception {
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
            synchronized (lock) {
                for (int i = 0; i < names.size() && !closed; i++) {
                    if (i < replicas) {
                        decide(new ViewCommand.Join(names.get(i), epochMicros()));
                    } else {
                        decide(new ViewCommand.OfferSpare(names.get(i), epochMicros()));
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
        synchronized (lock) {
            // the degree may have been lowered while it booted: then it waits as a spare
            if (!closed && decide(new ViewCommand.OfferSpare(name, epochMicros()))) {
                serveAtNormalPriority(name);
            } else if (!closed) {
                standBy(name);
            }
        }
        return name;
    }

    /**
     * The view's degree becomes {@code replicas} ({@link DegreeChange}): backups leave for the spare pool, or spares
     * join (at normal priority), and a replica is launched for each that no ready spare could give.
     */
    public DegreeChange.Result setDegree(DegreeChange change) {
        synchronized (lock) {
            if (closed) {
                throw new IllegalStateException("the lab is stopping");
            }
            ViewKeeper.DegreeChange decided = decide(new ViewCommand.SetDegree(change.replicas(), epochMicros()));
            decided.left().forEach(this::standBy);
            decided.joined().forEach(this::serveAtNormalPriority);
            for (int i = 0; i < decided.missing(); i++) {
                relauncher.submit(() -> {
                    try {
                        if (!closed && view().members().size() < change.replicas()) {
                            launchAndJoin(REPLACEMENT_NICENESS, wildflyCluster);
                        }
                    } catch (Exception e) {
                        LOG.warning("launch for degree " + change.replicas()
                                + " failed: " + e.getMessage());
                    }
                });
            }
            if (!decided.left().isEmpty() || !decided.joined().isEmpty()) {
                LOG.info("degree " + change.replicas() + (decided.left().isEmpty() ? ""
                        : ", to the spare pool: " + decided.left()) + (decided.joined().isEmpty() ? ""
                        : ", joined: " + decided.joined()));
            }
            return new DegreeChange.Result(view.read(ViewKeeper::epoch), view.read(ViewKeeper::targetDegree),
                    decided.left(), decided.joined(),
                    decided.missing());
        }
    }

    /**
     * Launches a spare and waits until it serves; it stays outside the view until a serving replica fails;
     * {@code suspended}: it boots suspended (WildFly's cluster).
     */
    private void launchSpare(int niceness, boolean suspended) throws IOException, TimeoutException,
            InterruptedException {
        String name = launch(niceness, suspended);
        synchronized (lock) {
            if (!closed && view.read(v -> v.state(name)) == ReplicaState.STARTING
                    && decide(new ViewCommand.OfferSpare(name, epochMicros()))) {
                serveAtNormalPriority(name); // a failure was waiting for its degree: this spare restored it
            } else if (!closed) {
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
        synchronized (lock) {
            name = decide(new ViewCommand.Launching());
            records.put(name, rec);
        }
        Replica replica;
        try {
            replica = lab.startReplica(name, niceness, suspended, started -> {
                if (!started.placement().isRemote()) { // one on another machine dies with its launcher's ssh
                    synchronized (lock) {
                        decide(new ViewCommand.Launched(started.launch()));
                    }
                }
            });
        } catch (IOException | TimeoutException | InterruptedException e) {
            synchronized (lock) {
                decide(new ViewCommand.LaunchFailed(name));
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
        synchronized (lock) {
            rec.replica = replica;
            rec.warmUpMillis = warmMillis;
        }
        return name;
    }

    /**
     * Whether {@code replica}'s last reading says it is not hot. Unknown (no reading yet, no primary to compare
     * with, a replica on another machine) is not "not hot": the warmer then keeps it warm at its usual rate.
     */
    private boolean knownNotHot(String replica) {
        Hotness h = hotness;
        Hotness.Reading r = h == null ? null : h.of(replica);
        return r != null && !r.hot();
    }

    /**
     * The doors the warmer keeps idle replicas hot through: remote EJB always, and the HTTP door once the primary's
     * hot code shows clients use it (unknown without a hotness reading, e.g. replicas on other machines: EJB only).
     */
    private List<Platform> doorsInUse() {
        Hotness h = hotness;
        return h != null && h.referenceHas(RequestPath.HTTP_DOOR_PACKAGE)
                ? List.of(Platform.EJB, Platform.REST) : List.of(Platform.EJB);
    }

    /** The replicas that serve no clients but must be ready to: backups and spares. */
    private List<Replica> idleReplicas() {
        synchronized (lock) {
            List<Replica> out = new ArrayList<>();
            for (String name : view.read(ViewKeeper::names)) {
                ReplicaState s = view.read(v -> v.state(name));
                ReplicaRecord rec = records.get(name);
                Replica r = rec.replica;
                if ((s == ReplicaState.BACKUP || s == ReplicaState.SPARE) && r != null && !rec.suspended) {
                    out.add(r);
                }
            }
            return out;
        }
    }

    /**
     * Under {@link #lock}: a replica that joined the view serves from now on; one launched at a raised nice value
     * gets the normal one back (where the system allows it).
     */
    private void serveAtNormalPriority(String name) {
        ReplicaRecord rec = records.get(name);
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
                LOG.warning("" + name + " serves at nice " + rec.niceness + ": "
                        + e.getMessage());
            }
        }
    }

    /**
     * Under {@link #lock}: in WildFly's cluster a replica outside the view (a spare, or a backup the degree sent to
     * the pool) is suspended, so that the cluster's clients do not call it; elsewhere nothing changes.
     */
    private void standBy(String name) {
        ReplicaRecord rec = records.get(name);
        if (!wildflyCluster || rec.suspended || rec.replica == null
                || view.read(v -> v.state(name)) != ReplicaState.SPARE) {
            return;
        }
        try {
            Suspension.suspend(rec.replica, lab.user());
            rec.suspended = true;
        } catch (IOException e) {
            LOG.warning("" + name + " could not be suspended, so WildFly's clients may "
                    + "call it: " + e.getMessage());
        }
    }

    // ---- views ------------------------------------------------------------------------------------------------

    public PrimaryBackupView view() {
        synchronized (lock) {
            return view.read(v -> v.view(name -> records.get(name).replica.remotingUri()));
        }
    }

    /** Status of every replica ever launched in this lab, every failure and every injected fault. */
    public ManagerStatus status() {
        synchronized (lock) {
            List<ReplicaStatus> replicas = new ArrayList<>();
            long nowMillis = System.currentTimeMillis();
            for (String name : view.read(ViewKeeper::names)) {
                ReplicaRecord r = records.get(name);
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
                    serving.size(), view.read(ViewKeeper::targetDegree), view.read(ViewKeeper::spares), targetSpares,
                    warmer.roundsRun(), heartbeat.heartbeatMillis(),
                    heartbeat.timeoutMillis(), detector.pid(), lab.database().endpoint().redactedUrl(), replicas,
                    view.read(ViewKeeper::failures), view.read(ViewKeeper::faults), databaseView(),
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
        synchronized (lock) {
            return view.read(ViewKeeper::failures);
        }
    }

    public LocalLab lab() {
        return lab;
    }

    // ---- failures ---------------------------------------------------------------------------------------------

    /**
     * A failure report from the Fault Detector: trusted (it watched the heartbeats), acted on at once.
     *
     * @return false if the report is stale (another incarnation, or already handled)
     */
    public boolean onDetectorReport(String replicaName, long pid, FailureKind kind, long detectedEpochUs) {
        synchronized (lock) {
            ReplicaRecord rec = records.get(replicaName);
            if (rec == null || rec.replica == null || rec.replica.pid() != pid
                    || view.read(v -> v.state(replicaName)) == ReplicaState.DEAD) {
                return false;
            }
            handleFailure(replicaName, kind, FailureRecord.Source.FAULT_DETECTOR, detectedEpochUs);
            return true;
        }
    }

    /**
     * A client's report that a replica failed for it: only a hint. The manager confirms it from the process state
     * (gone: crash; stopped: hang) before demoting; a running process is left alone (the client's problem may be
     * its own, and the Fault Detector watches the heartbeats).
     *
     * @return true if the replica is (now) known failed
     */
    public boolean onClientReport(String replicaName) {
        Replica replica;
        synchronized (lock) {
            ReplicaRecord rec = records.get(replicaName);
            if (rec == null || rec.replica == null) {
                return false;
            }
            if (view.read(v -> v.state(replicaName)) == ReplicaState.DEAD) {
                return true;
            }
            replica = rec.replica;
        }
        ProcessState state = replica.state(); // off the lock: on another machine, an ssh session
        if (state == ProcessState.RUNNING) {
            return false;
        }
        synchronized (lock) {
            if (view.read(v -> v.state(replicaName)) == ReplicaState.DEAD) {
                return true; // the detector's report came first
            }
            handleFailure(replicaName, state == ProcessState.GONE ? FailureKind.CRASH : FailureKind.HANG,
                    FailureRecord.Source.CLIENT, epochMicros());
            return true;
        }
    }

    /**
     * The state of replica {@code replicaName}'s process {@code pid} on its host, for a Fault Detector that cannot see
     * the replicas' machines: gone if that incarnation is no longer the replica's.
     */
    public ProcessState processState(String replicaName, long pid) {
        Replica replica;
        synchronized (lock) {
            ReplicaRecord rec = records.get(replicaName);
            replica = rec == null ? null : rec.replica;
            if (replica == null) {
                // no such replica: gone; one still starting (its pid not yet known here): running
                return rec == null ? ProcessState.GONE : ProcessState.RUNNING;
            }
        }
        return replica.pid() != pid ? ProcessState.GONE : replica.state(); // asked off the lock
    }

    /**
     * Under {@link #lock}: a change of the view, once the managers agreed on it; answers the view's decision.
     *
     * @throws IllegalStateException if this manager no longer leads (it must not act on the view)
     */
    private <R> R decide(ViewCommand<R> command) {
        try {
            return view.apply(command);
        } catch (NotLeaderException e) {
            throw new NoLongerLeads(e);
        }
    }

    /** This manager could not change the view: it no longer leads (the door sends the caller to the leader). */
    public static final class NoLongerLeads extends IllegalStateException {
        NoLongerLeads(NotLeaderException cause) {
            super("this manager no longer leads: " + cause.getMessage(), cause);
        }
    }

    /** The term this manager leads in (1 for a lab's one manager). */
    public long term() {
        return view.term();
    }

    /** Under {@link #lock}: the view decides (demote, promote, take a spare); then fence, record, relaunch. */
    private void handleFailure(String name, FailureKind verdict, FailureRecord.Source source, long detectedEpochUs) {
        // the shares of the request path at the top tier of the replicas that may be promoted (those serving and
        // the spares), as read now: the promoted one's is recorded
        Map<String, Double> shares = new HashMap<>();
        Hotness h = hotness;
        if (h != null) {
            List<String> candidates = new ArrayList<>(view.read(ViewKeeper::servingNames));
            candidates.addAll(view.read(ViewKeeper::spares));
            for (String replica : candidates) {
                Hotness.Reading r = h.of(replica);
                shares.put(replica, r == null ? null : r.share());
            }
        }
        ViewKeeper.Failure decided = decide(new ViewCommand.Fail(name, verdict, source, detectedEpochUs,
                epochMicros(), shares));
        if (decided == null) {
            return;
        }
        Replica failed = records.get(name).replica;
        // Fencing: a hung replica must never resume as a second primary. SIGKILL also ends a stopped process; ending
        // its database sessions as well rolls back the transactions it left open now, not when the kernel has torn
        // the process down, so the requests it held (hedged or retried elsewhere) wait no longer. That runs right
        // after the SIGKILL, off the lock: finding the sessions takes about 15 ms. A frozen process gets the SIGKILL
        // only once thawed: the faults its fence ended are undone at once.
        failed.kill();
        if (closed) {
            // Stopping (replicas stopping look failed to the detector): the executors are shut down, and the lab's
            // close stops what is left; only a fault this fence ended is undone, here.
            for (InjectedFault ended : decided.ended()) {
                faults.endNow(ended.faultId(), true);
            }
            return;
        }
        EpochFence.Order order = order();
        fencer.execute(() -> endDatabaseSessions(failed, order));
        for (InjectedFault ended : decided.ended()) {
            faults.endNow(ended.faultId(), false);
        }
        if (decided.spareJoined() != null) {
            serveAtNormalPriority(decided.spareJoined());
        }
        if (decided.promoted() != null) {
            tier.promoted(decided.record().faultId(), decided.promoted(), view.read(ViewKeeper::epoch));
        }
        int index = view.read(ViewKeeper::failureCount) - 1;
        boolean restored = !decided.needsReplacement();
        relauncher.submit(() -> {
            failed.stop(); // reaps the process, closes its guard, frees its ports
            lab.forget(failed);
            warmer.forget(failed.name());
            if (relaunch && !closed) {
                if (!restored) {
                    restore(index);
                }
                refillSpares();
            }
        });
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
        synchronized (lock) {
            decide(new ViewCommand.TierRecovered(faultId, result));
        }
    }

    /**
     * A replicated database's new writer takes writes (off the keeper's thread): every replica's connection pool is
     * emptied of the connections the fail-over cut, then the stateful tier recovers on the primary.
     */
    private void onDatabaseWriterMoved() {
        List<Replica> running;
        synchronized (lock) {
            running = records.values().stream().map(rec -> rec.replica).filter(r -> r != null).toList();
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

    /** The view as the stateful tier's keeper sees it, and connections to its replicas. */
    private final class TierReplicas implements StatefulTierKeeper.Replicas {
        @Override
        public StatefulTierKeeper.Snapshot now() {
            synchronized (lock) {
                List<String> live = new ArrayList<>();
                for (String name : view.read(ViewKeeper::names)) {
                    if (view.read(v -> v.state(name)) != ReplicaState.DEAD && records.get(name).replica != null) {
                        live.add(name);
                    }
                }
                return new StatefulTierKeeper.Snapshot(view.read(ViewKeeper::servingNames), live,
                        view.read(ViewKeeper::epoch));
            }
        }

        @Override
        public ReplicaConnection connect(String name) throws Exception {
            return ReplicationManager.this.connect(name);
        }
    }

    /** A connection to replica {@code name} as the lab's application user. */
    private ReplicaConnection connect(String name) throws Exception {
        Replica r;
        synchronized (lock) {
            ReplicaRecord rec = records.get(name);
            if (rec == null || rec.replica == null) {
                throw new IllegalStateException("no replica " + name);
            }
            r = rec.replica;
        }
        return ReplicaConnection.open(r.remotingUri(), lab.user().username(), lab.user().password(), 30_000);
    }

    /** An order of the view's current epoch, given by this manager in its term ({@link EpochFence}). */
    private EpochFence.Order order() {
        return new EpochFence.Order(view.read(ViewKeeper::epoch), view.member(), view.term());
    }

    /**
     * In the fencer thread: ends the killed replica's database sessions, an order of the view's epoch when it was
     * decided; a failure is logged (the kill ends them), and so is a refusal (a newer leader's epoch: this one was
     * deposed since it decided).
     */
    private void endDatabaseSessions(Replica failed, EpochFence.Order order) {
        try {
            sessionFence.endSessionsOf(failed.pid(), failed.placement(), order);
        } catch (EpochFence.Refused refused) {
            LOG.warning("the database sessions of " + failed.name() + " were not ended: " + refused.getMessage());
        } catch (IOException | SQLException e) {
            LOG.warning("could not end the database sessions of " + failed.name()
                    + " (they end with its process): " + e.getMessage());
        }
    }

    /** In the relaunch thread: a replacement replica, appended to the view; retried a few times. */
    private void restore(int failureIndex) {
        for (int attempt = 1; attempt <= 3 && !closed; attempt++) {
            synchronized (lock) {
                if (!view.read(v -> v.stillShort(failureIndex))) {
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
        while (!closed && failuresInARow < 3) {
            synchronized (lock) {
                if (view.read(ViewKeeper::spares).size() + view.read(v -> v.inState(ReplicaState.STARTING)).size()
                        >= targetSpares) {
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

    /** The lab's JVMs on this machine as {@link Observation} needs them. */
    private final class RecordingJvms implements Observation.Jvms {
        @Override
        public Map<String, Long> recording() {
            Map<String, Long> pids = new LinkedHashMap<>();
            synchronized (lock) {
                records.forEach((name, r) -> {
                    Replica replica = r.replica;
                    if (replica != null && replica.isAlive() && !replica.placement().isRemote()) {
                        pids.put(name, replica.pid());
                    }
                });
            }
            if (detector.isAlive()) {
                pids.put("fd", detector.pid());
            }
            return pids;
        }

        @Override
        public Map<String, Replica> deadUncollected() {
            Map<String, Replica> dead = new LinkedHashMap<>();
            synchronized (lock) {
                records.forEach((name, r) -> {
                    Replica replica = r.replica;
                    if (replica != null && !replica.isAlive() && !replica.placement().isRemote()
                            && !r.deadEventsCollected) {
                        dead.put(name, replica);
                    }
                });
            }
            return dead;
        }

        @Override
        public void collected(String name) {
            synchronized (lock) {
                records.get(name).deadEventsCollected = true;
            }
        }

        @Override
        public Long databasePid() {
            OptionalLong pid = lab.database().pid();
            return pid.isPresent() ? pid.getAsLong() : null;
        }
    }

    /** The primary, and every live replica of this machine with its pid: whose code cache {@link Hotness} reads. */
    private Hotness.Replicas hotnessTargets() {
        Map<String, Long> pids = new LinkedHashMap<>();
        Map<String, Path> repositories = new LinkedHashMap<>();
        synchronized (lock) {
            records.forEach((name, r) -> {
                Replica replica = r.replica;
                if (replica != null && replica.isAlive() && !replica.placement().isRemote()
                        && view.read(v -> v.state(name)) != ReplicaState.DEAD) {
                    pids.put(name, replica.pid());
                    if (view.read(v -> v.state(name)) != ReplicaState.STARTING && replica.recordsInlining()) {
                        repositories.put(name, replica.eventRepository()); // booted: its inlining is followed
                    }
                }
            });
            List<String> serving = view.read(ViewKeeper::servingNames);
            return new Hotness.Replicas(serving.isEmpty() ? null : serving.get(0), pids, repositories);
        }
    }

    // ---- fault injection --------------------------------------------------------------------------------------

    /**
     * Injects a fault into the replica, host or database its target names now, and schedules its repair after its
     * duration. Process and database faults are real signals and cgroup v1 controls on this host (see docs/faults.md);
     * every one is undone when its duration is over, when the manager stops, and (by the {@link Janitor}) when the
     * manager is killed.
     *
     * @throws IllegalArgumentException if the fault cannot be made in this lab (says why)
     * @throws IllegalStateException if its target does not exist now (no backup to crash)
     */
    public InjectedFault inject(FaultSpec spec) throws IOException {
        VirtualNetwork net = lab.network();
        Optional<String> unsupported = spec.kind().whyNot(new FaultKind.LabFacts(
                !(lab.database() instanceof ExternalDatabase), net != null, lab.hosts() != null,
                lab.database() instanceof ReplicatedDatabase, view.members().size()), Cgroup::unusable);
        if (unsupported.isPresent()) {
            throw new IllegalArgumentException(unsupported.get());
        }
        // The target is resolved under the lock; the fault is made outside it (ip, nft, tc and the freezer take
        // milliseconds, and views, reports and the detector must not wait for them), then recorded under it again.
        // A kill the manager makes itself is made under the lock: its detection can follow at once.
        FaultSite site;
        String replica;
        synchronized (lock) {
            if (closed) {
                throw new IllegalStateException("the lab is stopping");
            }
            FaultTarget target = spec.target();
            String host = host(target.node(), spec);
            String peer = target.peer() == null ? null : host(target.peer(), spec);
            // the replica the fault acts on: the target's, or the replica side of a pair
            replica = target.node().isReplica() ? host
                    : target.peer() != null && target.peer().isReplica() ? peer : null;
            ActedOn acted = actedOn(spec, replica);
            site = new FaultSite(decide(new ViewCommand.NextFaultId()), host, peer, acted.pid(), acted.where(), net,
                    lab.database().endpoint());
            if (spec.kind().madeByManager()) {
                records.get(replica).replica.kill();
                InjectedFault fault = new InjectedFault(site.faultId(), spec, replica, site.pid(), epochMicros(), 0,
                        InjectedFault.Repair.NONE);
                decide(new ViewCommand.Injected(fault));
                return fault;
            }
        }
        String faultId = site.faultId();
        Undo undo;
        long making;
        try {
            faults.prepare(spec, site);
            // recorded before it is made: a failure of its replica reported while it is being made is this fault's
            synchronized (lock) {
                making = epochMicros();
                decide(new ViewCommand.Injected(new InjectedFault(faultId, spec, replica, site.pid(), making, 0,
                        InjectedFault.Repair.NONE)));
            }
            undo = faults.make(spec, site);
        } catch (IOException | RuntimeException e) {
            synchronized (lock) {
                decide(new ViewCommand.Withdrawn(faultId));
            }
            throw e;
        }
        boolean onItself = spec.kind().actsOn() == FaultKind.ActsOn.MANAGER_PROCESS && spec.kind().lasts();
        if (onItself) {
            // a fault on this manager (rm-hang, rm-partition) may depose it before the group hears that it was made:
            // its end cannot wait for that record, and a deposed manager still ends it (the next leader records it)
            faults.holdFor(faultId, undo, spec.durationMillis(), () -> {
                synchronized (lock) {
                    if (!closed) {
                        decide(new ViewCommand.Repaired(faultId, epochMicros(), InjectedFault.Repair.UNDONE));
                    }
                }
            });
        }
        // The fault exists from the moment it was made; one that is over once made (a forced collection) from the
        // moment its making began.
        long injected = spec.kind().lasts() ? epochMicros() : making;
        synchronized (lock) {
            InjectedFault fault = decide(new ViewCommand.Made(faultId, injected));
            boolean replicaGone = replica != null && spec.kind().actsOn() == FaultKind.ActsOn.REPLICA_PROCESS
                    && view.read(v -> v.state(replica)) == ReplicaState.DEAD;
            if (closed || replicaGone) {
                // the lab stopped, or the replica failed while the fault was being made: nothing to wait for
                decide(new ViewCommand.Repaired(faultId, epochMicros(), closed ? InjectedFault.Repair.AT_SHUTDOWN
                        : InjectedFault.Repair.FENCED));
                if (onItself) {
                    faults.endNow(faultId, true);
                } else {
                    faults.undo(faultId, undo);
                }
                return view.read(ViewKeeper::faults).stream().filter(f -> f.faultId().equals(faultId)).findFirst()
                        .orElseThrow();
            }
            if (spec.kind().actsOn() == FaultKind.ActsOn.DETECTOR_PROCESS) {
                return fault; // repaired when a new detector runs (restartDetector)
            }
            if (!onItself) {
                faults.holdFor(faultId, undo, spec.durationMillis(), () -> {
                    synchronized (lock) {
                        decide(new ViewCommand.Repaired(faultId, epochMicros(), InjectedFault.Repair.UNDONE));
                    }
                });
            }
            return fault;
        }
    }

    /** The process a fault acts on (0: none) and where it runs, or where the processes it starts run. */
    private record ActedOn(long pid, Placement where) {
    }

    /** Under {@link #lock}: what {@code spec}'s fault acts on, as its kind says, its replica being {@code replica}. */
    private ActedOn actedOn(FaultSpec spec, String replica) {
        return switch (spec.kind().actsOn()) {
            case REPLICA_PROCESS -> new ActedOn(records.get(replica).replica.pid(),
                    records.get(replica).replica.placement());
            case DATABASE_PROCESS -> new ActedOn(lab.database().pid().orElseThrow(), lab.database().placement());
            // in the target's host's namespace (the CPUs are this machine's, shared by every host)
            case BESIDE_TARGET -> new ActedOn(0, spec.target().node() == FaultTarget.Node.DB
                    ? lab.database().placement() : records.get(replica).replica.placement());
            // the database's endpoint, or the virtual network's hosts: no process
            case DATABASE_SESSION, NETWORK -> new ActedOn(0, Placement.LOCAL);
            case MANAGER_PROCESS -> new ActedOn(ProcessHandle.current().pid(), Placement.LOCAL);
            case DETECTOR_PROCESS -> new ActedOn(detector.pid(), Placement.LOCAL);
        };
    }

    /**
     * Under {@link #lock}: the host a target role names now ({@code r3}, {@code db}, {@code clients}, {@code rm}).
     *
     * @throws IllegalStateException if the view has no such replica now
     */
    private String host(FaultTarget.Node node, FaultSpec spec) {
        return switch (node) {
            case PRIMARY, BACKUP -> {
                String name = view.read(v -> v.serving(node == FaultTarget.Node.PRIMARY ? 0 : 1));
                if (name == null) {
                    throw new IllegalStateException("no " + node.wireName() + " to " + spec.kind().wireName()
                            + " (view: " + view.read(ViewKeeper::servingNames) + ")");
                }
                yield name;
            }
            case DB -> NetworkLayout.DATABASE_HOST;
            case CLIENTS -> NetworkLayout.CLIENTS_HOST;
            case FD -> NetworkLayout.MANAGER_HOST;
            case LEADER -> view.member();
            // the other members, whose hosts are named as they are
            case MANAGERS -> String.join(",", view.members().stream().filter(m -> !m.equals(view.member())).toList());
        };
    }

    static long epochMicros() {
        return MicroClock.nowEpochMicros();
    }

    @Override
    public void close() {
        synchronized (lock) {
            if (closed) {
                return;
            }
            try {
                decide(new ViewCommand.Stop()); // in a lab of several managers, no later leader takes it over
            } catch (IllegalStateException e) {
                LOG.warning("the lab stops without the other managers knowing: " + e.getMessage());
            }
            closed = true;
        }
        tier.close();
        faults.undoAll(id -> {
            synchronized (lock) {
                decide(new ViewCommand.Repaired(id, epochMicros(), InjectedFault.Repair.AT_SHUTDOWN));
            }
        });
        warmer.close();
        Hotness h = hotness;
        if (h != null) {
            h.close();
        }
        relauncher.shutdownNow();
        try {
            relauncher.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        fencer.shutdown();
        try {
            fencer.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        sessionFence.close();
        DatabaseKeeper keeper = databaseKeeper;
        if (keeper != null) {
            keeper.close();
        }
        lab.close();
        janitor.done(DATABASE_FILES); // deleted by the lab's close
        ProcessTools.terminate(detector, Duration.ofSeconds(5));
        Jcmd.forget(detector.pid());
        detectorGuard.close();
        faults.close();
        Observation o = observation;
        if (o != null) {
            o.close();
        }
    }
}
