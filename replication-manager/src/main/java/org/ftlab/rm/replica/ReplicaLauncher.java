package org.ftlab.rm.replica;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;
import org.ftlab.auction.api.ReplicaProperties;
import org.ftlab.os.AtomicFiles;
import org.ftlab.os.FlightRecording;
import org.ftlab.os.FreePorts;
import org.ftlab.os.InlinedCode;
import org.ftlab.os.OrphanGuard;
import org.ftlab.os.Placement;
import org.ftlab.os.SshHost;
import org.ftlab.os.access.ApplicationUser;
import org.ftlab.rm.api.ReplicaServer;
import org.ftlab.rm.db.DatabaseServer;
import org.wildfly.core.launcher.Launcher;
import org.wildfly.core.launcher.StandaloneCommandBuilder;

/**
 * Starts replicas from the provisioned server ({@code app-ejb/target/server}). Each replica gets its own base
 * directory under {@code <runDir>/replicas/<name>/} (configuration and deployment copied from the provisioned
 * server), its own port offset, the run's application user, and the database endpoint as system properties.
 */
public final class ReplicaLauncher {
    private final Path serverHome;
    private final Path replicasDir;
    private final DatabaseServer database;
    private final ApplicationUser user;
    private final String maxHeap;
    private final HeartbeatSettings heartbeat;
    private final boolean requestLog;
    private final int warmRounds;
    /** ftlab's JDK Flight Recorder settings file, or null: replicas record no events. */
    private final Path eventSettings;
    /** The request path's share of the JIT's compile thresholds ({@link RequestPath#JIT_SCALING_ENV}; 1: as is). */
    private final double jitScaling;
    /**
     * Null, or WildFly's clustering: the directory where members announce themselves (JGroups' FILE_PING) and the
     * cluster's name, one per lab.
     */
    private final Path clusterDir;
    private final String clusterName;
    private static final Path NICE = Path.of("/usr/bin/nice");
    /** The machines this launcher has made sure hold the provisioned server. */
    private final Set<SshHost> serverMirrored = new HashSet<>();

    /**
     * {@code heartbeat} null: replicas join no heartbeat group (no Fault Detector in this lab); {@code requestLog}
     * false: replicas run without the request log (the exactly-once exercise); {@code warmRounds}: the rounds of each
     * replica's own warm-up at deployment; {@code eventSettings}: a JDK Flight Recorder settings file every replica
     * on this machine records with, from its start, into its directory's {@code jfr/} (null: none);
     * {@code jitScaling}: the request path's share of the JIT's compile thresholds in replicas that compile at C2
     * ({@link RequestPath#jitOptions}; 1: as the JVM's); {@code wildflyCluster}: {@code serverHome} has WildFly's
     * high-availability subsystems and the replicas form one cluster, found through files in the run directory's
     * {@code cluster/}.
     */
    public ReplicaLauncher(Path serverHome, Path runDir, DatabaseServer database, ApplicationUser user,
            String maxHeap, HeartbeatSettings heartbeat, boolean requestLog, int warmRounds, Path eventSettings,
            double jitScaling, boolean wildflyCluster) {
        this.clusterDir = wildflyCluster ? runDir.toAbsolutePath().resolve("cluster") : null;
        this.clusterName = "ftlab-" + UUID.randomUUID().toString().substring(0, 8);
        RequestPath.jitOptions(jitScaling); // validated here
        this.eventSettings = eventSettings;
        this.jitScaling = jitScaling;
        this.heartbeat = heartbeat;
        this.requestLog = requestLog;
        this.warmRounds = warmRounds;
        this.serverHome = serverHome.toAbsolutePath();
        this.replicasDir = runDir.toAbsolutePath().resolve("replicas");
        this.database = database;
        this.user = user;
        this.maxHeap = maxHeap;
    }

    /** Launches the server process and returns at once; call {@link Replica#awaitReady} before using it. */
    public Replica launch(String name) throws IOException {
        return launch(name, 0);
    }

    /**
     * As {@link #launch(String)}, with the process started at the given nice value (0: as the caller). A replacement
     * replica boots while the service runs on the same cores; at a higher nice value its boot yields the CPU to the
     * primary and the database instead of slowing the very requests it is meant to protect.
     */
    public Replica launch(String name, int niceness) throws IOException {
        return launch(name, niceness, Placement.LOCAL);
    }

    /** As {@link #launch(String, int)}, on host {@code placement} (its network namespace and address). */
    public Replica launch(String name, int niceness, Placement placement) throws IOException {
        return launch(name, niceness, placement, false);
    }

