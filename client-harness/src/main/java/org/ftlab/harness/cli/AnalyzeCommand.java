package org.ftlab.harness.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import org.ftlab.harness.analysis.FailoverAnalysis;
import org.ftlab.harness.analysis.LinearizabilityCheck;
import org.ftlab.harness.analysis.RunAnalysis;
import org.ftlab.harness.analysis.RunComparison;
import org.ftlab.harness.analysis.SideBySide;
import org.ftlab.harness.analysis.TextReport;
import org.ftlab.harness.history.HistoryFiles;
import org.ftlab.harness.history.check.HistoryCheck;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code ftlab analyze RUN_DIR [--compare OTHER...]}: the statistics, plots and report of a grid run. */
@Command(name = "analyze", mixinStandardHelpOptions = true,
        description = {"Analyses a grid run: per-configuration latency statistics (mean, percentiles, 3-sigma "
                + "outliers, C1, a 99%% confidence interval for p99 and the magical-1%% verdicts), ANOVA and the "
                + "p99-on-mean regression across configurations, the fail-over breakdown and performability.",
                "Writes RUN_DIR/report/summary.csv, summary.json and index.html (self-contained, with plots) and "
                        + "prints the headline table."})
public final class AnalyzeCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "RUN_DIR", description = "A grid run directory (with probes/ and manifest.json).")
    Path runDir;

    @Option(names = "--compare", paramLabel = "OTHER_RUN_DIR", arity = "1..*",
            description = "Other grid runs to put side by side (a class's submissions, a sweep): "
                    + "RUN_DIR/report/compare.html and compare.csv, one row and one bar per run for each headline "
                    + "figure. With one other run, RUN_DIR's report also shows the ratios (this ÷ other).")
    List<Path> compare;

    @Option(names = "--demerits", paramLabel = "WEIGHTS", description = "Demerit weights, e.g. "
            + "failed=8,over2s=2,over1s=1,excess_s=1 (the defaults; see docs/analysis.md).")
    String demerits;

    @Override
    public Integer call() throws Exception {
        requireRun(runDir);
        FailoverAnalysis.Demerits weights = demerits == null ? FailoverAnalysis.Demerits.DEFAULT
                : FailoverAnalysis.Demerits.parse(demerits);
        List<Path> others = compare == null ? List.of() : compare;
        Set<Path> seen = new HashSet<>(List.of(runDir.toAbsolutePath().normalize()));
        for (Path other : others) {
            requireRun(other);
            if (!seen.add(other.toAbsolutePath().normalize())) {
                throw new IllegalArgumentException("--compare names the run being analysed, or a run twice (" + other
                        + "): give each other run directory once");
            }
        }
        long t0 = System.nanoTime();
        RunAnalysis.Result result = RunAnalysis.analyze(runDir, weights);
        List<SideBySide.Row> rows = new ArrayList<>();
        rows.add(SideBySide.row(runDir, result));
        for (Path other : others) {
            RunAnalysis.Result o;
            try {
                o = RunAnalysis.analyze(other, weights);
            } catch (IOException | RuntimeException e) {
                throw new IllegalArgumentException(other + " cannot be analysed: " + OneLineError.of(e), e);
            }
            if (others.size() == 1) {
                result = result.withComparison(RunComparison.of(result, other, o));
            }
            rows.add(SideBySide.row(other, o));
        }
        PrintWriter out = spec.commandLine().getOut();
        if (HistoryFiles.exists(runDir)) {
            // the history's verdict goes in the report (check.json), as ftlab check writes it
            LinearizabilityCheck.print(out, LinearizabilityCheck.run(runDir, HistoryCheck.Limits.DEFAULT));
        }
        RunAnalysis.write(runDir, result);
        TextReport.print(out, result);
        TextReport.printStatefulTier(out, runDir);
        TextReport.printDatabaseFailovers(out, runDir);
        TextReport.printManagerFailovers(out, runDir);
        TextReport.printDatabaseWork(out, runDir);
        if (!others.isEmpty()) {
            Path page = SideBySide.write(runDir.resolve("report"), rows);
            TextReport.printSideBySide(out, rows);
            out.println("side by side: " + page);
        }
        spec.commandLine().getOut().printf(Locale.ROOT, "report: %s (%.1f s)%n",
                runDir.resolve("report").resolve("index.html"), (System.nanoTime() - t0) / 1e9);
        return 0;
    }

    private static void requireRun(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException(dir + " is not a directory: give a grid run directory "
                    + "(scripts/ftlab grid --out DIR)");
        }
    }
}
