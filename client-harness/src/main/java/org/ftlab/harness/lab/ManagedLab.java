package org.ftlab.harness.lab;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.ftlab.os.ChildJvm;
import org.ftlab.os.FreePorts;
import org.ftlab.os.Jcmd;
import org.ftlab.os.OrphanGuard;
import org.ftlab.os.Placement;
import org.ftlab.os.ProcessTools;
import org.ftlab.os.access.ApplicationUser;
import org.ftlab.os.access.DatabaseEndpoint;
import org.ftlab.os.net.VirtualNetwork;
import org.ftlab.rm.api.DatabaseTier;
import org.ftlab.rm.api.ManagerEndpoint;
import org.ftlab.rm.api.ManagerStatus;
import org.ftlab.rm.api.NetworkLayout;
import org.ftlab.rm.api.Observe;

/**
 * The lab as the harness sees it: a Replication Manager process (which starts the Fault Detector, the database and
 * the replicas), reached over its HTTP interface. A lab this JVM {@link #start started} is stopped by {@link #close()}
 * (SIGTERM to the manager, which stops everything it started); a lab it {@link #attach attached} to belongs to the
 * command that started it ({@code ftlab lab}) and is left running.
 */
public final class ManagedLab implements AutoCloseable {
    private static final Duration START_TIMEOUT = Duration.ofMinutes(5);
    private static final Duration STOP_GRACE = Duration.ofSeconds(60);
    /** The Fault Detector's log in a lab's directory (and, for a run on a lab it did not start, in the run's). */
    public static final String DETECTOR_LOG = "fd/detector.log";

    private final Process process; // null: attached
    private final OrphanGuard guard;
    /** The manager processes of a lab of several this JVM started (the first is {@link #process}); else null. */
    private final ManagerProcesses managers;
    private final ManagerClient manager;
    private final ApplicationUser user;
    private final Path runDir;
    private final LabFile description;

    private ManagedLab(Process process, OrphanGuard guard, ManagerClient manager, ApplicationUser user, Path runDir,
            LabFile description) {
        this(process, guard, null, manager, user, runDir, description);
    }

    private ManagedLab(Process process, OrphanGuard guard, ManagerProcesses managers, ManagerClient manager,
            ApplicationUser user, Path runDir, LabFile description) {
        this.managers = managers;
        this.process = process;
        this.guard = guard;
        this.manager = manager;
        this.user = user;
        this.runDir = runDir;
        this.description = description;
    }

    /** Spares a lab keeps unless told otherwise. */
    public static final int DEFAULT_SPARES = 1;
    /** The Fault Detector's heartbeat interval H unless told otherwise, ms. */
    public static final long DEFAULT_HEARTBEAT_MILLIS = 100;
    /** The Fault Detector's suspicion timeout T unless told otherwise, ms. */
    public static final long DEFAULT_HEARTBEAT_TIMEOUT_MILLIS = 500;

