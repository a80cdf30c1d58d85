package org.ftlab.rm;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.ftlab.fd.ProcessLog;
import org.ftlab.os.AtomicFiles;
import org.ftlab.os.OrphanGuard;
import org.ftlab.os.access.DatabaseEndpoint;
import org.ftlab.os.net.Hosts;
import org.ftlab.os.net.VirtualNetwork;
import org.ftlab.rm.api.DatabaseTier;
import org.ftlab.rm.api.ManagerEndpoint;
import org.ftlab.rm.api.NetworkLayout;
import org.ftlab.rm.api.Observe;
import org.ftlab.rm.consensus.NotLeaderException;
import org.ftlab.rm.consensus.RaftState;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * The Replication Manager process. Started by {@code ftlab} (not by hand): it starts the Fault Detector, the database
 * and the replicas, then serves its HTTP interface until SIGTERM or {@code POST /shutdown}. Once ready it writes
 * {@code <run>/rm.json} ({@code url}, {@code pid}, {@code token}; mode 600) and prints
 * {@code replication-manager ready <url>}.
 */
@Command(name = "replication-manager", mixinStandardHelpOptions = true)
public final class ReplicationManagerMain implements Callable<Integer> {
    private static final Logger LOG = Logger.getLogger(ReplicationManagerMain.class.getName());


    @Option(names = "--run-dir", required = true)
    Path runDir;

    @Option(names = "--server-dir", required = true)
    Path serverDir;

    @Option(names = "--replicas", defaultValue = "2")
    int replicas;

    @Option(names = "--spares", defaultValue = "1")
    int spares;

    /**
     * Rounds of every operation a booted replica runs before it joins (docs/performance.md), after as many rounds of
     * its database paths in itself at deployment; the environment's
     * {@value ReplicaWarmer#ROUNDS_ENV} when set (a test suite that boots many replicas and measures none).
     */
    @Option(names = "--warm-rounds", defaultValue = "${env:" + ReplicaWarmer.ROUNDS_ENV + ":-"
            + ReplicaWarmer.DEFAULT_BOOT_ROUNDS + "}")
    int warmRounds;

    /**
     * Rounds per second on every backup and spare, to keep them warm; the environment's {@value
     * ReplicaWarmer#RATE_ENV} when set (a test suite whose labs sit idle between its tests).
     */
    @Option(names = "--warm-rate", defaultValue = "${env:" + ReplicaWarmer.RATE_ENV + ":-"
            + ReplicaWarmer.DEFAULT_ROUNDS_PER_SECOND + "}")
    double warmRate;

    /**
     * At the lab's start, boot the replicas and spares side by side (default: one after another); the environment's
     * {@value #BOOT_TOGETHER_ENV} when set (the test suite's labs, whose replicas stop at C1 and warm up briefly).
     */
    @Option(names = "--boot-together", defaultValue = "${env:" + BOOT_TOGETHER_ENV + ":-false}")
    boolean bootTogether;

    /** The environment variable that makes every lab started where it is set boot its replicas side by side. */
    static final String BOOT_TOGETHER_ENV = "FTLAB_BOOT_TOGETHER";

    /**
     * Rounds per second on a backup or spare that is not hot yet (0: as {@code --warm-rate}); the environment's
     * {@value ReplicaWarmer#HOT_RATE_ENV} when set.
     */
    @Option(names = "--warm-to-hot-rate", defaultValue = "${env:" + ReplicaWarmer.HOT_RATE_ENV + ":-"
            + ReplicaWarmer.DEFAULT_HOT_ROUNDS_PER_SECOND + "}")
    double hotWarmRate;

    /**
     * Whether a booting replica that compiles at C2 gets more warm-up rounds until its JIT has settled (its request
     * path's methods at the top tier no longer growing); the environment's
     * {@value ReplicaWarmer#SETTLE_ENV} when set.
     */
    @Option(names = "--warm-until-settled", arity = "1", defaultValue = "${env:" + ReplicaWarmer.SETTLE_ENV
            + ":-false}")
    boolean warmUntilSettled;

    /**
     * Whether every JVM of the lab records JDK Flight Recorder events for the analysis (docs/analysis.md); the
     * environment's {@value Observe#ENV} when set.
     */
    @Option(names = "--observe", defaultValue = "${env:" + Observe.ENV + ":-on}", converter = ObserveConverter.class)
    Observe observe;

