package org.ftlab.rm;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.logging.Logger;
import org.ftlab.os.Janitor;
import org.ftlab.os.OrphanGuard;
import org.ftlab.os.access.ApplicationUser;
import org.ftlab.os.access.DatabaseEndpoint;
import org.ftlab.rm.api.FaultKind;
import org.ftlab.rm.api.InjectedFault;
import org.ftlab.rm.api.ReplicaState;
import org.ftlab.rm.consensus.NotLeaderException;
import org.ftlab.rm.consensus.ReplicatedState;
import org.ftlab.rm.db.AdoptedDatabase;
import org.ftlab.rm.db.EpochFence;
import org.ftlab.rm.db.SessionFence;
import org.ftlab.rm.detector.DetectorKeeper;
import org.ftlab.rm.observe.Observation;
import org.ftlab.rm.replica.HeartbeatSettings;
import org.ftlab.rm.replica.Replica;
import org.ftlab.rm.replica.ReplicaLauncher;

/**
 * A later leader's takeover of the lab an earlier leader started: it adopts the Fault Detectors, the database and
 * every replica by what the view recorded of them (a detector that is gone is started again on its port), then
 * finishes what the earlier leader began and did not end: a replica that was booting joins, or waits as a spare, once
 * up (and is recorded failed if its process never ran); a failed replica still running is fenced; a degree still short
 * is restored and the spare pool refilled; the faults the earlier leader's janitor undid when it went are recorded so.
 */
final class Takeover {
    private static final Logger LOG = Logger.getLogger(Takeover.class.getName());

    private Takeover() {
    }

    /**
     * Takes over the lab of {@code view}, which this manager leads now; {@code managerUrl}: where a restarted detector
     * reports.
     *
     * @throws ReplicationManager.LabStopped if an earlier leader stopped the lab
     */
    static ReplicationManager takeOver(ReplicationManager.Settings settings, ReplicatedState<ViewKeeper> view,
            String managerUrl, String managerToken) throws Exception {
        long t0 = System.nanoTime();
        try {
            // first a command of this term: until then this member's copy may lack what the last leader committed
            view.apply(new ViewCommand.Lead(view.member(), view.term(), LabState.epochMicros()));
        } catch (NotLeaderException e) {
            throw new IllegalStateException("this manager no longer leads: " + e.getMessage(), e);
        }
        long led = System.nanoTime();
        if (view.read(ViewKeeper::stopped)) {
            throw new ReplicationManager.LabStopped();
        }
        LabProcesses p = view.read(ViewKeeper::lab);
        if (p == null) {
            // the first leader went before the lab was up
            return ReplicationManager.start(settings, view, managerUrl, managerToken);
        }
        HeartbeatSettings heartbeat = new HeartbeatSettings(p.detectorAddress(), p.detectorPorts(),
                settings.heartbeatMillis(), settings.timeoutMillis());
        DetectorKeeper detectors = DetectorKeeper.adopt(settings.detectorLaunch(managerUrl, managerToken), heartbeat,
                p.detectorPids());
        boolean newDetector = !detectors.pids().equals(p.detectorPids());
        LocalLab lab = LocalLab.adopt(settings.labOptions(heartbeat), p.databasePid());
        Janitor janitor = Janitor.start(settings.managerDir().resolve("undo.sh"));
        ReplicationManager rm = new ReplicationManager(settings, lab, detectors, heartbeat, view,
                lab.database().fence(), janitor);
        rm.detectors.watch(rm::detectorRestarted);
        long labAdopted = System.nanoTime();
        try {
            if (newDetector) {
                synchronized (rm.s.lock) {
                    rm.s.decide(new ViewCommand.LabUp(rm.labProcesses()));
                }
            }
            List<Replica> fenced = adoptAll(rm);
            long replicasAdopted = System.nanoTime();
            synchronized (rm.s.lock) {
                rm.s.decide(new ViewCommand.Acting(view.member(), view.term(), LabState.epochMicros()));
            }
            // the epoch Acting began: from now on the database refuses its predecessors' orders
            EpochFence.Order order = rm.s.order();
            rm.raiseEpoch(order);
            for (Replica replica : fenced) {
                rm.failures.endSessionsLater(replica, order);
            }
            LOG.info(String.format(Locale.ROOT, "%s took over the lab in term %d in %.1f ms: its lead committed in "
                    + "%.1f ms, the detectors and database adopted in %.1f ms, the replicas in %.1f ms%s",
                    view.member(), view.term(), (System.nanoTime() - t0) / 1e6, (led - t0) / 1e6,
                    (labAdopted - led) / 1e6, (replicasAdopted - labAdopted) / 1e6,
                    newDetector ? " (with a new Fault Detector)" : ""));
            startMeasuring(rm, settings);
        } catch (Exception e) {
            rm.stepDown();
            throw e;
        }
        return rm;
    }

