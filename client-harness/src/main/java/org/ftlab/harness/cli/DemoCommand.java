package org.ftlab.harness.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.Callable;
import org.ftlab.auction.api.ReplySize;
import org.ftlab.harness.DemoRun;
import org.ftlab.harness.failover.FailoverStrategy;
import org.ftlab.rm.db.DatabaseEndpoint;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ftlab demo}: the whole stack once, end to end, with a latency summary. */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Starts the Replication Manager, the Fault Detector, the database and the replicas, runs a client "
                + "loop (post auctions, then view them) against the primary, crashes the primary mid-run, audits the "
                + "database, prints a summary and stops everything.",
                "Everything the run produces goes under the output directory."})
public final class DemoCommand implements Callable<Integer> {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    private static final DateTimeFormatter RUN_NAME =
            DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    @Option(names = "--out", paramLabel = "DIR", description = "Run directory (default: runs/<UTC timestamp>).")
    Path out;

    @Option(names = "--invocations", defaultValue = "4000", paramLabel = "N",
            description = "Client invocations: N/2 post-auction then N/2 view-auction (default: ${DEFAULT-VALUE}).")
    int invocations;

    @Option(names = "--replicas", defaultValue = "2", paramLabel = "N",
            description = "Replicas to start, 1 to 5 (default: ${DEFAULT-VALUE}); the first is the primary.")
    int replicas;

    @Option(names = "--reply-size", defaultValue = "original", paramLabel = "SIZE",
            description = "Reply size: original or a byte count such as 256 (default: ${DEFAULT-VALUE}).")
    String replySize;

    @Option(names = "--strategy", defaultValue = "preconnected", paramLabel = "STRATEGY",
            description = "Client fail-over: reactive or preconnected (default: ${DEFAULT-VALUE}).")
    String strategy;

    @Option(names = "--crashes", defaultValue = "1", paramLabel = "N",
            description = "Faults injected into the primary, spread over the run, 0 for none (default: ${DEFAULT-VALUE}).")
    int crashes;

    @Option(names = "--fault", defaultValue = "crash", paramLabel = "KIND",
            description = "What each injected fault does to the primary: crash (SIGKILL) or hang (SIGSTOP; the "
                    + "manager fences it with SIGKILL) (default: ${DEFAULT-VALUE}).")
    String fault;

    @Option(names = "--db-url", paramLabel = "JDBC_URL",
            description = "Use an existing MySQL 8 / MariaDB (jdbc:mysql://host:3306/ftlab) instead of the embedded one.")
    String dbUrl;

    @Option(names = "--db-user", paramLabel = "USER", description = "User for --db-url.")
    String dbUser;

    @Option(names = "--db-password", paramLabel = "PASSWORD", description = "Password for --db-url.")
    String dbPassword;

    @Option(names = "--server-dir", paramLabel = "DIR",
            description = "Provisioned replica server (default: app-ejb/target/server in the project).")
    Path serverDir;

    /** The external database the options name, or null for the embedded one. */
    static DatabaseEndpoint externalDatabase(String dbUrl, String dbUser, String dbPassword) {
        if (dbUrl != null) {
            if (dbUser == null) {
                throw new IllegalArgumentException("--db-url needs --db-user (and --db-password if the user has one)");
            }
            return new DatabaseEndpoint(dbUrl, dbUser, dbPassword);
        }
        if (dbUser != null || dbPassword != null) {
            throw new IllegalArgumentException("--db-user and --db-password go with --db-url");
        }
        return null;
    }

    @Override
    public Integer call() throws Exception {
        if (invocations < 2) {
            throw new IllegalArgumentException("--invocations must be at least 2, was " + invocations);
        }
        if (replicas < 1 || replicas > 5) {
            throw new IllegalArgumentException("--replicas must be 1 to 5, was " + replicas);
        }
        ReplySize size = ReplySize.parse(replySize);
        FailoverStrategy failover = FailoverStrategy.parse(strategy);
        if (!fault.equals("crash") && !fault.equals("hang")) {
            throw new IllegalArgumentException("--fault must be crash or hang, was '" + fault + "'");
        }
        if (crashes < 0 || crashes > 20) {
            throw new IllegalArgumentException("--crashes must be 0 to 20, was " + crashes);
        }
        if (crashes > 0 && replicas < 2) {
            throw new IllegalArgumentException("--crashes needs at least 2 replicas (a backup to fail over to)");
        }
        if (crashes >= invocations) {
            throw new IllegalArgumentException("--crashes must be fewer than --invocations");
        }
        DatabaseEndpoint external = externalDatabase(dbUrl, dbUser, dbPassword);
        Path runDir = out != null ? out : FtlabCommand.home().resolve("runs").resolve(RUN_NAME.format(Instant.now()));
        if (Files.exists(runDir) && !Files.isDirectory(runDir)) {
            throw new IllegalArgumentException("--out " + runDir + " exists and is not a directory");
        }
        Path server = serverDir != null ? serverDir : FtlabCommand.home().resolve("app-ejb/target/server");
        org.ftlab.rm.replica.ReplicaLauncher.checkProvisioned(server);
        return new DemoRun(new DemoRun.Settings(runDir, server, external, replicas, invocations, size, failover,
                crashes, fault.equals("hang"))).run(spec.commandLine().getOut());
    }
}
