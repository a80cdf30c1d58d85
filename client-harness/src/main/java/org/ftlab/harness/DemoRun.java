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
import org.ftlab.harness.analysis.RunComparison;
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
                ManagedLab.DEFAULT_SPARES, settings.externalDatabase(), 100, 500, true));
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
                    "preconnected", FaultPlan.NONE, database);
            FaultPlan crashes = new FaultPlan("crash", 0, settings.crashesPerRun());
            for (String strategy : List.of("preconnected", "reactive")) {
                if (aborted) {
                    break;
                }
                part(out, summary, lab, "crash-" + strategy, "crash injection, " + strategy
                        + " clients", settings.crashRun(), strategy, crashes, database);
            }
            if (aborted) {
                return 130;
            }
            compareStrategies(runDir, summary);
            writeAtomically(runDir.resolve("index.html"), index(runDir));
            summary.append("reports (self-contained HTML with plots): ").append(runDir.resolve("index.html"))
                    .append('\n');
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
            GridPlan plan, String strategy, FaultPlan faults, String database) throws Exception {
        if (aborted) {
            return;
        }
        out.printf(Locale.ROOT, "%n== %s: %d configurations -> %s/%n", title, plan.configurations().size(), name);
        out.flush();
        long t0 = System.nanoTime();
        RunDirectory dir = RunDirectory.create(settings.runDir().toAbsolutePath().resolve(name), plan, strategy,
                faults, settings.replicas(), ManagedLab.DEFAULT_SPARES, database, org.ftlab.harness.cli.Home.path());
        GridRunner runner = new GridRunner(lab, dir, out);
        current = runner;
        if (aborted) {
            // Ctrl-C came after the check above but before the hook could see this runner (both fields are
            // volatile: the hook, which sets aborted before reading current, or this thread sees the other).
            runner.abort();
        }
        boolean complete = false;
        try {
            complete = runner.run();
        } finally {
            current = null;
            dir.finish(complete ? "complete" : "aborted");
        }
        if (complete) {
            RunAnalysis.Result analysis = RunAnalysis.analyze(dir.path());
            RunAnalysis.write(dir.path(), analysis);
            out.println("analysis of " + name + "/ (report: " + name + "/report/index.html):");
            org.ftlab.harness.cli.AnalyzeCommand.print(out, analysis);
            summary.append(String.format(Locale.ROOT, "== %s (%s/): wall time %.1f s, ", title, name,
                    (System.nanoTime() - t0) / 1e9));
            summary.append(RunSummary.of(dir.path()));
            summary.append("  statistics and plots: ").append(name).append("/report/index.html, summary.json\n");
        }
    }

    /** Re-analyses the pre-connected crash run side by side with the reactive one (its report gets a comparison). */
    private static void compareStrategies(Path runDir, StringBuilder summary) throws IOException {
        Path pre = runDir.resolve("crash-preconnected");
        Path re = runDir.resolve("crash-reactive");
        if (!Files.isDirectory(pre.resolve("report")) || !Files.isDirectory(re.resolve("report"))) {
            return;
        }
        RunAnalysis.Result a = RunAnalysis.analyze(pre);
        RunComparison c = RunComparison.of(a, Path.of("..", "crash-reactive"), RunAnalysis.analyze(re));
        RunAnalysis.write(pre, a.withComparison(c));
        summary.append("== pre-connected vs reactive (crash-preconnected/report/index.html#compare): median phases ms");
        for (RunComparison.PhasePair p : c.phases()) {
            summary.append(String.format(Locale.ROOT, " %s %s vs %s;", p.phase(), ms(p.medianUs()),
                    ms(p.otherMedianUs())));
        }
        summary.append('\n');
    }

    private static String ms(Long us) {
        return us == null ? "-" : String.format(Locale.ROOT, "%.1f", us / 1e3);
    }

    /** A page linking the parts' reports (each is self-contained). */
    private static String index(Path runDir) {
        StringBuilder h = new StringBuilder("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                + "<title>ftlab demo</title></head><body><h1>ftlab demo</h1><ul>\n");
        String[][] parts = {{"grid", "fault-free quick grid: latency statistics, the magical 1%, ANOVA, plots"},
            {"crash-preconnected", "crash injection, pre-connected clients: fail-over breakdown, performability, "
                    + "and the comparison with reactive clients"},
            {"crash-reactive", "crash injection, reactive clients"}};
        for (String[] p : parts) {
            if (Files.exists(runDir.resolve(p[0]).resolve("report/index.html"))) {
                h.append("<li><a href=\"").append(p[0]).append("/report/index.html\">").append(p[0])
                        .append("</a>: ").append(p[1]).append("</li>\n");
            }
        }
        return h.append("</ul><p>summary.txt has the same numbers as text.</p></body></html>\n").toString();
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