    /**
     * Settings; {@code externalDatabase} null: the embedded database; {@code network} null: every process on this
     * machine's loopback; {@code hostsFile}: null, or the database and replicas on the other machines it names;
     * {@code requestLog} false: replicas without the request log (the exactly-once exercise only); {@code observe}:
     * every JVM of the lab records events for the analysis ({@link Observe}; the shorter constructors take the
     * environment's default); {@code managers}: 1, or the managers of a lab kept by several (one leads, elected by
     * Raft).
     */
    public record Options(Path runDir, Path serverDir, int replicas, int spares, DatabaseEndpoint externalDatabase,
            long heartbeatMillis, long timeoutMillis, boolean relaunch, NetworkLayout network, Path hostsFile,
            boolean requestLog, Observe observe, boolean wildflyCluster, DatabaseTier databaseTier, int managers) {
        public Options {
            databaseTier = databaseTier == null ? DatabaseTier.SINGLE : databaseTier;
            if (managers != 1 && managers != 3 && managers != 5) {
                throw new IllegalArgumentException("--managers must be 1, 3 or 5 (a majority must outlive a "
                        + "manager's failure), was " + managers);
            }
        }

        public Options(Path runDir, Path serverDir, int replicas, int spares, DatabaseEndpoint externalDatabase,
                long heartbeatMillis, long timeoutMillis, boolean relaunch, NetworkLayout network, Path hostsFile,
                boolean requestLog, Observe observe, boolean wildflyCluster, DatabaseTier databaseTier) {
            this(runDir, serverDir, replicas, spares, externalDatabase, heartbeatMillis, timeoutMillis, relaunch,
                    network, hostsFile, requestLog, observe, wildflyCluster, databaseTier, 1);
        }

        public Options(Path runDir, Path serverDir, int replicas, int spares, DatabaseEndpoint externalDatabase,
                long heartbeatMillis, long timeoutMillis, boolean relaunch, NetworkLayout network, Path hostsFile,
                boolean requestLog, Observe observe, boolean wildflyCluster) {
            this(runDir, serverDir, replicas, spares, externalDatabase, heartbeatMillis, timeoutMillis, relaunch,
                    network, hostsFile, requestLog, observe, wildflyCluster, DatabaseTier.SINGLE);
        }

        public Options(Path runDir, Path serverDir, int replicas, int spares, DatabaseEndpoint externalDatabase,
                long heartbeatMillis, long timeoutMillis, boolean relaunch, NetworkLayout network, Path hostsFile,
                boolean requestLog, Observe observe) {
            this(runDir, serverDir, replicas, spares, externalDatabase, heartbeatMillis, timeoutMillis, relaunch,
                    network, hostsFile, requestLog, observe, false);
        }

        public Options(Path runDir, Path serverDir, int replicas) {
            this(runDir, serverDir, replicas, DEFAULT_SPARES, null, DEFAULT_HEARTBEAT_MILLIS,
                    DEFAULT_HEARTBEAT_TIMEOUT_MILLIS, true, null, null, true, Observe.byDefault());
        }

        public Options(Path runDir, Path serverDir, int replicas, int spares, DatabaseEndpoint externalDatabase,
                long heartbeatMillis, long timeoutMillis, boolean relaunch, NetworkLayout network) {
            this(runDir, serverDir, replicas, spares, externalDatabase, heartbeatMillis, timeoutMillis, relaunch,
                    network, null, true, Observe.byDefault());
        }

        public Options(Path runDir, Path serverDir, int replicas, int spares, DatabaseEndpoint externalDatabase,
                long heartbeatMillis, long timeoutMillis, boolean relaunch) {
            this(runDir, serverDir, replicas, spares, externalDatabase, heartbeatMillis, timeoutMillis, relaunch,
                    null);
        }
    }

    public static ManagedLab start(Options o) throws IOException, InterruptedException {
        Path runDir = o.runDir().toAbsolutePath();
        Files.createDirectories(runDir.resolve("rm"));
        Files.deleteIfExists(runDir.resolve(ManagerEndpoint.FILE));
        LabFile description = LabFile.of(o);
        description.write(runDir);
        // Jcmd's option: the manager runs diagnostic commands in replicas (a forced gc, event dumps) without a jcmd
        List<String> cmd = ChildJvm.command(ManagerEndpoint.MAIN_CLASS, "-Xmx256m", "-Djava.net.preferIPv4Stack=true",
                Jcmd.JVM_OPTION);
        cmd.addAll(List.of("--run-dir", runDir.toString(),
                "--server-dir", o.serverDir().toAbsolutePath().toString(),
                "--replicas", Integer.toString(o.replicas()), "--spares", Integer.toString(o.spares()),
                "--heartbeat-ms", Long.toString(o.heartbeatMillis()),
                "--timeout-ms", Long.toString(o.timeoutMillis()), "--observe", o.observe().wireName()));
        if (!o.relaunch()) {
            cmd.add("--no-relaunch");
        }
        if (!o.requestLog()) {
            cmd.add("--no-request-log");
        }
        if (o.wildflyCluster()) {
            cmd.add("--wildfly-cluster");
        }
        if (o.databaseTier().replicated()) {
            cmd.addAll(List.of("--database", o.databaseTier().wireName()));
        }
        if (o.hostsFile() != null) {
            cmd.addAll(List.of("--hosts", o.hostsFile().toAbsolutePath().toString()));
        }
        if (o.network() != null) {
            cmd.addAll(List.of("--network", runDir.resolve(NetworkLayout.FILE).toString()));
        }
        if (o.managers() > 1) {
            return startGroup(o, runDir, cmd, description);
        }
        if (o.network() != null) {
            // the manager (and the detector it starts) on the manager's host
            cmd = new ArrayList<>(VirtualNetwork.attach(o.network())
                    .placement(NetworkLayout.MANAGER_HOST).wrap(cmd));
        }
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(runDir.resolve("rm/console.log").toFile());
        if (o.externalDatabase() != null) {
            cmd.addAll(List.of("--db-url", o.externalDatabase().jdbcUrl(), "--db-user", o.externalDatabase().user()));
            pb.command(cmd);
            pb.environment().put("FTLAB_DB_PASSWORD", o.externalDatabase().password());
        }
        Process p = pb.start();
        OrphanGuard guard = OrphanGuard.watch(p.pid());
        Path ready = runDir.resolve(ManagerEndpoint.FILE);
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (!Files.exists(ready)) {
            if (!p.isAlive() || System.nanoTime() > deadline) {
                ProcessTools.terminate(p.toHandle(), STOP_GRACE);
                guard.close();
                throw new IOException(lastLine(runDir.resolve("rm/console.log"), p.isAlive()));
            }
            Thread.sleep(50);
        }
        return new ManagedLab(p, guard, ManagerClient.forRun(runDir), ApplicationUser.load(runDir), runDir,
                description);
    }

