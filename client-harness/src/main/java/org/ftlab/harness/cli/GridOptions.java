package org.ftlab.harness.cli;

import org.ftlab.harness.grid.GridPlan;
import picocli.CommandLine.Option;

/** The options that change a grid profile's factor levels and counts, shared by {@code grid} and {@code demo}. */
public final class GridOptions {
    @Option(names = "--clients", paramLabel = "LIST", description = "Client counts, e.g. 1,4,7,10.")
    String clients;

    @Option(names = "--think", paramLabel = "LIST", description = "Think times in ms, e.g. 0,20,40.")
    String think;

    @Option(names = "--reply", paramLabel = "LIST", description = "Reply sizes, e.g. orig,256,512,1024.")
    String reply;

    @Option(names = "--posts", paramLabel = "N", description = "Post-auction invocations per client and configuration.")
    Integer posts;

    @Option(names = "--views", paramLabel = "N", description = "View-auction invocations per client and configuration.")
    Integer views;

    boolean any() {
        return clients != null || think != null || reply != null || posts != null || views != null;
    }

    /** {@code plan} with the given options applied. */
    GridPlan applyTo(GridPlan plan) {
        GridPlan p = plan;
        if (clients != null || think != null || reply != null) {
            p = p.withFactors(clients == null ? null : GridPlan.parseInts("--clients", clients),
                    think == null ? null : GridPlan.parseInts("--think", think),
                    reply == null ? null : GridPlan.parseReplies(reply));
        }
        if (posts != null || views != null) {
            p = p.withCounts(posts != null ? posts : p.postsPerClient(), views != null ? views : p.viewsPerClient());
        }
        return p;
    }
}
