package org.ftlab.harness.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.Callable;
import org.ftlab.auction.api.ReplySize;
import org.ftlab.harness.DemoRun;
import org.ftlab.harness.grid.GridPlan;
import org.ftlab.rm.db.DatabaseEndpoint;
import org.ftlab.rm.replica.ReplicaLauncher;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ftlab demo}: the whole lab once — the quick grid and a crash-injection run with each client strategy. */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Starts the Replication Manager, the Fault Detector, the database and the replicas; runs the "
                + "quick 48-configuration grid, then a crash-injection run (SIGKILL of the primary) with preconnected "
                + "and with reactive clients; audits the database after each; prints a summary and stops everything.",
                "Everything the run produces goes under the output directory."})
public final class DemoCommand implements Callable<Integer> {
    private static final DateTimeFormatter RUN_NAME =
            DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Option(names = "--out", paramLabel = "DIR", description = "Run directory (default: runs/<UTC timestamp>).")
    Path out;

    @Option(names = "--profile", defaultValue = "quick", paramLabel = "NAME",
            description = "Grid profile of the fault-free part: quick or full (default: ${DEFAULT-VALUE}).")
    String profile;

    @Option(names = "--clients", paramLabel = "LIST", description = "Grid client counts (default: the profile's).")
    String clients;

    @Option(names = "--think", paramLabel = "LIST", description = "Grid think times in ms (default: the profile's).")
    String think;

    @Option(names = "--reply", paramLabel = "LIST", description = "Grid reply sizes (default: the profile's).")
    String reply;

    @Option(names = "--posts", paramLabel = "N", description = "Grid posts per client (default: the profile's).")
    Integer posts;

    @Option(names = "--views", paramLabel = "N", description = "Grid views per client (default: the profile's).")
    Integer views;

    @Option(names = "--crash-clients", defaultValue = "4", paramLabel = "N",
            description = "Clients of each crash-injection run (default: ${DEFAULT-VALUE}).")
    int crashClients;

    @Option(names = "--crash-posts", defaultValue = "300", paramLabel = "N",
            description = "Posts per client in each crash-injection run (default: ${DEFAULT-VALUE}).")
    int crashPosts;

    @Option(names = "--crash-views", defaultValue = "100", paramLabel = "N",
            description = "Views per client in each crash-injection run (default: ${DEFAULT-VALUE}).")
    int crashViews;

    @Option(names = "--crashes", defaultValue = "1", paramLabel = "N",
            description = "Crashes of the primary in each crash-injection run (default: ${DEFAULT-VALUE}); each waits "
                    + "until the previous one was repaired (about 15 s), so more crashes need more --crash-posts.")
    int crashes;

    @Option(names = "--replicas", defaultValue = "2", paramLabel = "N",
            description = "Replicas, 2 to 5 (default: ${DEFAULT-VALUE}); the first is the primary.")
    int replicas;

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
        if (replicas < 2 || replicas > 5) {
            throw new IllegalArgumentException("--replicas must be 2 to 5 (a backup to fail over to), was " + replicas);
        }
        if (crashes < 1 || crashes > 20) {
            throw new IllegalArgumentException("--crashes must be 1 to 20, was " + crashes);
        }
        GridPlan grid = GridPlan.named(profile);
        if (clients != null || think != null || reply != null) {
            grid = grid.withFactors(clients == null ? null : GridPlan.parseInts("--clients", clients),
                    think == null ? null : GridPlan.parseInts("--think", think),
                    reply == null ? null : GridPlan.parseReplies(reply));
        }
        if (posts != null || views != null) {
            grid = grid.withCounts(posts != null ? posts : grid.postsPerClient(),
                    views != null ? views : grid.viewsPerClient());
        }
        GridPlan crashRun = new GridPlan("custom", List.of(crashClients), List.of(0), List.of(ReplySize.ORIGINAL),
                crashPosts, crashViews);
        DatabaseEndpoint external = externalDatabase(dbUrl, dbUser, dbPassword);
        Path runDir = out != null ? out : FtlabCommand.home().resolve("runs").resolve(RUN_NAME.format(Instant.now()));
        if (Files.exists(runDir) && !Files.isDirectory(runDir)) {
            throw new IllegalArgumentException("--out " + runDir + " exists and is not a directory");
        }
        Path server = serverDir != null ? serverDir : FtlabCommand.home().resolve("app-ejb/target/server");
        ReplicaLauncher.checkProvisioned(server);
        return new DemoRun(new DemoRun.Settings(runDir, server, external, replicas, grid, crashRun, crashes))
                .run(spec.commandLine().getOut());
    }
}
