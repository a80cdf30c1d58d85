package org.ftlab.harness.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.ftlab.harness.lab.ManagedLab;
import org.ftlab.harness.probe.RunSettings;
import org.ftlab.os.access.DatabaseEndpoint;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ftlab lab}: one lab kept running for many grids ({@code ftlab grid --lab DIR}), so each grid starts at once
 * instead of booting its own. Runs in the foreground until Ctrl-C or SIGTERM, which stop everything it started.
 */
@Command(name = "lab", mixinStandardHelpOptions = true,
        description = {"Starts a lab (Replication Manager, Fault Detector, database, replicas and spares) and keeps it "
                + "running until Ctrl-C, for grids that run on it with 'ftlab grid --lab DIR' one after another.",
                "Each grid waits until the lab is back at its replication degree (and, for a fault run, has its "
                + "spares) before it starts."})
public final class LabCommand implements Callable<Integer> {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Option(names = "--out", paramLabel = "DIR", description = "The lab's directory (default: runs/lab-<UTC "
            + "timestamp>): give it to 'ftlab grid --lab'.")
    Path out;

    @Option(names = "--replicas", defaultValue = "2", paramLabel = "N", description = "Replicas, 1 to 5 (default: 2).")
    int replicas;

    @Option(names = "--spares", defaultValue = "1", paramLabel = "N", description = "Pre-booted spare replicas, 0 to "
            + "3 (default: 1); a fault run on the lab waits until they are ready.")
    int spares;

    @Option(names = "--wildfly-cluster", description = "The replicas run WildFly's high-availability server as one "
            + "cluster, for the baseline strategy wildfly-cluster (and every other strategy on the same servers); "
            + "spares wait suspended, so that WildFly's clients do not call them.")
    boolean wildflyCluster;

    @Mixin
    LabKnobOptions knobs;

    @Mixin
    DatabaseOptions database;

    @Mixin
    ManagersOption managers;

    @Mixin
    ServerOptions server;

    @Override
    public Integer call() throws Exception {
        if (replicas < 1 || replicas > 5) {
            throw new IllegalArgumentException("--replicas must be 1 to 5, was " + replicas);
        }
        if (spares < 0 || spares > 3) {
            throw new IllegalArgumentException("--spares must be 0 to 3, was " + spares);
        }
        RunSettings settings = knobs.settings();
        DatabaseEndpoint external = database.external();
        Path server = this.server.server();
        Path dir = FtlabCommand.runDir(out, "lab-").normalize();
        PrintWriter outw = spec.commandLine().getOut();
        long t0 = System.nanoTime();
        ManagedLab lab = ManagedLab.start(new ManagedLab.Options(dir, server, replicas, spares, external,
                settings.heartbeatMillis(), settings.heartbeatTimeoutMillis(), true, null, null,
                settings.requestLog(), this.server.observe(), wildflyCluster, database.tier(), managers.managers));
        CountDownLatch stopped = new CountDownLatch(1);
        Thread stop = new Thread(() -> {
            lab.close();
            stopped.countDown();
        }, "ftlab-lab-stop");
        Runtime.getRuntime().addShutdownHook(stop);
        outw.printf(Locale.ROOT, "lab ready in %.1f s: %d replicas%s, %d spare%s, heartbeat H=%d ms T=%d ms, request "
                + "log %s; manager %s%n", (System.nanoTime() - t0) / 1e9, replicas,
                wildflyCluster ? " in WildFly's cluster" : "", spares, spares == 1 ? "" : "s",
                settings.heartbeatMillis(), settings.heartbeatTimeoutMillis(), settings.requestLog() ? "on" : "OFF",
                lab.manager().url());
        outw.println("run grids on it with: ftlab grid --lab " + dir + " ...");
        outw.println("Ctrl-C stops the lab");
        outw.flush();
        stopped.await();
        return 0;
    }
}
