package org.ftlab.harness.bench.suites;

import picocli.CommandLine.Option;

/** The analysis suite's option: the size of its synthetic run. A picocli mixin. */
public final class AnalysisOptions {
    @Option(names = "--requests-per-method", paramLabel = "N", defaultValue = "5000",
            description = "Posts and views per client in the synthetic run (default ${DEFAULT-VALUE}, the full "
                    + "profile).")
    int requestsPerMethod;

    /** Checks the option; a bad one is an {@link IllegalArgumentException} that names it. */
    void check() {
        if (requestsPerMethod < 1 || requestsPerMethod > 100_000) {
            throw new IllegalArgumentException("--requests-per-method must be between 1 and 100000, not "
                    + requestsPerMethod);
        }
    }
}
