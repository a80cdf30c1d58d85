package org.ftlab.rm;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.ftlab.fd.ProcessLog;
import org.ftlab.os.AtomicFiles;
import org.ftlab.os.access.DatabaseEndpoint;
import org.ftlab.os.net.Hosts;
import org.ftlab.os.net.VirtualNetwork;
import org.ftlab.rm.api.DatabaseTier;
import org.ftlab.rm.api.ManagerEndpoint;
import org.ftlab.rm.api.NetworkLayout;
import org.ftlab.rm.api.Observe;
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

    @Override
    public Integer call() throws Exception {
        ProcessLog.to(runDir.resolve("rm/manager.log"));
        String token = newToken();
        VirtualNetwork net = network == null ? null : VirtualNetwork.attach(
                new ObjectMapper().readValue(network.toFile(), NetworkLayout.class));
        ManagerHttpApi api = net == null ? ManagerHttpApi.bind(0, token)
                : ManagerHttpApi.bind(net.placement(NetworkLayout.MANAGER_HOST).address(), 0, token);
        DatabaseEndpoint external = dbUrl == null ? null
                : new DatabaseEndpoint(dbUrl, dbUser, System.getenv(DB_PASSWORD_ENV));
        ReplicationManager.Settings settings = new ReplicationManager.Settings(
                new LocalLab.Options(runDir, serverDir, external, null, null, net,
                        hosts == null ? null : Hosts.read(hosts), !noRequestLog, warmRounds, observe.on(),
                        wildflyCluster, databaseTier), replicas,
                spares,
                        heartbeatMillis,
                timeoutMillis, !noRelaunch, warmRounds, warmRate, hotWarmRate, warmUntilSettled, bootTogether);
        ReplicationManager rm;
        try {
            rm = ReplicationManager.start(settings, api.url(), token);
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

    /** {@code rm.json}: where the manager listens and its token; mode 600, written atomically. */
    private void writeReadyFile(String url, String token) throws IOException {
        ManagerEndpoint ready = new ManagerEndpoint(url, ProcessHandle.current().pid(), token);
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