    @Option(names = "--heartbeat-ms", defaultValue = "100")
    long heartbeatMillis;

    @Option(names = "--timeout-ms", defaultValue = "500")
    long timeoutMillis;

    @Option(names = "--no-relaunch", description = "Do not relaunch failed replicas.")
    boolean noRelaunch;

    @Option(names = "--no-request-log", description = "Replicas run without the request log: every copy of a "
            + "request runs again (the exactly-once exercise, docs/labs/).")
    boolean noRequestLog;

    @Option(names = "--network", description = "The lab's virtual network (network.json); this process runs on its "
            + "manager host and puts the database and every replica on hosts of their own.")
    Path network;

    @Option(names = "--hosts", description = "The other machines (a hosts file, docs/running.md): the database and "
            + "the replicas run there, started over SSH; this process, the Fault Detector and the clients run here.")
    Path hosts;

    @Option(names = "--wildfly-cluster", description = "The replicas run WildFly's high-availability server and "
            + "form one cluster (the baseline strategy wildfly-cluster); no spares.")
    boolean wildflyCluster;

    @Option(names = "--database", defaultValue = "single", converter = DatabaseTierConverter.class,
            description = "The database tier: single (default), or semisync[:N], async[:N], galera[:N] (docs/running.md).")
    DatabaseTier databaseTier;

    @Option(names = "--db-url")
    String dbUrl;

    @Option(names = "--db-user")
    String dbUser;

    /** Read from the environment variable FTLAB_DB_PASSWORD, never from the command line (ps shows it). */
    private static final String DB_PASSWORD_ENV = "FTLAB_DB_PASSWORD";

    /**
     * A lab of several managers: this one's id (m1, m2, …).
     */
    @Option(names = "--member", defaultValue = ReplicationManager.MANAGER_ID)
    String member;

    /**
     * A lab of several managers: every member as {@code ID=ADDRESS:RAFT_PORT:HTTP_PORT}, comma-separated, this one's
     * included (its Raft group uses RAFT_PORT and the next port; its HTTP door HTTP_PORT).
     */
    @Option(names = "--members", split = ",", converter = MemberConverter.class)
    List<ManagerMember> members = List.of();

    /**
     * The process that owns the lab (the {@code ftlab} command that started the managers): the lab's processes die
     * with it, not with the manager that launched them.
     */
    @Option(names = "--lab-owner")
    Long labOwner;


    /** A member of a lab of several managers. */
    record ManagerMember(String id, String address, int raftPort, int httpPort) {
        String url() {
            return "http://" + address + ":" + httpPort;
        }
    }

