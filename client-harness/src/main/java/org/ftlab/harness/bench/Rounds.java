package org.ftlab.harness.bench;

import picocli.CommandLine.Option;

/**
 * {@code --repeat}, {@code --requests} and {@code --warmup}: how many rounds the suites that repeat a measurement run,
 * and how many requests each client sends in one, untimed and timed. A picocli mixin of {@code ftlab bench}.
 */
public final class Rounds {
    @Option(names = "--repeat", paramLabel = "N", defaultValue = "5",
            description = "Rounds of the service suite and runs of the analysis (default ${DEFAULT-VALUE}).")
    int repeat;

    @Option(names = "--requests", paramLabel = "N", defaultValue = "1000",
            description = "Timed requests per client per workload and round in the service suite (default "
                    + "${DEFAULT-VALUE}), after --warmup untimed ones.")
    int requests;

    @Option(names = "--warmup", paramLabel = "N", defaultValue = "200",
            description = "Untimed requests per client before each timed measurement of the service and agreement "
                    + "suites (default ${DEFAULT-VALUE}; each suite also runs an untimed first round).")
    int warmup;

    /** Rounds of a suite that repeats its measurement, and runs of the analysis. */
    public int repeat() {
        return repeat;
    }

    /** Timed requests per client per workload and round. */
    public int requests() {
        return requests;
    }

    /** Untimed requests per client before each timed measurement. */
    public int warmup() {
        return warmup;
    }

    /** Checks the three; a bad one is an {@link IllegalArgumentException} that names it. */
    public void check() {
        if (requests < 10) {
            // the message the command has always given, the fail-over suite's counts with it
            throw new IllegalArgumentException("--requests must be at least 10, --crashes 1 to 100, --hangs 0 to 100");
        }
        if (warmup < 0 || warmup > 100_000) {
            throw new IllegalArgumentException("--warmup must be 0 to 100000, not " + warmup);
        }
        if (repeat < 1 || repeat > 100) {
            throw new IllegalArgumentException("--repeat must be between 1 and 100, not " + repeat);
        }
    }
}