    /**
     * A lab kept by {@code o.managers()} managers: each its own process with the same command {@code cmd}, a member
     * id, every member's addresses and the token they share; this JVM owns the lab (its processes die with it). Ready
     * once the first leader has started the lab and written {@code rm.json}.
     */
    private static ManagedLab startGroup(Options o, Path runDir, List<String> cmd, LabFile description)
            throws IOException, InterruptedException {
        if (o.hostsFile() != null || o.wildflyCluster() || o.databaseTier().replicated()) {
            throw new IllegalArgumentException("--managers " + o.managers() + " runs on this machine or its virtual "
                    + "network with one database server and ftlab's own replication; leave out --hosts, "
                    + "--wildfly-cluster and --database " + o.databaseTier().wireName());
        }
        // on a virtual network each member on a host of its own (m1, m2, …: a member can be cut off from the others),
        // the detector on the manager's host (rm)
        List<Placement> hosts = new ArrayList<>();
        for (int i = 1; i <= o.managers(); i++) {
            hosts.add(o.network() == null ? Placement.LOCAL : VirtualNetwork.attach(o.network()).addHost("m" + i));
        }
        List<String> members = new ArrayList<>();
        for (int i = 1; i <= o.managers(); i++) {
            String address = o.network() == null ? "127.0.0.1" : hosts.get(i - 1).address();
            members.add("m" + i + "=" + address + ":" + FreePorts.findFreePortPair() + ":" + FreePorts.findFreePort());
        }
        byte[] secret = new byte[24];
        new SecureRandom().nextBytes(secret);
        String token = Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
        Map<String, ProcessBuilder> commands = new LinkedHashMap<>();
        for (int i = 1; i <= o.managers(); i++) {
            List<String> member = new ArrayList<>(cmd);
            member.addAll(List.of("--member", "m" + i, "--members", String.join(",", members),
                    "--lab-owner", Long.toString(ProcessHandle.current().pid())));
            member = new ArrayList<>(hosts.get(i - 1).wrap(member));
            ProcessBuilder pb = new ProcessBuilder(member);
            pb.environment().put(ManagerEndpoint.TOKEN_ENV, token); // not on the command line, where ps shows it
            if (o.externalDatabase() != null) {
                pb.environment().put("FTLAB_DB_PASSWORD", o.externalDatabase().password());
            }
            commands.put("m" + i, pb);
        }
        ManagerProcesses group = ManagerProcesses.start(runDir, commands);
        Path ready = runDir.resolve(ManagerEndpoint.FILE);
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (!Files.exists(ready)) {
            String gone = group.exitedMember();
            if (gone != null || System.nanoTime() > deadline) {
                group.close(STOP_GRACE);
                throw new IOException(lastLine(group.console(gone == null ? "m1" : gone), gone == null));
            }
            Thread.sleep(50);
        }
        return new ManagedLab(group.first(), null, group, ManagerClient.forRun(runDir), ApplicationUser.load(runDir),
                runDir, description);
    }