    @Override
    public Integer call() throws Exception {
        if (members.size() > 1) {
            return callAsMember();
        }
        ProcessLog.to(runDir.resolve("rm/manager.log"));
        String token = newToken();
        VirtualNetwork net = network == null ? null : VirtualNetwork.attach(
                new ObjectMapper().readValue(network.toFile(), NetworkLayout.class));
        ManagerHttpApi api = net == null ? ManagerHttpApi.bind(0, token)
                : ManagerHttpApi.bind(net.placement(NetworkLayout.MANAGER_HOST).address(), 0, token);
        DatabaseEndpoint external = dbUrl == null ? null
                : new DatabaseEndpoint(dbUrl, dbUser, System.getenv(DB_PASSWORD_ENV));
        ReplicationManager.Settings settings = settings(net, runDir.resolve("rm"));
        ReplicationManager rm;
        try {
            rm = ReplicationManager.start(settings, ReplicationManager.alone(settings), api.url(), token);
        } catch (Exception e) {
            api.close();
            throw e;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runnable stop = () -> {
            try {
                Files.deleteIfExists(runDir.resolve(ManagerEndpoint.FILE)); // the lab is no longer running
            } catch (IOException e) {
                // 'ftlab status' then reports that the manager does not answer, which is also true
            }
            rm.close();
            api.close();
            stopped.countDown();
        };
        api.attach(rm, () -> {
            stop.run();
            System.exit(0);
        });
        Runtime.getRuntime().addShutdownHook(new Thread(stop, "rm-stop"));
        writeReadyFile(api.url(), token);
        System.out.println("replication-manager ready " + api.url());
        System.out.flush();
        stopped.await();
        return 0;
    }

    private ReplicationManager.Settings settings(VirtualNetwork net, Path managerDir) throws IOException {
        DatabaseEndpoint external = dbUrl == null ? null
                : new DatabaseEndpoint(dbUrl, dbUser, System.getenv(DB_PASSWORD_ENV));
        return new ReplicationManager.Settings(new LocalLab.Options(runDir, serverDir, external, null, null, net,
                hosts == null ? null : Hosts.read(hosts), !noRequestLog, warmRounds, observe.on(), wildflyCluster,
                databaseTier), replicas, spares, heartbeatMillis, timeoutMillis, !noRelaunch, warmRounds, warmRate,
                hotWarmRate, warmUntilSettled, bootTogether, managerDir);
    }

    /**
     * One member of a lab of several managers: it joins their Raft group and serves its door; while another leads it
     * answers with the leader's address; when it leads, it starts the lab (the first leader) or takes it over, and acts
     * until it no longer leads (then it lets go of the lab and follows again) or the lab stops.
     */
    private int callAsMember() throws Exception {
        ManagerMember self = members.stream().filter(m -> m.id().equals(member)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("--member " + member + " is not in --members"));
        if (labOwner == null) {
            throw new IllegalArgumentException("a lab of several managers needs --lab-owner PID");
        }
        if (hosts != null || wildflyCluster || databaseTier.replicated()) {
            throw new IllegalArgumentException("a lab of several managers runs on this machine or its virtual "
                    + "network, with one database server and ftlab's own replication (not --hosts, "
                    + "--wildfly-cluster or --database " + databaseTier.wireName() + " yet)");
        }
        Path memberDir = runDir.resolve("rm").resolve(member);
        Files.createDirectories(memberDir);
        ProcessLog.to(memberDir.resolve("manager.log"));
        OrphanGuard.belongToLabOf(labOwner);
        String token = System.getenv(ManagerEndpoint.TOKEN_ENV);
        if (token == null || token.isBlank()) {
            throw new IllegalArgumentException("a lab of several managers shares one token: set " + ManagerEndpoint.TOKEN_ENV);
        }
        VirtualNetwork net = network == null ? null : VirtualNetwork.attach(
                new ObjectMapper().readValue(network.toFile(), NetworkLayout.class));
        ManagerHttpApi api = ManagerHttpApi.bind(self.address(), self.httpPort(), token);
        api.follow(() -> null); // 503 until this member has joined the group: a caller asks the others meanwhile
        List<RaftState.Member> group = members.stream()
                .map(m -> new RaftState.Member(m.id(), m.address(), m.raftPort())).toList();
        RaftState<ViewKeeper> state = RaftState.join(new RaftState.Settings(member, group, memberDir.resolve("raft"),
                Duration.ofMillis(RAFT_HEARTBEAT_MS), Duration.ofMillis(RAFT_SUSPECT_MS),
                Duration.ofMillis(RAFT_VERIFY_MS), Duration.ofSeconds(3)), new ViewKeeper(replicas),
                ViewCommand.class, ViewCommand.CODEC, "ftlab-managers");
        api.follow(() -> members.stream().filter(m -> m.id().equals(state.leader())).map(ManagerMember::url)
                .findFirst().orElse(null));
        String urls = String.join(",", members.stream().map(ManagerMember::url).toList());
        ReplicationManager.Settings settings = settings(net, memberDir);
        CountDownLatch stopped = new CountDownLatch(1);
        AtomicReference<ReplicationManager> acting = new AtomicReference<>();
        Runnable stop = () -> {
            ReplicationManager rm = acting.getAndSet(null);
            if (rm != null) {
                try {
                    Files.deleteIfExists(runDir.resolve(ManagerEndpoint.FILE)); // the lab is no longer running
                } catch (IOException e) {
                    // 'ftlab status' then reports that the manager does not answer, which is also true
                }
                rm.close(); // the leader stops the lab; a follower leaves it to the leader (or to the lab's owner)
            }
            state.close();
            api.close();
            stopped.countDown();
        };
        Runtime.getRuntime().addShutdownHook(new Thread(stop, "rm-stop"));
        System.out.println("replication-manager member " + member + " at " + self.url());
        System.out.flush();
        boolean prepared = false;
        while (stopped.getCount() > 0) {
            if (!state.leads()) {
                if (!prepared && state.read(ViewKeeper::lab) != null) {
                    prepared = true; // a lab is up that this member may have to take over: get ready, once
                    Thread warm = new Thread(() -> ReplicationManager.prepareToTakeOver(settings), "prepare");
                    warm.setDaemon(true);
                    warm.start();
                }
                Thread.sleep(20);
                continue;
            }
            ReplicationManager rm;
            try {
                rm = ReplicationManager.takeOver(settings, state, urls, token);
            } catch (ReplicationManager.LabStopped e) {
                LOG.info(member + " leads a lab that has been stopped: it leaves");
                stop.run();
                break;
            } catch (IllegalStateException | NotLeaderException e) {
                LOG.warning(member + " could not take over: " + e.getMessage());
                continue;
            }
            acting.set(rm);
            api.attach(rm, () -> {
                stop.run();
                System.exit(0);
            });
            writeReadyFile(self.url(), token, members.stream().map(ManagerMember::url).toList());
            System.out.println("replication-manager ready " + self.url());
            System.out.flush();
            while (state.leads() && stopped.getCount() > 0) {
                Thread.sleep(20);
            }
            if (acting.compareAndSet(rm, null)) {
                api.follow(() -> members.stream().filter(m -> m.id().equals(state.leader()))
                        .map(ManagerMember::url).findFirst().orElse(null));
                rm.stepDown();
            }
        }
        return 0;
    }

    /** The managers' Raft group: heartbeats, suspicion and its verification, ms (docs/running.md). */
    static final long RAFT_HEARTBEAT_MS = 100;
    static final long RAFT_SUSPECT_MS = 500;
    static final long RAFT_VERIFY_MS = 150;

    /** {@code rm.json}: where the manager listens and its token; mode 600, written atomically. */
    private void writeReadyFile(String url, String token) throws IOException {
        writeReadyFile(url, token, List.of(url));
    }

    private void writeReadyFile(String url, String token, List<String> memberUrls) throws IOException {
        ManagerEndpoint ready = new ManagerEndpoint(url, ProcessHandle.current().pid(), token, memberUrls);
        AtomicFiles.writePrivate(runDir.resolve(ManagerEndpoint.FILE), new ObjectMapper().writeValueAsString(ready));
    }

    private static String newToken() {
        byte[] bytes = new byte[24];
        new SecureRandom().nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    public static void main(String[] args) {
        CommandLine cli = new CommandLine(new ReplicationManagerMain());
        cli.setExecutionExceptionHandler((e, cmd, parsed) -> {
            String msg = e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
            LOG.log(Level.SEVERE, "the manager stopped", e);
            // the one line the harness quotes when the lab does not start (the last line of rm/console.log)
            System.out.println("replication-manager: " + msg.lines().findFirst().orElse(msg));
            return 1;
        });
        System.exit(cli.execute(args));
    }

    /** {@code ID=ADDRESS:RAFT_PORT:HTTP_PORT}. */
    static final class MemberConverter implements CommandLine.ITypeConverter<ManagerMember> {
        @Override
        public ManagerMember convert(String value) {
            String[] idAndRest = value.split("=", 2);
            String[] parts = idAndRest.length == 2 ? idAndRest[1].split(":") : new String[0];
            if (parts.length != 3) {
                throw new CommandLine.TypeConversionException("a member is ID=ADDRESS:RAFT_PORT:HTTP_PORT, was '"
                        + value + "'");
            }
            return new ManagerMember(idAndRest[0], parts[0], Integer.parseInt(parts[1]), Integer.parseInt(parts[2]));
        }
    }

    /** {@code --database MODE[:N]}. */
    static final class DatabaseTierConverter implements CommandLine.ITypeConverter<DatabaseTier> {
        @Override
        public DatabaseTier convert(String value) {
            return DatabaseTier.parse(value);
        }
    }

    /** {@code --observe on|off}. */
    static final class ObserveConverter implements CommandLine.ITypeConverter<Observe> {
        @Override
        public Observe convert(String value) {
            return Observe.parse(value);
        }
    }
}