    /**
     * Adopts the replicas the view names and finishes what the earlier leader left half done; answers the replicas it
     * found decided failed and running: killed now, their database sessions ended once this leader acts.
     */
    private static List<Replica> adoptAll(ReplicationManager rm) {
        LabState s = rm.s;
        List<String> booting = new ArrayList<>();
        List<Replica> fenced = new ArrayList<>();
        synchronized (s.lock) {
            for (InjectedFault f : s.view.read(ViewKeeper::faults)) {
                boolean endsWithItsReplica = f.kind().layer() == FaultKind.Layer.PROCESS && f.kind().madeByManager();
                boolean failedAManager = f.kind().actsOn() == FaultKind.ActsOn.MANAGER_PROCESS; // repaired by acting
                if (f.active() && !endsWithItsReplica && !failedAManager) {
                    s.decide(new ViewCommand.Repaired(f.faultId(), LabState.epochMicros(),
                            InjectedFault.Repair.HANDED_OVER));
                }
            }
            for (String name : s.view.read(ViewKeeper::names)) {
                ReplicaState state = s.view.read(v -> v.state(name));
                Replica.Launch launch = s.view.read(v -> v.launchOf(name));
                if (launch == null) {
                    if (state == ReplicaState.STARTING) {
                        s.decide(new ViewCommand.LaunchFailed(name)); // its launcher went before its process ran
                    }
                    continue;
                }
                Replica replica = Replica.adopt(launch, OrphanGuard.watch(launch.pid()));
                ReplicaRecord rec = new ReplicaRecord(0, launch.launchedEpochMillis());
                s.records.put(name, rec);
                if (state == ReplicaState.DEAD) {
                    rec.replica = replica;
                    if (replica.isAlive()) { // decided failed, not yet fenced
                        replica.kill();
                        // its sessions: an order of this leader's epoch, which begins when it acts
                        fenced.add(replica);
                    }
                    continue;
                }
                rm.lab.adopted(replica);
                if (state == ReplicaState.STARTING) {
                    booting.add(name);
                    rm.pool.joinWhenUp(name, replica);
                    continue;
                }
                rec.replica = replica;
                if (state != ReplicaState.SPARE) {
                    rec.niceness = -1; // unknown: a replacement may still run at its boot's nice value
                    rm.pool.serveAtNormalPriority(name);
                }
            }
        }
        rm.pool.restoreAll();
        LOG.info("adopted " + s.records.keySet() + (booting.isEmpty() ? "" : ", waiting for " + booting + " to boot"));
        return fenced;
    }

    /**
     * What serves the measurements, not the fail-overs (the observation, the hotness readings, the warmer): started
     * beside the manager acting again, which answers at once.
     */
    private static void startMeasuring(ReplicationManager rm, ReplicationManager.Settings settings) {
        Thread measuring = new Thread(() -> {
            try {
                Observation started = Observation.start(rm.jvms, settings.lab().runDir().toAbsolutePath()
                        .resolve("rm"), rm.lab.database().endpoint(), settings.lab().observe());
                Hotness hot = Hotness.start(rm.jvms::hotnessTargets);
                synchronized (rm.s.lock) {
                    if (rm.s.stopped()) { // it stepped down meanwhile
                        started.close();
                        hot.close();
                        return;
                    }
                    rm.observation = started;
                    rm.hotness = hot;
                }
                rm.pool.keepWarm();
            } catch (IOException | RuntimeException e) {
                LOG.warning("the new leader's observation did not start: " + e.getMessage());
            }
        }, "observation-start");
        measuring.setDaemon(true);
        measuring.start();
    }

    /**
     * What a member that may lead next does ahead, while it follows a lab that is up: the classes a takeover needs
     * loaded, a database connection and a session fence opened once (Connector/J's first connection costs hundreds of
     * ms in a cold JVM, more on a loaded machine), so that its takeover spends its time on the lab, not on warming
     * itself up. Nothing is kept; a failure only leaves the takeover to do it.
     */
    static void prepare(ReplicationManager.Settings settings) {
        Path runDir = settings.lab().runDir().toAbsolutePath();
        try {
            DatabaseEndpoint db = settings.lab().externalDatabase() != null ? settings.lab().externalDatabase()
                    : DatabaseEndpoint.loadForAudits(runDir);
            SessionFence.open(db).close();
            ApplicationUser.load(runDir);
            for (Class<?> k : List.of(LocalLab.class, AdoptedDatabase.class, ReplicaLauncher.class, ReplicaWarmer.class,
                    Observation.class, Hotness.class, Janitor.class, Replica.class, DetectorKeeper.class,
                    ReplicaPool.class, FailureHandler.class, FaultInjector.class, LabJvms.class)) {
                Class.forName(k.getName(), true, Takeover.class.getClassLoader());
            }
        } catch (IOException | SQLException | ClassNotFoundException | RuntimeException e) {
            LOG.fine("preparing to take over: " + e.getMessage());
        }
    }
}
