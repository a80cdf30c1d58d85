package org.ftlab.rm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.ftlab.fd.FaultDetector;
import org.ftlab.fd.ProcessState;
import org.ftlab.rm.db.SessionFence;
import org.ftlab.rm.replica.FreePorts;
import org.ftlab.rm.replica.HeartbeatSettings;
import org.ftlab.rm.replica.OrphanGuard;
import org.ftlab.rm.replica.ProcessTools;
import org.ftlab.rm.replica.Replica;

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
    private static final Duration DETECTOR_START_TIMEOUT = Duration.ofSeconds(60);

    private final LocalLab lab;
    private final Process detector;
    private final OrphanGuard detectorGuard;
    private final HeartbeatSettings heartbeat;
    private final int targetDegree;
    private final int targetSpares;
    private final boolean relaunch;
    private final ReplicaWarmer warmer;
    private final SessionFence sessionFence;
    /**
     * Nice value of a replacement replica. Its boot (seconds of JIT and class loading on every core) would otherwise
     * slow the primary's requests right after a fail-over by an order of magnitude on a 2-core lab host. Linux does
     * not let an unprivileged process lower it again, so a replacement later promoted serves at this nice value.
     */
    static final int REPLACEMENT_NICENESS = 10;
    /** Nice value of a spare booted beside the running service: it is not urgent, so it yields nearly all CPU. */
    static final int SPARE_NICENESS = 19;
    /** Ends failed replicas' database sessions, off the lock. */
    private final ExecutorService fencer = daemonThread("session-fencer");
    private final ExecutorService relauncher = daemonThread("relauncher");

    private final Object lock = new Object();
    private final Map<String, ReplicaRecord> records = new LinkedHashMap<>();
    private final List<String> serving = new ArrayList<>();
    /** Ready spares, oldest first: outside the view, taken in this order. */
    private final List<String> spares = new ArrayList<>();
    private final List<FailureRecord> failures = new ArrayList<>();
    private final Map<String, Injection> pendingInjections = new LinkedHashMap<>();
    private long epoch;
    private int replicaCounter;
    private int faultCounter;
    private volatile boolean closed;

    private static final class ReplicaRecord {
        final String name;
        final long launchedEpochMillis = System.currentTimeMillis();
        volatile Replica replica;
        volatile ReplicaState state = ReplicaState.STARTING;
        /** The nice value it was launched at (a replacement or spare booted beside a running service). */
        volatile int niceness;
        /** How long the warmer's boot rounds took, ms (-1: they failed). */
        volatile long warmUpMillis;

        ReplicaRecord(String name) {
            this.name = name;
        }
    }

    private record Injection(String faultId, String kind, long injectedEpochUs) {
    }

    /** What an injection did, for the caller's fault log. */
    public record InjectedFault(String faultId, String kind, String replica, long pid, long injectedEpochUs) {
    }

    /**
     * Settings of the manager; {@code spares}: pre-booted replicas kept outside the view; {@code warmRounds} and
     * {@code warmRate}: the {@link ReplicaWarmer}'s rounds after boot and per second on backups and spares.
     */
    public record Settings(LocalLab.Options lab, int replicas, int spares, long heartbeatMillis, long timeoutMillis,
            boolean relaunch, int warmRounds, double warmRate) {
        public Settings {
            if (replicas < 1 || replicas > 5) {
                throw new IllegalArgumentException("replicas must be 1 to 5, was " + replicas);
            }
            if (spares < 0 || spares > 3) {
                throw new IllegalArgumentException("spares must be 0 to 3, was " + spares);
            }
        }
    }

    private ReplicationManager(LocalLab lab, Process detector, OrphanGuard detectorGuard, HeartbeatSettings heartbeat,
            int targetDegree, int targetSpares, boolean relaunch, ReplicaWarmer warmer, SessionFence sessionFence) {
        this.warmer = warmer;
        this.sessionFence = sessionFence;
        this.lab = lab;
        this.detector = detector;
        this.detectorGuard = detectorGuard;
        this.heartbeat = heartbeat;
        this.targetDegree = targetDegree;
        this.targetSpares = targetSpares;
        this.relaunch = relaunch;
    }

    /**
     * Starts the Fault Detector process, the database and the replicas (one after another; the first becomes the
     * primary). {@code managerUrl} is where the detector reports failures.
     */
    public static ReplicationManager start(Settings settings, String managerUrl, String managerToken)
            throws Exception {
        Path runDir = settings.lab().runDir().toAbsolutePath();
        Files.createDirectories(runDir.resolve("fd"));
        int detectorPort = FreePorts.findFreePortPair();
        HeartbeatSettings heartbeat = new HeartbeatSettings(detectorPort, settings.heartbeatMillis(),
                settings.timeoutMillis());
        Process detector = startDetector(runDir.resolve("fd"), detectorPort, managerUrl, managerToken, heartbeat);
        OrphanGuard guard = OrphanGuard.watch(detector.pid());
        LocalLab lab;
        try {
            LocalLab.Options o = settings.lab();
            lab = LocalLab.start(new LocalLab.Options(runDir, o.serverHome(), o.externalDatabase(),
                    o.replicaMaxHeap(), heartbeat));
        } catch (Exception e) {
            ProcessTools.terminate(detector.toHandle(), Duration.ofSeconds(5));
            guard.close();
            throw e;
        }
        lab.database().endpoint().saveForAudits(runDir);
        SessionFence fence;
        try {
            fence = SessionFence.open(lab.database().endpoint());
        } catch (SQLException e) {
            lab.close();
            ProcessTools.terminate(detector.toHandle(), Duration.ofSeconds(5));
            guard.close();
            throw e;
        }
        ReplicationManager rm = new ReplicationManager(lab, detector, guard, heartbeat, settings.replicas(),
                settings.spares(), settings.relaunch(), new ReplicaWarmer(lab.user(), settings.warmRounds(),
                        settings.warmRate()), fence);
        try {
            for (int i = 0; i < settings.replicas(); i++) {
                rm.launchAndJoin();
            }
            for (int i = 0; i < settings.spares(); i++) {
                rm.launchSpare(0);
            }
            rm.warmer.keepWarm(rm::idleReplicas);
        } catch (Exception e) {
            rm.close();
            throw e;
        }
        return rm;
    }

    private static ExecutorService daemonThread(String name) {
        return Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
    }

    private static Process startDetector(Path dir, int port, String managerUrl, String managerToken,
            HeartbeatSettings hb) throws IOException, InterruptedException {
        Path console = dir.resolve("console.log");
        Files.deleteIfExists(console);
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx128m", "-Djava.net.preferIPv4Stack=true", "-cp", System.getProperty("java.class.path"),
                "org.ftlab.fd.FaultDetector", "--port", Integer.toString(port), "--rm-url", managerUrl,
                "--heartbeat-ms", Long.toString(hb.heartbeatMillis()), "--timeout-ms", Long.toString(hb.timeoutMillis()),
                "--log", dir.resolve("detector.log").toString())
                .redirectErrorStream(true).redirectOutput(console.toFile());
        pb.environment().put(FaultDetector.TOKEN_ENV, managerToken); // not on the command line, where ps shows it
        Process p = pb.start();
        long deadline = System.nanoTime() + DETECTOR_START_TIMEOUT.toNanos();
        while (true) {
            String out = Files.exists(console) ? Files.readString(console, StandardCharsets.UTF_8) : "";
            if (out.contains("fault-detector ready")) {
                return p;
            }
            if (!p.isAlive() || System.nanoTime() > deadline) {
                p.destroyForcibly();
                throw new IOException("the Fault Detector did not start; see " + console + ": "
                        + out.lines().reduce((a, b) -> b).orElse("(no output)"));
            }
            Thread.sleep(50);
        }
    }

    /** Launches a new replica, waits until it serves, and appends it to the view (primary if there is none). */
    private String launchAndJoin() throws IOException, TimeoutException, InterruptedException {
        return launchAndJoin(0);
    }

    private String launchAndJoin(int niceness) throws IOException, TimeoutException, InterruptedException {
        ReplicaRecord rec = launch(niceness);
        synchronized (lock) {
            if (closed) {
                return rec.name;
            }
            join(rec);
        }
        return rec.name;
    }

    /** Launches a spare and waits until it serves; it stays outside the view until a serving replica fails. */
    private String launchSpare(int niceness) throws IOException, TimeoutException, InterruptedException {
        ReplicaRecord rec = launch(niceness);
        synchronized (lock) {
            if (closed || rec.state == ReplicaState.DEAD) {
                return rec.name;
            }
            if (serving.size() < targetDegree) {
                join(rec); // a failure is waiting for its degree: this spare restores it now
                restoredBy(rec.name);
            } else {
                rec.state = ReplicaState.SPARE;
                spares.add(rec.name);
            }
        }
        return rec.name;
    }

    /** Under {@link #lock}: the oldest failure still short of its degree is restored by replica {@code name}. */
    private void restoredBy(String name) {
        for (int i = 0; i < failures.size(); i++) {
            FailureRecord f = failures.get(i);
            if (f.restoredEpochUs() == 0) {
                long now = epochMicros();
                if (f.wasPrimary() && f.promotedEpochUs() == 0 && serving.get(0).equals(name)) {
                    f = f.withPromoted(now);
                }
                failures.set(i, f.withRestored(now, name));
                return;
            }
        }
    }

    /** Launches a replica under a new name and waits until it serves (state STARTING until the caller decides). */
    private ReplicaRecord launch(int niceness) throws IOException, TimeoutException, InterruptedException {
        ReplicaRecord rec;
        synchronized (lock) {
            rec = new ReplicaRecord("r" + (++replicaCounter));
            rec.niceness = niceness;
            records.put(rec.name, rec);
        }
        Replica replica;
        try {
            replica = lab.startReplica(rec.name, niceness);
        } catch (IOException | TimeoutException | InterruptedException e) {
            synchronized (lock) {
                rec.state = ReplicaState.DEAD;
            }
            throw e;
        }
        long warmMillis = warmer.warmUp(replica);
        synchronized (lock) {
            rec.replica = replica;
            rec.warmUpMillis = warmMillis;
        }
        return rec;
    }

    /** The replicas that serve no clients but must be ready to: backups and spares. */
    private List<Replica> idleReplicas() {
        synchronized (lock) {
            List<Replica> out = new ArrayList<>();
            for (ReplicaRecord r : records.values()) {
                if ((r.state == ReplicaState.BACKUP || r.state == ReplicaState.SPARE) && r.replica != null) {
                    out.add(r.replica);
                }
            }
            return out;
        }
    }

    /**
     * Under {@link #lock}: appends a ready replica to the view (primary if there is none). One that was launched
     * at a raised nice value serves from now on, so it gets the normal one back (where the system allows it).
     */
    private void join(ReplicaRecord rec) {
        rec.state = serving.isEmpty() ? ReplicaState.PRIMARY : ReplicaState.BACKUP;
        serving.add(rec.name);
        epoch++;
        if (rec.niceness != 0) {
            try {
                ProcessTools.renice(rec.replica.pid(), 0);
                rec.niceness = 0;
            } catch (IOException e) {
                System.err.println("replication-manager: " + rec.name + " serves at nice " + rec.niceness + ": "
                        + e.getMessage());
            }
        }
    }

    // ---- views ------------------------------------------------------------------------------------------------

    public PrimaryBackupView view() {
        synchronized (lock) {
            List<PrimaryBackupView.Member> members = new ArrayList<>();
            for (String name : serving) {
                members.add(new PrimaryBackupView.Member(name, records.get(name).replica.remotingUri()));
            }
            return new PrimaryBackupView(epoch, members);
        }
    }

    /** Status of every replica ever launched in this run, and every failure. */
    public Map<String, Object> status() {
        synchronized (lock) {
            List<Map<String, Object>> replicas = new ArrayList<>();
            long nowMillis = System.currentTimeMillis();
            for (ReplicaRecord r : records.values()) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("name", r.name);
                m.put("state", r.state.name().toLowerCase(java.util.Locale.ROOT));
                m.put("pid", r.replica == null ? null : r.replica.pid());
                m.put("nice", r.niceness);
                m.put("warmUpMs", r.warmUpMillis);
                m.put("uri", r.replica == null ? null : r.replica.remotingUri());
                m.put("launchedEpochMs", r.launchedEpochMillis);
                m.put("uptimeMs", r.state == ReplicaState.DEAD ? null : nowMillis - r.launchedEpochMillis);
                m.put("startupMs", r.replica == null || r.replica.startupTime() == null ? null
                        : r.replica.startupTime().toMillis());
                replicas.add(m);
            }
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("epoch", epoch);
            s.put("primary", serving.isEmpty() ? null : serving.get(0));
            s.put("degree", serving.size());
            s.put("targetDegree", targetDegree);
            s.put("spares", List.copyOf(spares));
            s.put("targetSpares", targetSpares);
            s.put("warmRoundsRun", warmer.roundsRun());
            s.put("heartbeatMs", heartbeat.heartbeatMillis());
            s.put("timeoutMs", heartbeat.timeoutMillis());
            s.put("faultDetectorPid", detector.pid());
            s.put("database", lab.database().endpoint().redactedUrl());
            s.put("replicas", replicas);
            s.put("failures", List.copyOf(failures));
            return s;
        }
    }

    public List<FailureRecord> failures() {
        synchronized (lock) {
            return List.copyOf(failures);
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
    public boolean onDetectorReport(String replicaName, long pid, String kind, long detectedEpochUs) {
        synchronized (lock) {
            ReplicaRecord rec = records.get(replicaName);
            if (rec == null || rec.replica == null || rec.replica.pid() != pid || rec.state == ReplicaState.DEAD) {
                return false;
            }
            handleFailure(rec, kind, "fault-detector", detectedEpochUs);
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
        synchronized (lock) {
            ReplicaRecord rec = records.get(replicaName);
            if (rec == null || rec.replica == null) {
                return false;
            }
            if (rec.state == ReplicaState.DEAD) {
                return true;
            }
            ProcessState state = ProcessState.of(rec.replica.pid());
            if (state == ProcessState.RUNNING) {
                return false;
            }
            handleFailure(rec, state == ProcessState.GONE ? "crash" : "hang", "client", epochMicros());
            return true;
        }
    }

    /** Under {@link #lock}: demote, fence, promote, take a spare into the view, record, relaunch. */
    private void handleFailure(ReplicaRecord rec, String kind, String source, long detectedEpochUs) {
        boolean wasPrimary = !serving.isEmpty() && serving.get(0).equals(rec.name);
        boolean wasServing = serving.remove(rec.name);
        spares.remove(rec.name);
        int sparesReady = spares.size();
        rec.state = ReplicaState.DEAD;
        Replica failed = rec.replica;
        Injection injected = pendingInjections.remove(rec.name);
        String faultId = injected != null ? injected.faultId() : "f" + (++faultCounter);
        FailureRecord record = new FailureRecord(faultId, rec.name, kind, source, wasPrimary,
                injected != null ? injected.injectedEpochUs() : 0, detectedEpochUs, 0, 0, null, sparesReady);
        if (wasPrimary && !serving.isEmpty()) {
            records.get(serving.get(0)).state = ReplicaState.PRIMARY;
            record = record.withPromoted(epochMicros());
        }
        // Fencing: a hung replica must never resume as a second primary. SIGKILL also ends a stopped process; ending
        // its database sessions as well rolls back the transactions it left open now, not when the kernel has torn
        // the process down, so the requests it held (hedged or retried elsewhere) wait no longer. That runs right
        // after the SIGKILL, off the lock: finding the sessions takes about 15 ms.
        failed.kill();
        fencer.execute(() -> endDatabaseSessions(failed));
        if (wasServing && !spares.isEmpty()) {
            // The degree is back as soon as a ready spare joins the view.
            ReplicaRecord spare = records.get(spares.remove(0));
            join(spare);
            long now = epochMicros();
            if (wasPrimary && record.promotedEpochUs() == 0) {
                record = record.withPromoted(now); // no backup was left: the spare is the new primary
            }
            record = record.withRestored(now, spare.name);
        }
        if (!wasServing) {
            record = record.withRestored(epochMicros(), null); // a spare: the degree never dropped
        }
        epoch++;
        failures.add(record);
        int index = failures.size() - 1;
        boolean restored = record.restoredEpochUs() != 0 || !wasServing;
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

    /** In the fencer thread: ends the killed replica's database sessions; a failure is logged (the kill ends them). */
    private void endDatabaseSessions(Replica failed) {
        try {
            sessionFence.endSessionsOf(failed.pid());
        } catch (IOException | SQLException e) {
            System.err.println("replication-manager: could not end the database sessions of " + failed.name()
                    + " (they end with its process): " + e.getMessage());
        }
    }

    /** In the relaunch thread: a replacement replica, appended to the view; retried a few times. */
    private void restore(int failureIndex) {
        for (int attempt = 1; attempt <= 3 && !closed; attempt++) {
            synchronized (lock) {
                if (failures.get(failureIndex).restoredEpochUs() != 0 || serving.size() >= targetDegree) {
                    return; // a spare that finished booting meanwhile has restored it
                }
            }
            try {
                String name = launchAndJoin(REPLACEMENT_NICENESS);
                synchronized (lock) {
                    restoredBy(name);
                }
                return;
            } catch (Exception e) {
                System.err.println("replication-manager: relaunch attempt " + attempt + " failed: " + e.getMessage());
            }
        }
    }

    /** In the relaunch thread: boots spares, beside the running service, until the pool is full again. */
    private void refillSpares() {
        int failuresInARow = 0;
        while (!closed && failuresInARow < 3) {
            synchronized (lock) {
                long booting = records.values().stream().filter(r -> r.state == ReplicaState.STARTING).count();
                if (spares.size() + booting >= targetSpares) {
                    return;
                }
            }
            try {
                launchSpare(SPARE_NICENESS);
                failuresInARow = 0;
            } catch (Exception e) {
                failuresInARow++;
                System.err.println("replication-manager: spare launch failed: " + e.getMessage());
            }
        }
    }

    // ---- fault injection --------------------------------------------------------------------------------------

    /**
     * Injects a fault with a real signal: {@code crash-primary} (SIGKILL), {@code hang-primary} (SIGSTOP),
     * {@code crash-backup} (SIGKILL of the next backup), or {@code resume} (SIGCONT to {@code replica}).
     */
    public InjectedFault inject(String kind, String replicaName) throws IOException {
        synchronized (lock) {
            String target;
            String signal;
            switch (kind) {
                case "crash-primary" -> {
                    target = requireServing(0, "no primary to crash");
                    signal = "KILL";
                }
                case "hang-primary" -> {
                    target = requireServing(0, "no primary to hang");
                    signal = "STOP";
                }
                case "crash-backup" -> {
                    target = requireServing(1, "no backup to crash");
                    signal = "KILL";
                }
                case "resume" -> {
                    target = replicaName;
                    signal = "CONT";
                }
                default -> throw new IllegalArgumentException("unknown fault kind '" + kind
                        + "'; use crash-primary, hang-primary, crash-backup or resume");
            }
            ReplicaRecord rec = records.get(target);
            if (rec == null || rec.replica == null) {
                throw new IllegalArgumentException("unknown replica '" + target + "'");
            }
            if (signal.equals("CONT")) {
                try {
                    rec.replica.signal(signal);
                } catch (IOException e) {
                    if (rec.replica.isAlive()) {
                        throw e;
                    }
                    // Already fenced (killed) and gone: there is nothing to resume, which is the point of fencing.
                }
                return new InjectedFault(null, kind, target, rec.replica.pid(), epochMicros());
            }
            if (signal.equals("KILL")) {
                rec.replica.kill();
            } else {
                rec.replica.signal(signal);
            }
            // The fault exists from the moment the signal was delivered.
            long injected = epochMicros();
            String faultId = "f" + (++faultCounter);
            pendingInjections.put(target, new Injection(faultId, signal.equals("STOP") ? "hang" : "crash", injected));
            return new InjectedFault(faultId, kind, target, rec.replica.pid(), injected);
        }
    }

    private String requireServing(int index, String message) {
        if (serving.size() <= index) {
            throw new IllegalStateException(message + " (view: " + serving + ")");
        }
        return serving.get(index);
    }

    static long epochMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }

    @Override
    public void close() {
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
        }
        warmer.close();
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
        lab.close();
        ProcessTools.terminate(detector.toHandle(), Duration.ofSeconds(5));
        detectorGuard.close();
    }
}