    /**
     * As {@link #launch(String, int, Placement)}; {@code suspended}: the server starts suspended (WildFly's
     * {@code --start-mode=suspend}: deployed, its own warm-up at deployment run, but serving nobody until resumed
     * with {@link Suspension#resume}).
     */
    public Replica launch(String name, int niceness, Placement placement, boolean suspended) throws IOException {
        ReplicaServer.checkProvisioned(serverHome);
        Path baseDir = replicasDir.resolve(name);
        prepareBaseDir(baseDir);
        if (placement.isRemote()) {
            // one copy at a time (replicas boot side by side at a lab's start): each marks the directory it reads,
            // and a launch for a host whose copy is under way waits for it instead of starting without the server
            synchronized (serverMirrored) {
                if (!serverMirrored.contains(placement.ssh())) {
                    placement.ssh().mirror(serverHome); // found there, or copied once; then not looked at again
                    serverMirrored.add(placement.ssh());
                }
            }
        }
        int offset = FreePorts.reservePortOffset(100);
        Path props;
        try {
            props = writeSystemProperties(baseDir, name, placement.address(),
                    !placement.isRemote() && !database.placement().isRemote() ? database.pid().orElse(-1) : -1);
        } catch (IOException e) {
            FreePorts.releasePortOffset(offset);
            throw e;
        }

        StandaloneCommandBuilder cmd = StandaloneCommandBuilder.of(serverHome)
                .setBaseDirectory(baseDir)
                .setJavaHome(System.getProperty("java.home"))
                // Transparent huge pages for the heap: a killed replica's memory is torn down in 2 MB pages
                // instead of 4 KB ones, and its sockets close (the crash becomes visible) only after that.
                .addJavaOptions("-Xms128m", "-Xmx" + maxHeap, "-XX:MetaspaceSize=96m", "-XX:+UseTransparentHugePages",
                        "-Djava.net.preferIPv4Stack=true", "-Djboss.node.name=" + name,
                        "-Djboss.tx.node.id=" + name,
                        "-Djboss.socket.binding.port-offset=" + offset);
        String extra = System.getenv("FTLAB_REPLICA_JAVA_OPTS");
        List<String> extraOptions = extra == null || extra.isBlank() ? List.of()
                : List.of(extra.trim().replace("{name}", name).split("\\s+"));
        Path repository = baseDir.resolve(Replica.EVENT_REPOSITORY);
        boolean c2 = compilesAtC2(extraOptions);
        if (eventSettings != null && !placement.isRemote()) {
            cmd.addJavaOptions(FlightRecording.jvmOptions(eventSettings, repository).toArray(String[]::new));
        } else if (!placement.isRemote() && FlightRecording.canHoldRepository(repository)) {
            cmd.addJavaOptions(FlightRecording.repositoryOption(repository));
        }
        // What its compilers inline, for the manager's count of what runs at the top tier (docs/architecture.md,
        // "hot"): in JVMs that compile at C2 (C1 inlines nothing that counts), recorded from its start. A recording
        // started later would deoptimize all its compiled code in a JVM without events, and in any JVM would miss
        // what the boot's warm-up inlined: its code cache then holds methods at the top tier inside compilations
        // that cannot be counted (measured: promoted replicas read at 64-66% instead of 83-93%).
        boolean recordsInlining = !placement.isRemote() && FlightRecording.canHoldRepository(repository)
                && FlightRecording.canHoldRepository(baseDir.getParent()) && c2;
        if (recordsInlining) {
            try {
                cmd.addJavaOptions(InlinedCode.jvmOptions(baseDir.getParent()).toArray(String[]::new));
            } catch (IOException e) {
                FreePorts.releasePortOffset(offset);
                throw e;
            }
        }
        if (c2) {
            // the request path compiled at the top tier after fewer calls, where the lab asks for it
            cmd.addJavaOptions(RequestPath.jitOptions(jitScaling).toArray(String[]::new));
        }
        if (!extraOptions.isEmpty()) {
            // For profiling a replica (e.g. -XX:StartFlightRecording=...); see docs/performance.md.
            cmd.addJavaOptions(extraOptions.toArray(String[]::new));
        }
        if (suspended) {
            cmd.setStartSuspended();
        }
        cmd.setBindAddressHint(placement.address());
        cmd.setBindAddressHint("management", placement.address());
        cmd.addPropertiesFile(props);
        if (placement.isRemote()) {
            placement.ssh().mirror(baseDir);
        }

        long launched = System.nanoTime();
        Process process;
        try {
            boolean nice = niceness > 0 && Files.isExecutable(NICE);
            if (nice || !placement.isLocal()) {
                // nice(1) and nsenter exec the server: the process (and its pid) is the JVM's, every thread at
                // this nice value, in the host's network namespace (or on its machine, started by ssh).
                List<String> command = new ArrayList<>();
                if (nice || placement.isRemote() && niceness > 0) {
                    command.addAll(List.of(NICE.toString(), "-n", Integer.toString(niceness)));
                }
                List<String> server = new ArrayList<>(cmd.build());
                if (placement.isRemote()) {
                    server.set(0, placement.ssh().java()); // the JDK there
                }
                command.addAll(server);
                process = new ProcessBuilder(placement.wrap(command)).redirectErrorStream(true)
                        .redirectOutput(baseDir.resolve("console.log").toFile()).directory(baseDir.toFile()).start();
            } else {
                process = Launcher.of(cmd)
                        .setRedirectErrorStream(true)
                        .redirectOutput(baseDir.resolve("console.log"))
                        .setDirectory(baseDir)
                        .launch();
            }
        } catch (IOException e) {
            FreePorts.releasePortOffset(offset);
            throw new IOException("cannot start replica " + name + ": " + e.getMessage(), e);
        }
        long pid = process.pid();
        if (placement.isRemote()) {
            try {
                pid = placement.ssh().remotePid(process, baseDir.resolve("console.log"));
            } catch (IOException | InterruptedException e) {
                FreePorts.releasePortOffset(offset);
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                throw new IOException("cannot start replica " + name + ": " + e.getMessage(), e);
            }
        }
        return new Replica(name, placement, pid, offset, baseDir, process, OrphanGuard.watch(process.pid()),
                launched, recordsInlining, c2);
    }

