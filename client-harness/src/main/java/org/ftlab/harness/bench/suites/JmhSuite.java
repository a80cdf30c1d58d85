package org.ftlab.harness.bench.suites;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.Set;
import org.ftlab.harness.bench.BenchReport;
import org.ftlab.harness.bench.Suite;
import org.ftlab.harness.bench.SuiteRun;
import org.ftlab.harness.bench.jmh.ProbeBenchmarks;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * {@code jmh}: JMH micro-benchmarks of the probes ({@link ProbeBenchmarks}) in a forked JVM; bench.json's {@code jmh},
 * and, when the service suite ran before it, the probes' cost as a fraction of a view's mean. Needs no lab.
 */
public final class JmhSuite implements Suite {
    /** The micro-benchmarks whose work lies inside a request's timed window with events off: the probe cost. */
    private static final Set<String> IN_WINDOW = Set.of("clientProbes", "serverProbes");

    private final JmhOptions options = new JmhOptions();

    @Override
    public String name() {
        return "jmh";
    }

    @Override
    public String description() {
        return "";
    }

    @Override
    public boolean byDefault() {
        return true;
    }

    @Override
    public Object options() {
        return options;
    }

    @Override
    public void checkOptions() {
        options.check();
    }

    @Override
    public boolean needsLab() {
        return false;
    }

    @Override
    public void run(SuiteRun run) throws Exception {
        PrintWriter pw = run.progress();
        BenchReport report = run.report();
        StringBuilder table = report.table();
        pw.printf(Locale.ROOT, "jmh: probe recording on the client and the replica (1 fork, 3 warm-up and 5 measured "
                + "%d-ms iterations each) ...%n", options.iterationMillis);
        pw.flush();
        Options opt = new OptionsBuilder()
                .include(ProbeBenchmarks.class.getName()).forks(1)
                .warmupIterations(3).warmupTime(TimeValue.milliseconds(options.iterationMillis))
                .measurementIterations(5).measurementTime(TimeValue.milliseconds(options.iterationMillis))
                .verbosity(VerboseMode.SILENT).build();
        ObjectNode j = report.object("jmh");
        double totalNs = 0;
        table.append(String.format(Locale.ROOT, "%njmh (average time per operation)%n"));
        for (RunResult r : new Runner(opt).run()) {
            String name = r.getParams().getBenchmark().replaceAll(".*\\.", "");
            double score = r.getPrimaryResult().getScore();
            double error = r.getPrimaryResult().getScoreError();
            ObjectNode x = j.putObject(name);
            x.put("ns_per_op", score);
            x.put("error_ns_99pct", Double.isNaN(error) ? null : error);
            if (IN_WINDOW.contains(name)) {
                totalNs += score; // what every request's measured latency carries, events on or off
            }
            table.append(String.format(Locale.ROOT, "  %-22s %8.1f ± %.1f ns/op%n", name, score, error));
        }
        JsonNode view = report.figure("service", "1_client", "view", "mean_us", "median");
        if (!view.isMissingNode()) {
            double fraction = totalNs / 1000.0 / view.asDouble();
            j.put("probe_cost_fraction_of_view_mean", fraction);
            table.append(String.format(Locale.ROOT, "  probes per request: %.0f ns = %.4f%% of a view's mean "
                    + "(%.3f ms, 1 client); target < 1%%%n", totalNs, 100 * fraction, view.asDouble() / 1e3));
            double observeNs = j.path("serverSchedstat").path("ns_per_op").asDouble(0);
            j.put("observe_cost_fraction_of_view_mean", observeNs / 1000.0 / view.asDouble());
            table.append(String.format(Locale.ROOT, "  with events on, a view's replica adds %.0f ns = %.4f%% (a "
                    + "post's transaction %.0f ns more)%n", observeNs, 100 * observeNs / 1000.0 / view.asDouble(),
                    j.path("databaseThreadReadings").path("ns_per_op").asDouble(0)));
        }
    }
}
