package org.ftlab.harness.bench.suites;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;

/** The calibration suite's options: its rate, rounds and connections, and where vegeta is. A mixin. */
public final class CalibrationOptions {
    @Option(names = "--calibration-rate", paramLabel = "PER_S", defaultValue = "200",
            description = "Requests per second of every client of the calibration suite, all its connections "
                    + "together (default ${DEFAULT-VALUE}).")
    int ratePerS;

    @Option(names = "--calibration-seconds", paramLabel = "S", defaultValue = "30",
            description = "How long each client sends in one round of the calibration suite (default "
                    + "${DEFAULT-VALUE}).")
    int seconds;

    @Option(names = "--calibration-rounds", paramLabel = "N", defaultValue = "3",
            description = "Rounds of the calibration suite, each client once per door in each (default "
                    + "${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--calibration-connections", paramLabel = "N", defaultValue = "4",
            description = "Connections every client of the calibration suite sends from at once (ftlab's: one "
                    + "client each; default ${DEFAULT-VALUE}).")
    int connections;

    @Option(names = "--vegeta", paramLabel = "PATH",
            description = "The vegeta executable the calibration suite holds ftlab's HTTP client against (default: "
                    + "vegeta on the PATH, if any; without one the suite runs and says so).")
    Path vegeta;

    /** Checks the options; a bad one is an {@link IllegalArgumentException} that names it. */
    void check() {
        if (ratePerS < 1 || ratePerS > 5_000) {
            throw new IllegalArgumentException("--calibration-rate must be 1 to 5000 requests per second, not "
                    + ratePerS);
        }
        if (seconds < 1 || seconds > 3_600) {
            throw new IllegalArgumentException("--calibration-seconds must be 1 to 3600, not " + seconds);
        }
        if (rounds < 1 || rounds > 100) {
            throw new IllegalArgumentException("--calibration-rounds must be 1 to 100, not " + rounds);
        }
        if (connections < 1 || connections > 99 || connections > ratePerS) {
            throw new IllegalArgumentException("--calibration-connections must be 1 to 99 and at most "
                    + "--calibration-rate, not " + connections);
        }
        if (vegeta != null && !(Files.isRegularFile(vegeta) && Files.isExecutable(vegeta))) {
            throw new IllegalArgumentException("--vegeta " + vegeta + " is not an executable file: give the path "
                    + "of vegeta, or leave the option out");
        }
    }

    Optional<Path> vegeta() {
        return Optional.ofNullable(vegeta);
    }
}
