package org.ftlab.rm;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.ftlab.auction.api.ReplicaProperties;
import org.ftlab.os.FlightRecording;
import org.ftlab.os.GaleraParts;
import org.ftlab.os.OrphanGuard;
import org.ftlab.os.Placement;
import org.ftlab.os.ProcessTools;
import org.ftlab.os.SshHost;
import org.ftlab.os.access.ApplicationUser;
import org.ftlab.os.access.DatabaseEndpoint;
import org.ftlab.os.net.Hosts;
import org.ftlab.os.net.VirtualNetwork;
import org.ftlab.rm.api.DatabaseTier;
import org.ftlab.rm.api.NetworkLayout;
import org.ftlab.rm.api.ReplicaServer;
import org.ftlab.rm.db.AdoptedDatabase;
import org.ftlab.rm.db.DatabaseServer;
import org.ftlab.rm.db.EmbeddedDatabase;
import org.ftlab.rm.db.ExternalDatabase;
import org.ftlab.rm.db.ReplicatedDatabase;
import org.ftlab.rm.replica.HeartbeatSettings;
import org.ftlab.rm.replica.Replica;
import org.ftlab.rm.replica.ReplicaLauncher;
import org.ftlab.rm.replica.RequestPath;

/**
 * The three tiers' server side on this machine: the database (embedded MariaDB, or an external MySQL/MariaDB) and
 * replicas started one after another (on 2 cores, simultaneous WildFly boots slow each other down). The first replica
 * is the primary. {@link #close()} stops everything it started and is safe to call from a shutdown hook, twice.
 */
public final class LocalLab implements AutoCloseable {
    private static final Duration REPLICA_START_TIMEOUT = Duration.ofSeconds(180);

    private final Path runDir;
    private final DatabaseServer database;
    private final ApplicationUser user;
    private final ReplicaLauncher launcher;
    /** The lab's virtual network, or null: every process on this machine's loopback. */
    private final VirtualNetwork network;
    /** The other machines of a {@code --hosts} lab, or null. */
    private final Hosts hosts;
    /** Replicas launched so far: the next one's host among {@link #hosts}'. */
    private final AtomicInteger launches = new AtomicInteger();
    /** The master connection to each of {@link #hosts}, which signals and the like share. */
    private final List<Process> masters;
    private final List<OrphanGuard> masterGuards = new ArrayList<>();
    private final List<Replica> replicas = Collections.synchronizedList(new ArrayList<>());
    private volatile boolean closed;
    /** Whether this manager let go of the lab without stopping it ({@link #release}). */
    private volatile boolean released;

    private LocalLab(Path runDir, DatabaseServer database, ApplicationUser user, ReplicaLauncher launcher,
            VirtualNetwork network, Hosts hosts, List<Process> masters) {
        this.network = network;
        this.hosts = hosts;
        this.masters = masters;
        masters.forEach(m -> masterGuards.add(OrphanGuard.watch(m.pid())));
        this.runDir = runDir;
        this.database = database;
        this.user = user;
        this.launcher = launcher;
    }

    /**
     * Settings of a lab; {@code externalDatabase} null means the embedded default; {@code network} null: every
     * process on this machine's loopback, else each on its own host of that virtual network; {@code hosts} null, or
     * the database and the replicas on those other machines; {@code requestLog} false: replicas run without the
     * request log (every copy of a request runs again), for the exactly-once exercise only; {@code warmRounds}: the
     * rounds of each replica's own warm-up at deployment ({@link ReplicaProperties#WARM_ROUNDS}); {@code observe}:
     * every replica records JDK Flight Recorder events ({@link FlightRecording}; not on other machines);
     * {@code wildflyCluster}: the replicas run the server with WildFly's high-availability subsystems
     * ({@link ReplicaServer#clusterHome}) and form one JGroups cluster, whose members remote EJB clients learn of
     * and call (the baseline strategy {@code wildfly-cluster}); {@code databaseTier}: one embedded server (null too), or
     * several replicated by one of MariaDB's engines, which the manager fails over ({@link ReplicatedDatabase}).
     */
    public record Options(Path runDir, Path serverHome, DatabaseEndpoint externalDatabase, String replicaMaxHeap,
            HeartbeatSettings heartbeat, VirtualNetwork network, Hosts hosts, boolean requestLog, int warmRounds,
            boolean observe, boolean wildflyCluster, DatabaseTier databaseTier) {
        public Options {
            databaseTier = databaseTier == null ? DatabaseTier.SINGLE : databaseTier;
            if (databaseTier.replicated() && externalDatabase != null) {
                throw new IllegalArgumentException("--database " + databaseTier.wireName() + " starts its own "
                        + "servers; leave out --db-url");
            }
            if (databaseTier.replicated() && hosts != null) {
                throw new IllegalArgumentException("--database " + databaseTier.wireName() + " runs its servers on "
                        + "this machine (or its virtual network); leave out --hosts");
            }
            if (databaseTier.mode() == DatabaseTier.Mode.GALERA) {
                GaleraParts.find(); // a missing part is one line with the install command, before anything starts
            }
            if (wildflyCluster && hosts != null) {
                throw new IllegalArgumentException("--wildfly-cluster runs on this machine or its virtual network "
                        + "(members find each other through files in the lab's directory); leave out --hosts");
            }
            replicaMaxHeap = replicaMaxHeap == null ? "512m" : replicaMaxHeap;
            if (warmRounds < 0) {
                throw new IllegalArgumentException("warm rounds must be 0 or more, was " + warmRounds);
            }
            if (network != null && externalDatabase != null) {
                throw new IllegalArgumentException("--topology netns runs the embedded database on a host of its own; "
                        + "leave out --db-url");
            }
            if (hosts != null && (network != null || externalDatabase != null)) {
                throw new IllegalArgumentException("--hosts places the embedded database on its db host; leave out "
                        + "--topology netns and --db-url");
            }
        }

        /** A lab without a heartbeat group, on loopback. */
        public Options(Path runDir, Path serverHome, DatabaseEndpoint externalDatabase, String replicaMaxHeap) {
            this(runDir, serverHome, externalDatabase, replicaMaxHeap, null, null, null, true,
                    ReplicaProperties.DEFAULT_WARM_ROUNDS, false, false, DatabaseTier.SINGLE);
        }

        /** The server the replicas run: the provisioned one, or its high-availability twin. */
        Path replicaServer() {
            return wildflyCluster ? ReplicaServer.clusterHome(serverHome) : serverHome;
        }
    }

