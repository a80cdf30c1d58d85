package org.ftlab.harness;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Locale;
import org.ftlab.harness.analysis.RunAnalysis;
import org.ftlab.harness.failover.FailoverStrategy;
import org.ftlab.harness.grid.FaultPlan;
import org.ftlab.harness.grid.GridPlan;
import org.ftlab.harness.grid.GridRunner;
import org.ftlab.harness.grid.RunDirectory;
import org.ftlab.harness.grid.RunSummary;
import org.ftlab.harness.lab.ManagedLab;
import org.ftlab.rm.db.DatabaseEndpoint;

/**
 * The demo: one lab (Replication Manager, Fault Detector, database, replicas), then the quick 48-configuration grid,
 * then the same crash-injection run with each client fail-over strategy, each audited for exactly-once execution;
 * a summary of everything; and a clean stop, on Ctrl-C too. Each part is an ordinary grid run directory under the
 * demo's directory ({@code grid/}, {@code crash-preconnected/}, {@code crash-reactive/}).
 */
public final class DemoRun {
    /**
     * What the demo runs; {@code externalDatabase} null: the embedded database.
     *
     * @param grid the fault-free grid (the quick profile by default)
     * @param crashRun the grid of each crash-injection run
     * @param crashesPerRun crashes of the primary in each crash-injection run
     */
    public record Settings(Path runDir, Path serverHome, DatabaseEndpoint externalDatabase, int replicas,
            GridPlan grid, GridPlan crashRun, int crashesPerRun) {
    }

    private final Settings settings;
    private volatile GridRunner current;
    private volatile boolean aborted;

    public DemoRun(Settings settings) {
        this.settings = settings;
    }

    /** Runs the demo; returns the process exit code. */
    public int run(PrintWriter out) throws Exception {
        Path runDir = settings.runDir().toAbsolutePath();
        Files.createDirectories(runDir);
        out.println("ftlab demo: run directory " + runDir);
        long t0 = System.nanoTime();
        ManagedLab lab = ManagedLab.start(new ManagedLab.Options(runDir, settings.serverHome(), settings.replicas(),
                settings.externalDatabase(), 100, 500, true));
        Thread onInterrupt = new Thread(() -> {
            aborted = true;
            GridRunner r = current;
            if (r != null) {
                r.abort();
            }
            lab.close();
        }, "ftlab-demo-shutdown");
        Runtime.getRuntime().addShutdownHook(onInterrupt);
        try {
            printLab(out, lab, (System.nanoTime() - t0) / 1e9);
            StringBuilder summary = new StringBuilder();
            String database = settings.externalDatabase() == null ? "embedded MariaDB"
                    : settings.externalDatabase().redactedUrl();
            part(out, summary, lab, "grid", "fault-free grid (" + settings.grid().profile() + ")", settings.grid(),
                    FailoverStrategy.PRECONNECTED, FaultPlan.NONE, database);
            FaultPlan crashes = new FaultPlan("crash", 0, settings.crashesPerRun());
            for (FailoverStrategy strategy : List.of(FailoverStrategy.PRECONNECTED, FailoverStrategy.REACTIVE)) {
                if (aborted) {
                    break;
                }
                part(out, summary, lab, "crash-" + strategy.wireName(), "crash injection, " + strategy.wireName()
                        + " clients", settings.crashRun(), strategy, crashes, database);
            }
            if (aborted) {
                return 130;
            }
            writeAtomically(runDir.resolve("summary.txt"), summary.toString());
            out.println();
            out.print(summary);
            out.printf(Locale.ROOT, "demo complete in %.1f s; results in %s%n", (System.nanoTime() - t0) / 1e9,
                    runDir);
            out.flush();
            return 0;
        } finally {
            if (!aborted) {
                lab.close();
                Runtime.getRuntime().removeShutdownHook(onInterrupt);
            }
        }
    }

    private void part(PrintWriter out, StringBuilder summary, ManagedLab lab, String name, String title,
            GridPlan plan, FailoverStrategy strategy, FaultPlan faults, String database) throws Exception {
        if (aborted) {
            return;
        }
        out.printf(Locale.ROOT, "%n== %s: %d configurations -> %s/%n", title, plan.configurations().size(), name);
        out.flush();
        long t0 = System.nanoTime();
        RunDirectory dir = RunDirectory.create(settings.runDir().toAbsolutePath().resolve(name), plan, strategy,
                faults, settings.replicas(), database, org.ftlab.harness.cli.Home.path());
        GridRunner runner = new GridRunner(lab, dir, plan, strategy, faults, out);
        current = runner;
        boolean complete = false;
        try {
            complete = runner.run();
        } finally {
            current = null;
            dir.finish(complete ? "complete" : "aborted");
        }
        if (complete) {
            RunAnalysis.write(dir.path(), RunAnalysis.analyze(dir.path()));
            summary.append(String.format(Locale.ROOT, "== %s (%s/): wall time %.1f s, ", title, name,
                    (System.nanoTime() - t0) / 1e9));
            summary.append(RunSummary.of(dir.path()));
            summary.append("  statistics: ").append(name).append("/report/summary.json\n");
        }
    }

    private static void printLab(PrintWriter out, ManagedLab lab, double seconds) throws IOException {
        JsonNode status = lab.manager().status();
        out.printf(Locale.ROOT, "lab ready in %.1f s: replication manager %s (pid %d), fault detector pid %d "
                + "(heartbeat %d ms, timeout %d ms)%n", seconds, lab.manager().url(), lab.pid(),
                status.path("faultDetectorPid").asLong(), status.path("heartbeatMs").asLong(),
                status.path("timeoutMs").asLong());
        out.println("database: " + status.path("database").asText().replaceAll("\\?.*", ""));
        for (JsonNode r : status.path("replicas")) {
            out.printf(Locale.ROOT, "replica %s: pid %d, %s, ready in %.1f s (%s)%n", r.path("name").asText(),
                    r.path("pid").asLong(), r.path("uri").asText(), r.path("startupMs").asLong() / 1000.0,
                    r.path("state").asText());
        }
        out.flush();
    }

    private static void writeAtomically(Path file, String text) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, text, StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}
