package org.ftlab.harness.cli;

import java.util.List;
import org.ftlab.harness.grid.GridPlan;
import picocli.CommandLine.Option;

/** The options that change a grid profile's factor levels, counts and design, shared by {@code grid} and {@code demo}. */
public final class GridOptions {
    @Option(names = "--clients", paramLabel = "LIST", description = "Client counts, e.g. 1,4,7,10.")
    String clients;

    @Option(names = "--think", paramLabel = "LIST", description = "Think times in ms, e.g. 0,20,40 (closed loop).")
    String think;

    @Option(names = "--reply", paramLabel = "LIST", description = "Reply sizes, e.g. orig,256,512,1024.")
    String reply;

    @Option(names = "--posts", paramLabel = "N", description = "Post-auction invocations per client and configuration.")
    Integer posts;

    @Option(names = "--views", paramLabel = "N", description = "View-auction invocations per client and configuration.")
    Integer views;

    @Option(names = "--warmup", paramLabel = "N", description = "Warm-up requests per client before each "
            + "configuration's measured ones, in the configuration's own mix; kept in the probe files (phase warmup) "
            + "and left out of every statistic (default: " + GridPlan.DEFAULT_WARMUP_PER_CLIENT + ").")
    Integer warmup;

    @Option(names = "--lab-warmup", paramLabel = "N", description = "Requests per client, in every method and reply "
            + "size, that warm a new lab up before the first configuration; kept in probes/warmup/, never measured "
            + "(default: " + GridPlan.DEFAULT_LAB_WARMUP_PER_CLIENT + "; 0: none).")
    Integer labWarmup;

    @Option(names = "--order", paramLabel = "ORDER", description = "random (default): every (configuration, "
            + "replicate) block in an order drawn from --seed; sequential: grid order.")
    String order;

    @Option(names = "--seed", paramLabel = "N", description = "Seed of the random order and of Poisson arrivals "
            + "(default: drawn; always recorded in manifest.json).")
    Long seed;

    @Option(names = "--repeat", paramLabel = "R", description = "Run every configuration R times, each replicate a "
            + "block of its own (default: 1). R >= 2 gives the factorial ANOVA.")
    Integer repeat;

    @Option(names = "--arrival", paramLabel = "KIND", description = "closed (default, as in the seeds: send, wait "
            + "for the reply, think), or open loop: uniform (every 1/rate s) or poisson (exponential gaps).")
    String arrival;

    @Option(names = "--rate", paramLabel = "LIST", description = "Open loop: requests per second per client, e.g. "
            + "50,100; its levels replace the think-time factor.")
    String rate;

    boolean any() {
        return clients != null || think != null || reply != null || posts != null || views != null || warmup != null
                || order != null || seed != null || repeat != null || arrival != null || rate != null
                || labWarmup != null;
    }

    /** {@code plan} with the given options applied. */
    GridPlan applyTo(GridPlan plan) {
        GridPlan p = plan;
        GridPlan.Design d = p.design();
        GridPlan.Arrival arrivalKind = arrival == null ? d.arrival() : GridPlan.Arrival.parse(arrival);
        if (arrivalKind.open() && think != null) {
            throw new IllegalArgumentException("--think applies to closed-loop arrivals; an open-loop grid varies "
                    + "--rate instead");
        }
        List<Double> rates = rate == null ? (arrivalKind.open() ? d.ratesPerS() : List.of())
                : GridPlan.parseRates(rate);
        p = p.withDesign(new GridPlan.Design(warmup != null ? warmup : d.warmupPerClient(),
                repeat != null ? repeat : d.repeat(), order != null ? GridPlan.Order.parse(order) : d.order(),
                seed != null ? seed : d.seed(), arrivalKind, rates,
                labWarmup != null ? labWarmup : d.labWarmupPerClient()));
        if (clients != null || think != null || reply != null || arrivalKind.open()) {
            p = p.withFactors(clients == null ? null : GridPlan.parseInts("--clients", clients),
                    arrivalKind.open() ? List.of(0) : think == null ? null : GridPlan.parseInts("--think", think),
                    reply == null ? null : GridPlan.parseReplies(reply));
        }
        if (posts != null || views != null) {
            p = p.withCounts(posts != null ? posts : p.postsPerClient(), views != null ? views : p.viewsPerClient());
        }
        return p;
    }
}
