package org.ftlab.harness.demo;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import org.ftlab.auction.api.MicroClock;
import org.ftlab.harness.analysis.FailoverAnalysis;
import org.ftlab.harness.analysis.Format;
import org.ftlab.harness.analysis.HtmlPage;
import org.ftlab.harness.analysis.RunAnalysis;
import org.ftlab.harness.analysis.RunComparison;
import org.ftlab.harness.analysis.TextReport;
import org.ftlab.harness.grid.FaultSchedule;
import org.ftlab.harness.grid.GridPlan;
import org.ftlab.harness.grid.GridRunner;
import org.ftlab.harness.grid.RunDirectory;
import org.ftlab.harness.grid.RunSummary;
import org.ftlab.harness.grid.SegmentEvents;
import org.ftlab.harness.lab.Home;
import org.ftlab.harness.lab.ManagedLab;
import org.ftlab.os.AtomicFiles;
import org.ftlab.os.access.DatabaseEndpoint;
import org.ftlab.rm.api.ManagerStatus;
import org.ftlab.rm.api.Observe;
import org.ftlab.rm.api.ReplicaStatus;

/**
 * The demo: one lab (Replication Manager, Fault Detector, database, replicas), then the quick 48-configuration grid,
 * then the same crash-injection run with each client fail-over strategy, each audited for exactly-once execution;
 * a summary of everything; and a clean stop, on Ctrl-C too. Each part is an ordinary grid run directory under the
 * demo's directory ({@code grid/}, {@code crash-reactive/}, {@code crash-preconnected/}, {@code crash-hedged/}).
 */
public final class DemoRun {
    /** The strategies the demo's crash part runs, one crash run each, compared side by side. */
    static final List<String> CRASH_STRATEGIES = List.of("reactive", "preconnected", "hedged");

    /**
     * What the demo runs; {@code externalDatabase} null: the embedded database.
     *
     * @param grid the fault-free grid (the quick profile by default)
     * @param crashRun the grid of each crash-injection run
     * @param crashesPerRun crashes of the primary in each crash-injection run
     * @param observe whether the lab's JVMs and this one record events (each part keeps them in its events/)
     */
    public record Settings(Path runDir, Path serverHome, DatabaseEndpoint externalDatabase, int replicas,
            GridPlan grid, GridPlan crashRun, int crashesPerRun, Observe observe) {
    }

