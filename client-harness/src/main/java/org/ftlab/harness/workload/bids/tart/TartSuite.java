package org.ftlab.harness.workload.bids.tart;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.ftlab.harness.analysis.Format;
import org.ftlab.harness.bench.BenchReport;
import org.ftlab.harness.bench.ServiceBench;
import org.ftlab.harness.bench.Suite;
import org.ftlab.harness.bench.SuiteRun;

/**
 * {@code tart}: seed 003's study, {@link TartBench}: its overhead rounds, then its crash runs; bench.json's
 * {@code tart} and their tables. Its crash runs need a spare.
 */
public final class TartSuite implements Suite {
    private final TartOptions options = new TartOptions();

    @Override
    public String name() {
        return "tart";
    }

    @Override
    public String description() {
        return "seed 003's study on the stateful tier: determinism off, and on with the regression estimator, the "
                + "constant one and lazy silence, and the stateless tier, in rotated rounds at each --tart-spreads "
                + "work variability (latency overhead, saturation throughput, pessimism delay, out-of-order, "
                + "probes); then two crashes per --tart-intervals checkpoint interval and on the stateless tier "
                + "(faulty invocation, detection, recovery, replay).";
    }

    @Override
    public boolean byDefault() {
        return false;
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
        return true;
    }

    @Override
    public int spares() {
        return options.intervals.isEmpty() ? 0 : 1;
    }

    @Override
    public void run(SuiteRun run) throws Exception {
        TartBench bench = new TartBench(run.lab(), run.dir(), run.progress());
        BenchReport report = run.report();
        ObjectNode node = report.object("tart");
        if (options.parts.contains("overhead")) {
            overhead(bench, node, report, run.rounds().warmup());
            // kept at once: the crash runs that follow may fail or be stopped, the overhead rounds stay measured
            report.keepFigures();
        }
        if (options.parts.contains("crashes") && !options.intervals.isEmpty()) {
            crashes(bench, node, report);
        }
    }

    /** The overhead rounds: every arm at every spread, summarized against determinism off. */
    private void overhead(TartBench bench, ObjectNode node, BenchReport report, int warmup) throws Exception {
        List<TartBench.ArmRun> runs = bench.overhead(options.rounds, options.spreads, options.clients, options.bids,
                warmup);
        List<TartBench.ArmSummary> arms = TartBench.summarize(runs);
        node.set("runs", report.tree(runs));
        node.set("arms", report.tree(arms));
        StringBuilder t = report.table();
        t.append(String.format(Locale.ROOT, "%ntart (seed 003): %d rounds, %d clients, %d bids per client per block "
                + "after %d warm-up; loaded block think %d ms, saturated think 0; overhead and throughput ratio to "
                + "determinism off in the same round (median [range]); targets: overhead <= 4%%, throughput >= 0.97, "
                + "out of order <= 10%%, probes <= 2%n%-6s %-10s %9s %22s %9s %20s %10s %8s %8s %7s%n",
                options.rounds, options.clients, options.bids, warmup, TartBench.LOADED_THINK_MS, "spread", "arm",
                "mean ms", "overhead %", "req/s", "throughput ratio", "pessim µs", "o-o-o %", "probes", "db/req"));
        for (TartBench.ArmSummary a : arms) {
            t.append(String.format(Locale.ROOT, "%-6d %-10s %9.2f %22s %9.0f %20s %10.1f %8.1f %8.2f %7.2f%n",
                    a.workSpread(), a.arm(), a.loadedMeanMs().median(), range(a.latencyOverheadPercent(), "%+.1f"),
                    a.saturatedRatePerS().median(), range(a.throughputRatio(), "%.3f"),
                    a.pessimismUsPerMessage().median(), a.outOfOrderPercent().median(),
                    a.probesPerMessage().median(), a.statementsPerRequest().median()));
        }
    }

    /** The crash runs: two crashes of the primary per run, at each checkpoint interval and on the stateless tier. */
    private void crashes(TartBench bench, ObjectNode node, BenchReport report) throws Exception {
        List<TartBench.CrashRun> crashes = bench.crashes(options.rounds, options.intervals, options.clients,
                options.crashBids);
        node.set("crashes", report.tree(crashes));
        StringBuilder t = report.table();
        t.append(String.format(Locale.ROOT, "%ntart: two crashes of the primary per run, %d clients x %d bids, "
                + "pre-connected; target: stateful faulty median <= stateless, replay < detection%n%-10s %5s %5s "
                + "%7s %10s %10s %22s %16s %16s%n", options.clients, options.crashBids, "tier", "every", "round",
                "faulty", "faulty ms", "detect ms", "recovery ms", "replay inputs", "replay ms"));
        for (TartBench.CrashRun c : crashes) {
            t.append(String.format(Locale.ROOT, "%-10s %5s %5d %7d %10s %10s %22s %16s %16s%n", c.tier(),
                    c.checkpointEvery() == null ? "-" : c.checkpointEvery().toString(), c.round(),
                    c.faultyInvocations(), Format.number(c.faultyMedianMs()), Format.number(c.detectionMedianMs()),
                    list(c.recoveryMs()), c.replayInputs().toString(), list(c.replayMs())));
        }
    }

    private static String range(ServiceBench.Spread s, String format) {
        return s == null ? "-" : String.format(Locale.ROOT, format + " [" + format + ", " + format + "]", s.median(),
                s.min(), s.max());
    }

    private static String list(List<Double> v) {
        return v.isEmpty() ? "-" : v.stream().map(x -> String.format(Locale.ROOT, "%.1f", x))
                .collect(Collectors.joining(", ", "[", "]"));
    }
}