    /**
     * Whether a JVM given {@code options} compiles at C2: not interpreted only ({@code -Xint}) and not capped at a C1
     * tier ({@code -XX:TieredStopAtLevel} below 4; the last one given counts).
     */
    static boolean compilesAtC2(List<String> options) {
        boolean c2 = true;
        for (String o : options) {
            if (o.equals("-Xint")) {
                c2 = false;
            } else if (o.startsWith("-XX:TieredStopAtLevel=")) {
                try {
                    c2 = Integer.parseInt(o.substring("-XX:TieredStopAtLevel=".length())) >= 4;
                } catch (NumberFormatException e) {
                    c2 = true; // the JVM refuses the option and does not start: nothing to decide here
                }
            }
        }
        return c2;
    }

    private void prepareBaseDir(Path baseDir) throws IOException {
        for (String sub : new String[] {"configuration", "deployments", "data", "tmp", "log"}) {
            deleteRecursively(baseDir.resolve(sub));
        }
        Files.deleteIfExists(baseDir.resolve("console.log"));
        Path standalone = serverHome.resolve("standalone");
        copyTree(standalone.resolve("configuration"), baseDir.resolve("configuration"));
        Files.createDirectories(baseDir.resolve("deployments"));
        Files.copy(standalone.resolve("deployments/app-ejb.war"), baseDir.resolve("deployments/app-ejb.war"),
                StandardCopyOption.REPLACE_EXISTING);
        user.installInto(baseDir.resolve("configuration"));
        // the manager empties its connection pool at a database fail-over, and in WildFly's cluster suspends and
        // resumes it
        user.installManagementInto(baseDir.resolve("configuration"));
    }

    /** The database password goes in a mode-600 file passed with -P, not on the command line where ps shows it. */
    private Path writeSystemProperties(Path baseDir, String name, String address, long databasePid)
            throws IOException {
        Properties p = new Properties();
        p.setProperty("ftlab.db.url", database.endpoint().jdbcUrl());
        p.setProperty("ftlab.db.user", database.endpoint().user());
        p.setProperty("ftlab.db.password", database.endpoint().password());
        p.setProperty("ftlab.hibernate.dialect", database.flavor().hibernateDialect());
        p.setProperty("ftlab.replica.name", name);
        if (!requestLog) {
            p.setProperty(ReplicaProperties.REQUEST_LOG, "off");
        }
        p.setProperty(ReplicaProperties.WARM_ROUNDS, Integer.toString(warmRounds));
        if (eventSettings != null) {
            p.setProperty(ReplicaProperties.OBSERVE, "on");
        }
        if (databasePid > 0) {
            p.setProperty(ReplicaProperties.DB_PID, Long.toString(databasePid)); // the same machine's kernel
        }
        if (clusterDir != null) {
            Files.createDirectories(clusterDir);
            p.setProperty("ftlab.cluster.dir", clusterDir.toString());
            p.setProperty("ftlab.cluster.name", clusterName);
            p.setProperty("jboss.bind.address.private", address); // JGroups' sockets, where the replica's host is
            p.setProperty("java.net.preferIPv4Stack", "true");
        }
        if (heartbeat != null) {
            p.setProperty("ftlab.hb.bind_port", Integer.toString(FreePorts.findFreePortPair()));
            p.setProperty("ftlab.hb.bind_addr", address);
            p.setProperty("ftlab.hb.initial_hosts", heartbeat.initialHosts());
            p.setProperty("ftlab.hb.interval_ms", Long.toString(heartbeat.heartbeatMillis()));
            p.setProperty("ftlab.hb.timeout_ms", Long.toString(heartbeat.timeoutMillis()));
            p.setProperty("java.net.preferIPv4Stack", "true");
        }
        Path file = baseDir.resolve("configuration/ftlab-replica.properties");
        AtomicFiles.writePrivate(file, p, "system properties of replica " + name);
        return file;
    }

    private static void copyTree(Path from, Path to) throws IOException {
        Files.walkFileTree(from, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                Files.createDirectories(to.resolve(from.relativize(dir).toString()));
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.copy(file, to.resolve(from.relativize(file).toString()), StandardCopyOption.REPLACE_EXISTING);
                return FileVisitResult.CONTINUE;
            }
        });
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
