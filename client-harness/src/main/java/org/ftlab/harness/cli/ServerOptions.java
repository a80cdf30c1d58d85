package org.ftlab.harness.cli;

import java.io.IOException;
import java.nio.file.Path;
import org.ftlab.harness.lab.Home;
import picocli.CommandLine.Option;

/** {@code --server-dir}, shared by the commands that boot a lab: the provisioned replica server it boots from. */
public final class ServerOptions {
    @Option(names = "--server-dir", paramLabel = "DIR",
            description = "Provisioned replica server (default: app-ejb/target/server in the project).")
    Path dir;

    /** Whether {@code --server-dir} was given. */
    boolean given() {
        return dir != null;
    }

    /** The server to boot replicas from, checked (a missing one says how to build it). */
    Path server() throws IOException {
        return Home.replicaServer(dir);
    }
}
