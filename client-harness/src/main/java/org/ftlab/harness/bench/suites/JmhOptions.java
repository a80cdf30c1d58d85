package org.ftlab.harness.bench.suites;

import picocli.CommandLine.Option;

/** The jmh suite's option: the length of JMH's iterations. A picocli mixin. */
public final class JmhOptions {
    @Option(names = "--jmh-iteration-ms", paramLabel = "MS", defaultValue = "1000",
            description = "Length of each of JMH's 3 warm-up and 5 measured iterations per benchmark, ms (default: "
                    + "${DEFAULT-VALUE}; shorter gives a quick, noisier look).")
    int iterationMillis;

    /** Checks the option; a bad one is an {@link IllegalArgumentException} that names it. */
    void check() {
        if (iterationMillis < 10 || iterationMillis > 60_000) {
            throw new IllegalArgumentException("--jmh-iteration-ms must be 10 to 60000, was " + iterationMillis);
        }
    }
}