    private final Settings settings;
    private volatile GridRunner current;
    private volatile boolean aborted;
    /** This JVM's recording, whose part of each run goes into that run's events/ with the lab's. */
    private SegmentEvents events;

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
                ManagedLab.DEFAULT_SPARES, settings.externalDatabase(), ManagedLab.DEFAULT_HEARTBEAT_MILLIS,
                ManagedLab.DEFAULT_HEARTBEAT_TIMEOUT_MILLIS, true, null, null, true, settings.observe()));
        events = SegmentEvents.start(settings.observe());
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
                    "preconnected", FaultSchedule.NONE, database);
            FaultSchedule crashes = FaultSchedule.shorthand("crash", 0, settings.crashesPerRun(),
                    settings.crashRun().blockCount());
            Map<String, RunAnalysis.Result> crashRuns = new LinkedHashMap<>();
            for (String strategy : CRASH_STRATEGIES) {
                if (aborted) {
                    break;
                }
                RunAnalysis.Result a = part(out, summary, lab, "crash-" + strategy, "crash injection, " + strategy
                        + " clients", settings.crashRun(), strategy, crashes, database);
                if (a != null) {
                    crashRuns.put(strategy, a);
                }
            }
            if (aborted) {
                return 130;
            }
            List<String[]> sideBySide = compareStrategies(runDir, crashRuns, summary);
            writeAtomically(runDir.resolve("index.html"), index(runDir, sideBySide));
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
            events.close();
            if (!aborted) {
                lab.close();
                Runtime.getRuntime().removeShutdownHook(onInterrupt);
            }
        }
    }

    /** Runs one part; returns its analysis, or null when it did not complete. */
    private RunAnalysis.Result part(PrintWriter out, StringBuilder summary, ManagedLab lab, String name, String title,
            GridPlan plan, String strategy, FaultSchedule faults, String database) throws Exception {
        if (aborted) {
            return null;
        }
        out.printf(Locale.ROOT, "%n== %s: %d configurations -> %s/%n", title, plan.configurations().size(), name);
        out.flush();
        long t0 = System.nanoTime();
        RunDirectory dir = RunDirectory.create(settings.runDir().toAbsolutePath().resolve(name), plan, strategy,
                faults, settings.replicas(), ManagedLab.DEFAULT_SPARES, database, Home.path());
        GridRunner runner = new GridRunner(lab, dir, out);
        current = runner;
        if (aborted) {
            // Ctrl-C came after the check above but before the hook could see this runner (both fields are
            // volatile: the hook, which sets aborted before reading current, or this thread sees the other).
            runner.abort();
        }
        boolean complete = false;
        long startEpochUs = MicroClock.nowEpochMicros();
        try {
            complete = runner.run();
        } finally {
            current = null;
            dir.finish(complete ? "complete" : "aborted");
            events.keep(dir, lab, startEpochUs, out);
        }
        if (!complete) {
            return null;
        }
        RunAnalysis.Result analysis = RunAnalysis.analyze(dir.path());
        RunAnalysis.write(dir.path(), analysis);
        out.println("analysis of " + name + "/ (report: " + name + "/report/index.html):");
        TextReport.print(out, analysis);
        summary.append(String.format(Locale.ROOT, "== %s (%s/): wall time %.1f s, ", title, name,
                (System.nanoTime() - t0) / 1e9));
        summary.append(RunSummary.of(dir.path()));
        summary.append("  statistics and plots: ").append(name).append("/report/index.html, summary.json\n");
        return analysis;
    }

    /**
     * The crash runs side by side: one table (in summary.txt and index.html) of each strategy's faulty invocations,
     * phases, extra requests, false suspicions and hand-over; and each run's report compared with the reactive
     * one.
     */
    private static List<String[]> compareStrategies(Path runDir, Map<String, RunAnalysis.Result> crashRuns,
            StringBuilder summary) throws IOException {
        List<String[]> rows = new ArrayList<>();
        RunAnalysis.Result reactive = crashRuns.get("reactive");
        for (Map.Entry<String, RunAnalysis.Result> e : crashRuns.entrySet()) {
            RunAnalysis.Result a = e.getValue();
            if (reactive != null && a != reactive) {
                RunAnalysis.write(runDir.resolve("crash-" + e.getKey()), a.withComparison(RunComparison.of(a,
                        Path.of("..", "crash-reactive"), reactive)));
            }
            rows.add(sideBySideRow(e.getKey(), a.failover()));
        }
        if (rows.isEmpty()) {
            return rows;
        }
        summary.append("== crash runs side by side (medians, ms)\n");
        summary.append(String.format(Locale.ROOT, "%-13s %7s %9s %9s %9s %9s %9s %8s %10s%n", (Object[]) SIDE_BY_SIDE));
        for (String[] r : rows) {
            summary.append(String.format(Locale.ROOT, "%-13s %7s %9s %9s %9s %9s %9s %8s %10s%n", (Object[]) r));
        }
        return rows;
    }

    /** Column names of the side-by-side table. */
    private static final String[] SIDE_BY_SIDE = {"strategy", "faulty", "invocation", "detection", "fail-over",
        "retry", "max", "extra %", "hand-over"};

    private static String[] sideBySideRow(String strategy, FailoverAnalysis.Result f) {
        Function<String, String> phase = name -> f.phases().stream()
                .filter(p -> p.phase().equals(name)).findFirst().map(p -> Format.ms(p.medianUs())).orElse("-");
        String max = f.phases().stream().filter(p -> p.phase().equals("total")).findFirst()
                .map(p -> Format.ms(p.maxUs())).orElse("-");
        String handover = f.faults().stream().map(s -> s.handover()).filter(Objects::nonNull)
                .map(h -> String.format(Locale.ROOT, "%.2f", h.ratio())).reduce((x, y) -> x + " " + y).orElse("-");
        return new String[] {strategy, "" + (f.faulty() == null ? 0 : f.faulty().count()), phase.apply("total"),
            phase.apply("detection"), phase.apply("failover"), phase.apply("retry"), max,
            String.format(Locale.ROOT, "%.2f", 100 * f.redundancy().extraRate()), handover};
    }


    /** A page linking the parts' reports (each is self-contained), with the crash runs side by side. */
    private static String index(Path runDir, List<String[]> sideBySide) {
        StringBuilder h = HtmlPage.start("ftlab demo", false);
        h.append("<ul>\n");
        List<String[]> parts = new ArrayList<>();
        parts.add(new String[] {"grid", "fault-free quick grid: latency statistics, the magical 1%, ANOVA, plots"});
        for (String strategy : CRASH_STRATEGIES) {
            parts.add(new String[] {"crash-" + strategy, "crash injection, " + strategy + " clients: fail-over "
                    + "breakdown, redundancy, performability" + (strategy.equals("reactive") ? ""
                            : ", and the comparison with reactive clients")});
        }
        for (String[] p : parts) {
            if (Files.exists(runDir.resolve(p[0]).resolve("report/index.html"))) {
                h.append("<li><a href=\"").append(p[0]).append("/report/index.html\">").append(p[0])
                        .append("</a>: ").append(HtmlPage.esc(p[1])).append("</li>\n");
            }
        }
        h.append("</ul>\n");
        if (!sideBySide.isEmpty()) {
            h.append("<h2>The crash runs side by side</h2>\n<p>Medians of the faulty invocations (the requests in "
                    + "flight on the killed primary) and their phases, in ms; the largest; extra requests (hedges, "
                    + "retries) per request; and per fault the new primary's first-request median ÷ the old "
                    + "primary's last.</p>\n");
            HtmlPage.table(h, List.of(SIDE_BY_SIDE), sideBySide.stream().map(List::of).toList());
        }
        h.append("<p>summary.txt has the same numbers as text.</p>\n");
        return HtmlPage.end(h);
    }

    private static void printLab(PrintWriter out, ManagedLab lab, double seconds) throws IOException {
        ManagerStatus status = lab.manager().status();
        out.printf(Locale.ROOT, "lab ready in %.1f s: replication manager %s (pid %d), fault detector pid %d "
                + "(heartbeat %d ms, timeout %d ms)%n", seconds, lab.manager().url(), lab.pid(),
                status.faultDetectorPid(), status.heartbeatMillis(), status.timeoutMillis());
        out.println("database: " + status.database().replaceAll("\\?.*", ""));
        for (ReplicaStatus r : status.replicas()) {
            out.printf(Locale.ROOT, "replica %s: pid %d, %s, ready in %.1f s (%s)%n", r.name(), r.pid(), r.uri(),
                    r.startupMillis() == null ? 0 : r.startupMillis() / 1000.0, r.state().wireName());
        }
        out.flush();
    }

    private static void writeAtomically(Path file, String text) throws IOException {
        AtomicFiles.write(file, text);
    }
}
