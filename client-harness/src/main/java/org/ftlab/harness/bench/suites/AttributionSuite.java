package org.ftlab.harness.bench.suites;

import org.ftlab.rm.api.FaultKind;
import java.util.stream.Collectors;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.util.List;
import java.util.Locale;
import org.ftlab.harness.bench.AttributionBench;
import org.ftlab.harness.bench.BenchReport;
import org.ftlab.harness.bench.Plan;
import org.ftlab.harness.bench.Suite;
import org.ftlab.harness.bench.SuiteRun;

/**
 * {@code attribution}: {@link AttributionBench}'s stalls of known cause and the share the analysis names right, then
 * its pairs of blocks with and without observing; bench.json's {@code attribution} and {@code observation_cost}, and
 * their tables. Needs the lab's events, and a bench directory without an earlier bench's runs of it.
 */
public final class AttributionSuite implements Suite {
    /** The runs it keeps in the bench's directory, which an earlier bench's would mix with. */
    private static final List<String> RUNS = List.of("attribution", "observation-cost");

    private final AttributionOptions options = new AttributionOptions();

    @Override
    public String name() {
        return "attribution";
    }

    @Override
    public String description() {
        return "stalls of known cause (" + FaultKind.all().stream().filter(k -> k.cause().isPresent())
                .map(FaultKind::wireName).collect(Collectors.joining(", ")) + ") injected --stalls times each under "
                + "load, and the share "
                + "the analysis names right (recall, precision); then what observing costs, in --cost-pairs pairs of "
                + "blocks with and without it.";
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
    public void checkPlan(Plan plan) {
        if (!plan.observe().on()) {
            throw new IllegalArgumentException("--suites attribution needs events: leave out --observe off");
        }
        for (String run : RUNS) {
            if (Files.exists(plan.dir().resolve(run))) {
                throw new IllegalArgumentException("--out " + plan.dir() + " holds an earlier bench's " + run
                        + " run: give --out a new directory");
            }
        }
    }

    @Override
    public void run(SuiteRun run) throws Exception {
        BenchReport report = run.report();
        AttributionBench bench = new AttributionBench(run.lab(), run.dir(), run.progress());
        List<AttributionBench.KindResult> kinds = bench.run(options.stalls, options.stallPosts);
        report.put("attribution", kinds);
        attributionTable(report.table(), kinds);
        if (options.costPairs > 0) {
            AttributionBench.ObservationCost cost = bench.cost(options.costPairs, options.stallPosts);
            ObjectNode c = report.tree(cost);
            c.put("mean_within_target", cost.meanWithinTarget());
            c.put("p99_within_spread", cost.p99WithinSpread());
            report.put("observation_cost", c);
            costTable(report.table(), cost);
        }
    }

    private static void attributionTable(StringBuilder t, List<AttributionBench.KindResult> kinds) {
        t.append(String.format(Locale.ROOT, "%nattribution: stalls of known cause under load (docs/performance.md, "
                + "\"Attribution\"); targets: recall and precision >= 95%%%n%-8s %-20s %8s %8s %6s %8s %8s %6s "
                + "%10s %8s %18s%n", "kind", "expected cause", "injected", "delayed", "found", "recall", "named",
                "right", "precision", "natural", "precision+natural"));
        for (AttributionBench.KindResult k : kinds) {
            t.append(String.format(Locale.ROOT, "%-8s %-20s %8d %8d %6d %7.1f%% %8d %6d %9.1f%% %8d %17.1f%%%n",
                    k.kind(), k.expectedCause(), k.injected(), k.injected() - k.delayedNone(), k.found(),
                    100 * k.recall(), k.attributions(), k.right(), 100 * k.precision(), k.natural(),
                    100 * k.precisionWithNatural()));
            k.missed().forEach(m -> t.append("  missed ").append(m).append('\n'));
        }
    }

    private static void costTable(StringBuilder t, AttributionBench.ObservationCost c) {
        t.append(String.format(Locale.ROOT, "%nobservation cost: %d blocks alternating with and without events, "
                + "scheduler counters and lock-wait sampling (docs/performance.md §8); targets: mean <= 3%% more, "
                + "p99 within the replicate spread%n%-10s %12s %12s %8s%n", c.blocks().size(), "", "observed",
                "not", "ratio"));
        t.append(String.format(Locale.ROOT, "%-10s %12.1f %12.1f %8.3f  (pairs %.3f–%.3f) %s%n", "mean µs",
                c.meanObservedUs(), c.meanUnobservedUs(), c.meanRatio(), c.pairMeanRatioMin(), c.pairMeanRatioMax(),
                c.meanWithinTarget() ? "met" : "missed"));
        t.append(String.format(Locale.ROOT, "%-10s %12.0f %12.0f %8.3f  (unobserved %d–%d) %s%n", "p99 µs",
                c.p99ObservedUs(), c.p99UnobservedUs(), c.p99Ratio(), c.p99UnobservedMinUs(), c.p99UnobservedMaxUs(),
                c.p99WithinSpread() ? "met" : "missed"));
    }
}
