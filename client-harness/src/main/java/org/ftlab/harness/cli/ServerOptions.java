package org.ftlab.harness.cli;

import java.io.IOException;
import java.nio.file.Path;
import org.ftlab.harness.lab.Home;
import org.ftlab.rm.api.Observe;
import picocli.CommandLine.Option;

/**
 * {@code --server-dir} and {@code --observe}, shared by the commands that boot a lab: the provisioned replica server it
 * boots from, and whether its JVMs (and this one) record events for the analysis of slow requests.
 */
public final class ServerOptions {
    @Option(names = "--server-dir", paramLabel = "DIR",
            description = "Provisioned replica server (default: app-ejb/target/server in the project).")
    Path dir;

    @Option(names = "--observe", paramLabel = "on|off", defaultValue = "${env:" + Observe.ENV + ":-on}",
            description = "on: every JVM of the lab and this one record JDK Flight Recorder events, which 'ftlab "
                    + "analyze' joins to slow requests (docs/analysis.md); off: none (default: ${DEFAULT-VALUE}).")
    String observe;

    /** {@code --observe}, checked. */
    Observe observe() {
        return Observe.parse(observe);
    }

    /** Whether {@code --server-dir} was given. */
    boolean given() {
        return dir != null;
    }

    /** The server to boot replicas from, checked (a missing one says how to build it). */
    Path server() throws IOException {
        return Home.replicaServer(dir);
    }
}