    /** Starts the database; replicas are started with {@link #startReplica}. */
    public static LocalLab start(Options options) throws IOException, SQLException {
        ReplicaServer.checkProvisioned(options.replicaServer());
        double jitScaling = RequestPath.jitScalingFromEnvironment(); // a wrong value stops the lab before it starts
        Path runDir = options.runDir().toAbsolutePath();
        Files.createDirectories(runDir);
        ApplicationUser user = ApplicationUser.random();
        user.save(runDir);
        VirtualNetwork net = options.network();
        List<Process> masters = options.hosts() == null ? List.of() : openMasters(options.hosts(), runDir);
        DatabaseServer database;
        if (options.externalDatabase() != null) {
            database = ExternalDatabase.connect(options.externalDatabase());
        } else {
            Placement host = options.hosts() != null ? options.hosts().databaseHost()
                    : net == null ? Placement.LOCAL : net.addHost(NetworkLayout.DATABASE_HOST);
            try {
                database = options.databaseTier().replicated()
                        ? ReplicatedDatabase.start(options.databaseTier(), runDir.resolve("db"), host)
                        : EmbeddedDatabase.start(runDir.resolve("db/data"), host);
            } catch (IOException | SQLException | RuntimeException e) {
                if (net != null) {
                    net.removeHost(NetworkLayout.DATABASE_HOST);
                }
                closeMasters(masters);
                throw e;
            }
        }
        // events are recorded on this machine only: the run directory must be able to hold the files
        Path eventSettings = options.observe() && options.hosts() == null
                ? FlightRecording.settingsFile(runDir.resolve("replicas")) : null;
        ReplicaLauncher launcher = new ReplicaLauncher(options.replicaServer(), runDir, database, user,
                options.replicaMaxHeap(), options.heartbeat(), options.requestLog(), options.warmRounds(),
                eventSettings, jitScaling, options.wildflyCluster());
        return new LocalLab(runDir, database, user, launcher, net, options.hosts(), masters);
    }

    /**
     * The lab an earlier leader started, taken over: its application user and database endpoint from the run
     * directory's private files, the embedded database by its pid ({@code databasePid}, 0 for an external database).
     * Replicas are added as they are adopted ({@link #adopted}). A lab of several managers runs on this machine or
     * its virtual network: {@code --hosts} is not taken over.
     */
    public static LocalLab adopt(Options options, long databasePid) throws IOException, SQLException {
        if (options.hosts() != null) {
            throw new IllegalArgumentException("a lab on other machines (--hosts) has one manager");
        }
        Path runDir = options.runDir().toAbsolutePath();
        ApplicationUser user = ApplicationUser.load(runDir);
        DatabaseServer database;
        if (options.externalDatabase() != null) {
            database = ExternalDatabase.connect(options.externalDatabase());
        } else {
            Placement host = options.network() == null ? Placement.LOCAL
                    : options.network().placement(NetworkLayout.DATABASE_HOST);
            database = AdoptedDatabase.of(DatabaseEndpoint.loadForAudits(runDir), databasePid, host);
        }
        Path eventSettings = options.observe() ? FlightRecording.settingsFile(runDir.resolve("replicas")) : null;
        ReplicaLauncher launcher = new ReplicaLauncher(options.replicaServer(), runDir, database, user,
                options.replicaMaxHeap(), options.heartbeat(), options.requestLog(), options.warmRounds(),
                eventSettings, RequestPath.jitScalingFromEnvironment(), options.wildflyCluster());
        return new LocalLab(runDir, database, user, launcher, options.network(), null, List.of());
    }

    /** A replica an earlier leader launched, now this lab's: {@link #close()} stops it. */
    public void adopted(Replica replica) {
        replicas.add(replica);
    }

