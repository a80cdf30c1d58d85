package org.ftlab.harness.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.ftlab.harness.analysis.LatencyStats;
import org.ftlab.harness.analysis.RunAnalysis;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code ftlab analyze RUN_DIR}: the statistics of a grid run, written to RUN_DIR/report/ and printed. */
@Command(name = "analyze", mixinStandardHelpOptions = true,
        description = {"Computes per-configuration latency statistics (mean, percentiles, 3-sigma outliers, "
                + "C1, a 99%% confidence interval for p99) and ANOVA across configurations for a grid run.",
                "Writes RUN_DIR/report/summary.csv and summary.json and prints the headline table."})
public final class AnalyzeCommand implements Callable<Integer> {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Parameters(paramLabel = "RUN_DIR", description = "A grid run directory (with probes/ and manifest.json).")
    Path runDir;

    @Override
    public Integer call() throws Exception {
        if (!Files.isDirectory(runDir)) {
            throw new IllegalArgumentException(runDir + " is not a directory");
        }
        long t0 = System.nanoTime();
        RunAnalysis.Result result = RunAnalysis.analyze(runDir);
        RunAnalysis.write(runDir, result);
        PrintWriter out = spec.commandLine().getOut();
        for (String w : result.warnings()) {
            out.println("warning: " + w);
        }
        out.printf(Locale.ROOT, "%-14s %7s %9s %9s %9s %19s %9s %4s %8s%n", "config", "count", "mean ms", "p99 ms",
                "max ms", "p99 99% CI ms", "3σ out", "C1", "p99≤10×");
        for (RunAnalysis.Entry e : result.entries()) {
            if (!e.method().equals("all") || e.stats() == null) {
                continue;
            }
            LatencyStats s = e.stats();
            String ci = s.p99CiLow() == null ? "n too small" : String.format(Locale.ROOT, "%.2f–%.2f",
                    s.p99CiLow() / 1000.0, s.p99CiHigh() / 1000.0);
            Boolean within = s.p99Within(10);
            out.printf(Locale.ROOT, "%-14s %7d %9.3f %9.3f %9.3f %19s %9d %4s %8s%n", e.config(), s.count(),
                    s.mean() / 1000.0, s.p99() / 1000.0, s.max() / 1000.0, ci, s.outliers3Sigma(),
                    s.c1() ? "yes" : "no", within == null ? "-" : within ? "yes" : "no");
        }
        out.println("ANOVA (F, p) across configurations:");
        for (RunAnalysis.Anova a : result.anova()) {
            out.printf(Locale.ROOT, "  %-9s %-5s %s%n", a.factor(), a.metric(), a.f() == null ? "not testable"
                    : String.format(Locale.ROOT, "F=%.3f p=%.3g", a.f(), a.p()));
        }
        out.printf(Locale.ROOT, "report: %s (%.1f s)%n", runDir.resolve("report"), (System.nanoTime() - t0) / 1e9);
        return 0;
    }
}
