package org.ftlab.harness.bench.suites;

import java.util.List;
import org.ftlab.harness.failover.Strategies;
import picocli.CommandLine.Option;

/** The fail-over suite's options: its crash and hang runs, then its fault-free blocks. A picocli mixin. */
public final class FailoverOptions {
    @Option(names = "--crashes", paramLabel = "N", defaultValue = "4",
            description = "Crashes per fail-over run (default ${DEFAULT-VALUE}); each waits for the previous repair "
                    + "and a booted spare.")
    int crashes;

    @Option(names = "--failover-clients", paramLabel = "LIST", split = ",", defaultValue = "1,10",
            description = "Client counts of the crash and hang runs (default ${DEFAULT-VALUE}); every strategy runs at "
                    + "the first, the pre-connected and hedged ones at the others.")
    List<Integer> clients;

    @Option(names = "--shadows", paramLabel = "LIST", split = ",", defaultValue = "0",
            description = "Shadow shares the crash and hang runs are repeated with (default ${DEFAULT-VALUE}: none; "
                    + "e.g. 0,0.5): each share's runs side by side, to weigh what shadow traffic buys at the hand-over "
                    + "against what it costs.")
    List<Double> shadows;

    @Option(names = "--failover-strategies", paramLabel = "LIST", split = ",",
            description = "Only these strategies in the crash and hang runs (default: every strategy at the first "
                    + "client count, pre-connected and hedged, and the baseline on a lab of WildFly's cluster, at the "
                    + "others).")
    List<String> strategies;

    @Option(names = "--hangs", paramLabel = "N", defaultValue = "4",
            description = "Hangs per hang run (default ${DEFAULT-VALUE}; 0: no hang runs).")
    int hangs;

    @Option(names = "--fault-free-minutes", paramLabel = "M", defaultValue = "10",
            description = "Fault-free minutes, split into alternating blocks of preconnected, hedged and active "
                    + "clients (default ${DEFAULT-VALUE}; 0: none).")
    double faultFreeMinutes;

    @Option(names = "--fault-free-clients", paramLabel = "N", defaultValue = "4",
            description = "Clients (no think time) of the fault-free blocks (default ${DEFAULT-VALUE}).")
    int faultFreeClients;

    /** Checks the options; a bad one is an {@link IllegalArgumentException} that names it. */
    void check() {
        if (clients.stream().anyMatch(c -> c < 1 || c > 50)) {
            throw new IllegalArgumentException("--failover-clients must be 1 to 50 each");
        }
        if (shadows.stream().anyMatch(x -> !(x >= 0 && x <= 1))) {
            throw new IllegalArgumentException("--shadows must be shares from 0 to 1 each (0.5: half the requests), "
                    + "was " + shadows);
        }
        if (faultFreeMinutes < 0 || faultFreeMinutes > 600 || faultFreeClients < 1 || faultFreeClients > 50) {
            throw new IllegalArgumentException("--fault-free-minutes must be 0 to 600 and --fault-free-clients 1 "
                    + "to 50");
        }
        if (crashes < 1 || crashes > 100 || hangs < 0 || hangs > 100) {
            // the message the command has always given, --requests with them
            throw new IllegalArgumentException("--requests must be at least 10, --crashes 1 to 100, --hangs 0 to 100");
        }
        strategyNames(); // an unknown name: one line listing the valid ones
    }

    /** The strategies {@code --failover-strategies} names, by their own names; null: not given. */
    List<String> strategyNames() {
        return strategies == null ? null : strategies.stream().map(s -> Strategies.named(s).name()).toList();
    }
}
