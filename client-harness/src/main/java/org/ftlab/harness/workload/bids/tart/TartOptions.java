package org.ftlab.harness.workload.bids.tart;

import java.util.List;
import picocli.CommandLine.Option;

/** The tart suite's options: its parts, its rounds and clients, its overhead runs and its crash runs. A mixin. */
public final class TartOptions {
    @Option(names = "--tart-rounds", paramLabel = "N", defaultValue = "2",
            description = "Rounds of the tart suite (default ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--tart-parts", paramLabel = "LIST", split = ",", defaultValue = "overhead,crashes",
            description = "Parts of the tart suite: overhead (the arms at each spread), crashes (fail-over against "
                    + "the checkpoint interval); default ${DEFAULT-VALUE}.")
    List<String> parts;

    @Option(names = "--tart-spreads", paramLabel = "LIST", split = ",", defaultValue = "0,5,9",
            description = "Work variabilities of the tart suite (--work-spread levels, 0 to 9; default "
                    + "${DEFAULT-VALUE}).")
    List<Integer> spreads;

    @Option(names = "--tart-bids", paramLabel = "N", defaultValue = "500",
            description = "Bids per client per block in the tart suite's overhead runs (default ${DEFAULT-VALUE}).")
    int bids;

    @Option(names = "--tart-clients", paramLabel = "N", defaultValue = "4",
            description = "Clients of the tart suite (default ${DEFAULT-VALUE}).")
    int clients;

    @Option(names = "--tart-intervals", paramLabel = "LIST", split = ",", defaultValue = "100,500,2000",
            description = "Checkpoint intervals (inputs) of the tart suite's crash runs; empty: none (default "
                    + "${DEFAULT-VALUE}).")
    List<Integer> intervals;

    @Option(names = "--tart-crash-bids", paramLabel = "N", defaultValue = "1400",
            description = "Bids per client in each of the tart suite's crash runs (default ${DEFAULT-VALUE}: its "
                    + "crashes, at a third and two thirds of the bids, fall between checkpoints of every interval "
                    + "of the default list, not on one).")
    int crashBids;

    /** Checks the options; a bad one is an {@link IllegalArgumentException} that names it. */
    void check() {
        if (rounds < 1 || rounds > 50 || clients < 1 || clients > 50 || bids < 10 || bids > 100_000
                || crashBids < 100 || crashBids > 100_000) {
            throw new IllegalArgumentException("--tart-rounds must be 1 to 50, --tart-clients 1 to 50, --tart-bids 10 "
                    + "to 100000 and --tart-crash-bids 100 to 100000");
        }
        if (parts.isEmpty() || parts.stream().anyMatch(x -> !x.equals("overhead") && !x.equals("crashes"))) {
            throw new IllegalArgumentException("--tart-parts must be overhead, crashes or both, was " + parts);
        }
        if (spreads.isEmpty() || spreads.stream().anyMatch(x -> x < 0 || x > 9)) {
            throw new IllegalArgumentException("--tart-spreads must be work spreads 0 to 9 each, was " + spreads);
        }
        if (intervals.stream().anyMatch(x -> x < 1 || x > 1_000_000)) {
            throw new IllegalArgumentException("--tart-intervals must be checkpoint intervals 1 to 1000000 each, was "
                    + intervals);
        }
    }
}