    /**
     * The running lab in {@code labDir} (started by {@code ftlab lab}), which {@link #close()} leaves running.
     *
     * @throws IllegalArgumentException if no lab runs there, with how to start one
     */
    public static ManagedLab attach(Path labDir) throws IOException {
        Path dir = labDir.toAbsolutePath().normalize();
        Optional<LabFile> description = LabFile.read(dir);
        if (description.isEmpty() || !Files.exists(dir.resolve(ManagerEndpoint.FILE))) {
            throw new IllegalArgumentException("--lab " + labDir + ": no lab there; start one with 'ftlab lab --out "
                    + labDir + "' and keep it running");
        }
        ManagerClient manager = ManagerClient.forRun(dir);
        try {
            manager.status();
        } catch (IOException e) {
            throw new IllegalArgumentException("--lab " + labDir + ": its lab does not answer (stopped?); start one "
                    + "with 'ftlab lab --out " + labDir + "'");
        }
        return new ManagedLab(null, null, manager, ApplicationUser.load(dir), dir, description.get());
    }

    /**
     * Keeps, in {@code runDir}, the Fault Detector's log lines of a run on this lab from {@code sinceEpochUs} on (each
     * line starts with its epoch µs): a run directory holds its run's detector log whether or not it started the lab.
     * Appends (a resumed run adds its segment); a log that cannot be copied is reported on stderr, not fatal.
     */
    public void keepDetectorLog(Path runDir, long sinceEpochUs) {
        Path from = runDir().resolve(DETECTOR_LOG);
        if (runDir.toAbsolutePath().normalize().equals(runDir()) || !Files.exists(from)) {
            return;
        }
        try {
            List<String> lines = Files.readAllLines(from, StandardCharsets.UTF_8).stream()
                    .filter(l -> epochUsOf(l) >= sinceEpochUs).toList();
            Path to = runDir.resolve(DETECTOR_LOG);
            Files.createDirectories(to.getParent());
            Files.write(to, lines, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            System.err.println("ftlab: the detector log of the run was not kept: " + e.getMessage());
        }
    }

    private static long epochUsOf(String line) {
        int space = line.indexOf(' ');
        try {
            return Long.parseLong(space < 0 ? line : line.substring(0, space));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** What the lab was started with. */
    public LabFile description() {
        return description;
    }

    /** Whether this JVM started the lab (and {@link #close()} stops it). */
    public boolean owned() {
        return process != null;
    }

    private static String lastLine(Path console, boolean timedOut) throws IOException {
        String out = Files.exists(console) ? Files.readString(console, StandardCharsets.UTF_8) : "";
        String last = out.lines().filter(l -> !l.isBlank()).reduce((a, b) -> b).orElse("no output");
        return (timedOut ? "the lab did not start in time: " : "")
                + last.replaceFirst("^replication-manager: ", "") + " (log: " + console + ")";
    }

    public ManagerClient manager() {
        return manager;
    }

    /**
     * Waits until the view has its replication degree and, while {@code sparesCanWait} holds, the spare pool is
     * full; or until {@code going} turns false. Returns whether the spare pool was full.
     */
    public boolean awaitFullStrength(BooleanSupplier going, BooleanSupplier sparesCanWait) throws IOException,
            InterruptedException {
        while (going.getAsBoolean()) {
            ManagerStatus s = manager.status();
            if (s.fullStrength() || s.fullDegree() && !sparesCanWait.getAsBoolean()) {
                return s.fullStrength();
            }
            Thread.sleep(50);
        }
        return false;
    }

    /**
     * Waits until the view has its replication degree and, while {@code spareCanWait} holds, a spare is ready to
     * restore it at once (if the lab keeps spares); or until {@code going} turns false. Returns whether a spare was
     * ready.
     */
    public boolean awaitReadyForFault(BooleanSupplier going, BooleanSupplier spareCanWait) throws IOException,
            InterruptedException {
        while (going.getAsBoolean()) {
            ManagerStatus s = manager.status();
            boolean spare = !s.spares().isEmpty() || s.targetSpares() == 0;
            if (s.fullDegree() && (spare || !spareCanWait.getAsBoolean())) {
                return spare;
            }
            Thread.sleep(50);
        }
        return false;
    }

    public ApplicationUser user() {
        return user;
    }

    public Path runDir() {
        return runDir;
    }

    /** The manager's process id (a lab this JVM started). */
    public long pid() {
        return process.pid();
    }

    /** Stops a lab this JVM started; leaves an attached one running. */
    @Override
    public void close() {
        if (managers != null) {
            managers.close(STOP_GRACE);
            return;
        }
        if (process != null) {
            ProcessTools.terminate(process.toHandle(), STOP_GRACE);
            guard.close();
        }
    }
}
