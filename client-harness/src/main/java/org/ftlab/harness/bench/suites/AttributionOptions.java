package org.ftlab.harness.bench.suites;

import picocli.CommandLine.Option;

/** The attribution suite's options: its stalls, and its pairs of blocks that weigh what observing costs. A mixin. */
public final class AttributionOptions {
    @Option(names = "--stalls", paramLabel = "N", defaultValue = "10",
            description = "Stalls of each kind in the attribution suite, one of each per block (default "
                    + "${DEFAULT-VALUE}).")
    int stalls;

    @Option(names = "--stall-posts", paramLabel = "N", defaultValue = "2000",
            description = "Posts per client in each block of the attribution suite (default ${DEFAULT-VALUE}: "
                    + "several seconds, so that the block's stalls are apart).")
    int stallPosts;

    @Option(names = "--cost-pairs", paramLabel = "N", defaultValue = "5",
            description = "Pairs of blocks (one observed, one not) measuring what observing costs, after the "
                    + "attribution suite's stalls (default ${DEFAULT-VALUE}; 0 skips it); each block has "
                    + "--stall-posts requests per client, half posts and half views.")
    int costPairs;

    /** Checks the options; a bad one is an {@link IllegalArgumentException} that names it. */
    void check() {
        if (stalls < 1 || stalls > 200 || stallPosts < 500 || stallPosts > 100_000) {
            throw new IllegalArgumentException("--stalls must be 1 to 200 and --stall-posts 500 to 100000");
        }
        if (costPairs < 0 || costPairs > 100) {
            throw new IllegalArgumentException("--cost-pairs must be 0 to 100, not " + costPairs);
        }
    }
}
