package org.ftlab.harness.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.ftlab.auction.api.ReplySize;
import org.ftlab.harness.demo.DemoRun;
import org.ftlab.harness.grid.GridPlan;
import org.ftlab.os.access.DatabaseEndpoint;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code ftlab demo}: the whole lab once — the quick grid and a crash-injection run with each client strategy. */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Starts the Replication Manager, the Fault Detector, the database and the replicas; runs the "
                + "quick 48-configuration grid, then three crash-injection runs (SIGKILL of the primary), with "
                + "reactive, pre-connected and hedged clients; audits the database after each; prints a summary, "
                + "writes the reports and stops everything.",
                "Everything the run produces goes under the output directory."})
public final class DemoCommand implements Callable<Integer> {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Option(names = "--out", paramLabel = "DIR", description = "Run directory (default: runs/<UTC timestamp>).")
    Path out;

    @Option(names = "--profile", defaultValue = "quick", paramLabel = "NAME",
            description = "Grid profile of the fault-free part: quick, paper or full (default: ${DEFAULT-VALUE}).")
    String profile;

    @Mixin
    GridOptions gridOptions;

    @Option(names = "--crash-clients", defaultValue = "4", paramLabel = "N",
            description = "Clients of each crash-injection run (default: ${DEFAULT-VALUE}).")
    int crashClients;

    @Option(names = "--crash-posts", defaultValue = "600", paramLabel = "N",
            description = "Posts per client in each crash-injection run (default: ${DEFAULT-VALUE}).")
    int crashPosts;

    @Option(names = "--crash-views", defaultValue = "200", paramLabel = "N",
            description = "Views per client in each crash-injection run (default: ${DEFAULT-VALUE}).")
    int crashViews;

    @Option(names = "--crashes", defaultValue = "2", paramLabel = "N",
            description = "Crashes of the primary in each crash-injection run (default: ${DEFAULT-VALUE}: two faults "
                    + "of each strategy to compare); each waits until the lab has its replication degree again and "
                    + "settled for 2 s (a third waits for a replacement's boot, about 15 s), so more crashes need "
                    + "more --crash-posts.")
    int crashes;

    @Option(names = "--replicas", defaultValue = "2", paramLabel = "N",
            description = "Replicas, 2 to 5 (default: ${DEFAULT-VALUE}); the first is the primary.")
    int replicas;

    @Mixin
    DatabaseOptions database;

    @Mixin
    ServerOptions server;

    @Override
    public Integer call() throws Exception {
        if (replicas < 2 || replicas > 5) {
            throw new IllegalArgumentException("--replicas must be 2 to 5 (a backup to fail over to), was " + replicas);
        }
        if (crashes < 1 || crashes > 20) {
            throw new IllegalArgumentException("--crashes must be 1 to 20, was " + crashes);
        }
        GridPlan grid = gridOptions.applyTo(GridPlan.named(profile));
        if (!grid.infra().equals(GridPlan.Infra.NONE)) {
            throw new IllegalArgumentException("--profile " + profile + " varies the infrastructure: run it with "
                    + "'ftlab grid --profile " + profile + "'; the demo runs quick, paper or full");
        }
        // Each crash run starts with the grid's block warm-up (its lab is already warm from the grid).
        GridPlan crashRun = new GridPlan("custom", List.of(crashClients), List.of(0), List.of(ReplySize.ORIGINAL),
                crashPosts, crashViews, new GridPlan.Design(GridPlan.DEFAULT_WARMUP_PER_CLIENT, 1,
                        GridPlan.Order.SEQUENTIAL, 0L, GridPlan.Arrival.CLOSED, List.of(), 0));
        DatabaseEndpoint external = database.external();
        if (database.tier().replicated()) {
            throw new IllegalArgumentException("ftlab demo runs one database server; a replicated one (--database "
                    + database.tier().wireName() + ") goes with ftlab grid or ftlab lab");
        }
        Path runDir = FtlabCommand.runDir(out, "");
        if (Files.exists(runDir) && !Files.isDirectory(runDir)) {
            throw new IllegalArgumentException("--out " + runDir + " exists and is not a directory");
        }
        Path server = this.server.server();
        return new DemoRun(new DemoRun.Settings(runDir, server, external, replicas, grid, crashRun, crashes,
                this.server.observe()))
                .run(spec.commandLine().getOut());
    }
}
