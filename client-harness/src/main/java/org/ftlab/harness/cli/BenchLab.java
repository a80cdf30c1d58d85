package org.ftlab.harness.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import org.ftlab.harness.lab.ManagedLab;
import org.ftlab.rm.api.Observe;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code --lab}, {@code --wildfly-cluster}, {@code --server-dir} and {@code --observe}: the lab the bench's suites run
 * on, the running one in {@code --lab} or one the bench boots (2 replicas, the spares its suites need, the embedded
 * database) and stops at the end. A picocli mixin of {@code ftlab bench}.
 */
public final class BenchLab {
    /** The replicas of the lab the bench boots, and the fewest a suite that fails one over needs in a running one. */
    private static final int REPLICAS = 2;

    @Option(names = "--lab", paramLabel = "DIR", description = "Run the service, agreement and fail-over suites on "
            + "the lab running in DIR ('ftlab lab --out DIR') instead of booting one (its server and shape are its "
            + "own, so --server-dir is not given here); the fail-over suite needs 2 replicas and a spare there.")
    Path labDir;

    @Option(names = "--wildfly-cluster", description = "The bench's lab is WildFly's cluster, and the fail-over suite "
            + "measures the baseline strategy wildfly-cluster beside ftlab's, on the same servers (a lab given with "
            + "--lab is measured so when it was started with --wildfly-cluster).")
    boolean wildflyCluster;

    @Mixin
    ServerOptions server;

    /**
     * The running lab in {@code --lab} if the suites need a lab (null: none given, or none needed), checked against
     * what they need of it: {@code spares} (0 or more) and WildFly's cluster if {@code --wildfly-cluster} is given.
     */
    ManagedLab attach(boolean needed, int spares) throws IOException {
        if (labDir != null && server.given()) {
            throw new IllegalArgumentException("--server-dir: the lab in --lab has its own; give it to 'ftlab lab', "
                    + "or leave out --lab");
        }
        ManagedLab running = labDir != null && needed ? ManagedLab.attach(labDir) : null;
        if (running == null) {
            return null;
        }
        if (spares > 0 && (running.description().replicas() < REPLICAS || running.description().spares() < spares)) {
            throw new IllegalArgumentException("--lab " + labDir + ": the fail-over suite needs 2 replicas and a "
                    + "spare; that lab has " + running.description().replicas() + " and "
                    + running.description().spares());
        }
        if (wildflyCluster && !running.description().wildflyCluster()) {
            throw new IllegalArgumentException("--wildfly-cluster: the lab in --lab is not WildFly's cluster; start "
                    + "it with 'ftlab lab --wildfly-cluster', or leave out --lab");
        }
        return running;
    }

    /** Whether the bench's lab is WildFly's cluster: given so, or the {@code running} one (null: none) is. */
    boolean wildflyCluster(ManagedLab running) {
        return wildflyCluster || running != null && running.description().wildflyCluster();
    }

    /** {@code --observe}, checked. */
    Observe observe() {
        return server.observe();
    }

    /**
     * Boots the bench's own lab in {@code benchDir/lab}: 2 replicas and, if {@code spares} is more than 0, the lab's
     * default spares (a suite that fails replicas over waits for one each time).
     */
    ManagedLab start(Path benchDir, int spares, PrintWriter progress) throws IOException, InterruptedException {
        int booted = spares > 0 ? ManagedLab.DEFAULT_SPARES : 0;
        progress.printf(Locale.ROOT, "starting the lab (2 replicas, %d spare%s, embedded database) ...%n", booted,
                booted == 1 ? "" : "s");
        progress.flush();
        return ManagedLab.start(new ManagedLab.Options(benchDir.resolve("lab"), server.server(), REPLICAS, booted,
                null, ManagedLab.DEFAULT_HEARTBEAT_MILLIS, ManagedLab.DEFAULT_HEARTBEAT_TIMEOUT_MILLIS, true, null,
                null, true, server.observe(), wildflyCluster));
    }

    /** What the figures were measured on, for bench.json's {@code lab} and the table. */
    static String measured(ManagedLab lab) {
        return lab.owned() ? "booted by the bench (" + lab.description().replicas() + " replicas, "
                + lab.description().spares() + " spares)" : "the running lab in " + lab.runDir();
    }
}