    /**
     * Lets go of the lab without stopping anything (a manager that no longer leads): the processes run on for the
     * next leader, and die with the lab's owner if nobody leads again.
     */
    public synchronized void release() {
        released = true;
        closed = true;
    }

    /** One master connection to each machine, opened before anything runs there (it also checks they answer). */
    private static List<Process> openMasters(Hosts hosts, Path runDir) throws IOException {
        Files.createDirectories(runDir.resolve("ssh"));
        List<Process> masters = new ArrayList<>();
        Set<String> opened = new HashSet<>();
        try {
            for (SshHost host : hosts.all()) {
                if (opened.add(host.destination() + ":" + host.port())) {
                    masters.add(host.openMaster(runDir.resolve("ssh/" + host.destination().replaceAll("[^\\w.@-]",
                            "_") + ".log")));
                }
            }
        } catch (IOException e) {
            closeMasters(masters);
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            closeMasters(masters);
            throw new IOException("interrupted while connecting to the hosts", e);
        }
        return masters;
    }

    private static void closeMasters(List<Process> masters) {
        masters.forEach(m -> ProcessTools.terminate(m.toHandle(), Duration.ofSeconds(5)));
    }

    /** Launches a replica named {@code name} and waits until it serves. */
    public Replica startReplica(String name) throws IOException, TimeoutException, InterruptedException {
        return startReplica(name, 0);
    }

    /**
     * The replica hosts take replicas in turn, by the number in the replica's name ({@code r1} the first host, {@code
     * r2} the second, …), so that replicas booted side by side land where they would one after another; a name
     * without a number takes the next turn.
     */
    private int hostIndex(String name) {
        int number = Replica.launchNumber(name);
        return number < 1 ? launches.getAndIncrement() : number - 1;
    }

    /** As {@link #startReplica(String)}, at the given nice value (a replacement booting beside the service). */
    public Replica startReplica(String name, int niceness) throws IOException, TimeoutException,
            InterruptedException {
        return startReplica(name, niceness, false);
    }

    /** As {@link #startReplica(String, int)}; {@code suspended}: WildFly starts suspended (see ReplicaLauncher). */
    public Replica startReplica(String name, int niceness, boolean suspended) throws IOException, TimeoutException,
            InterruptedException {
        return startReplica(name, niceness, suspended, started -> { });
    }

    /**
     * As {@link #startReplica(String, int, boolean)}; {@code started} learns of its process as soon as it runs,
     * before the server is up (the manager records where it runs, for a manager that may lead before it is up).
     */
    public Replica startReplica(String name, int niceness, boolean suspended, Consumer<Replica> started)
            throws IOException, TimeoutException, InterruptedException {
        if (closed) {
            throw new IllegalStateException("lab is closed");
        }
        Placement host = hosts != null ? hosts.replica(hostIndex(name))
                : network == null ? Placement.LOCAL : network.addHost(name);
        Replica replica;
        try {
            replica = launcher.launch(name, niceness, host, suspended);
        } catch (IOException | RuntimeException e) {
            removeHost(name);
            throw e;
        }
        replicas.add(replica);
        try {
            started.accept(replica);
            replica.awaitReady(REPLICA_START_TIMEOUT);
        } catch (IOException | TimeoutException | InterruptedException | RuntimeException e) {
            if (released) {
                throw e; // a manager that no longer leads: the booting replica is the next leader's to judge
            }
            replica.stop();
            replicas.remove(replica);
            removeHost(replica.name());
            throw e;
        }
        return replica;
    }

    /**
     * Forgets a replica that is gone (after a crash); it is no longer stopped by {@link #close()}, and its host is
     * removed from the virtual network.
     */
    public void forget(Replica replica) {
        replicas.remove(replica);
        removeHost(replica.name());
    }

    private void removeHost(String name) {
        if (network != null) {
            network.removeHost(name);
        }
    }

    /** The other machines the database and replicas run on, or null. */
    public Hosts hosts() {
        return hosts;
    }

    /** The lab's virtual network, or null on loopback. */
    public VirtualNetwork network() {
        return network;
    }

    public Path runDir() {
        return runDir;
    }

    public DatabaseServer database() {
        return database;
    }

    public ApplicationUser user() {
        return user;
    }

    /** Replicas in start order; the first is the primary. */
    public List<Replica> replicas() {
        synchronized (replicas) {
            return List.copyOf(replicas);
        }
    }

    public Replica primary() {
        synchronized (replicas) {
            if (replicas.isEmpty()) {
                throw new IllegalStateException("no replica started");
            }
            return replicas.get(0);
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        List<Replica> toStop = replicas();
        // Stop replicas in parallel: each graceful stop can take seconds.
        List<Thread> stoppers = new ArrayList<>();
        for (Replica r : toStop) {
            Thread t = new Thread(r::stop, "stop-" + r.name());
            t.start();
            stoppers.add(t);
        }
        for (Thread t : stoppers) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        database.close();
        closeMasters(masters);
        masterGuards.forEach(OrphanGuard::close);
        if (network != null) {
            toStop.forEach(r -> network.removeHost(r.name()));
            network.removeHost(NetworkLayout.DATABASE_HOST);
        }
    }
}
