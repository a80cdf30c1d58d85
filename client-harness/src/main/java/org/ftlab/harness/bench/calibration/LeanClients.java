package org.ftlab.harness.bench.calibration;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The calibration's lean clients, registered here in the order they run in a round's first turn. */
public final class LeanClients {
    /** The external load generator's Go module and the version measured with, as {@code go install} takes it. */
    public static final String VEGETA_MODULE = "github.com/tsenart/vegeta/v12@v12.13.0";

    private LeanClients() {
    }

    /**
     * Vegeta at {@code vegeta} (given, or else found on the {@code PATH}; it writes under {@code workDir}), then the
     * bare loops. Without vegeta, {@code notes} gets a line saying how to install it.
     */
    public static List<LeanClient> all(Optional<Path> vegeta, Path workDir, List<String> notes) {
        List<LeanClient> clients = new ArrayList<>();
        Optional<Path> v = vegeta.or(Vegeta::onPath);
        if (v.isPresent()) {
            clients.add(new Vegeta(v.get(), workDir));
        } else {
            notes.add("no external load generator: vegeta is not on the PATH (install it with " + Vegeta.INSTALL
                    + ", or give --vegeta PATH)");
        }
        clients.add(new JdkHttpLoop());
        clients.add(new ApacheHttpLoop());
        clients.add(new BareEjbLoop());
        return clients;
    }
}
