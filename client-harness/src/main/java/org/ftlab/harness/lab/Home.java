package org.ftlab.harness.lab;

import java.io.IOException;
import java.nio.file.Path;
import org.ftlab.rm.api.ReplicaServer;

/** The project root: set by scripts/ftlab ({@code -Dftlab.home}); the working directory otherwise. */
public final class Home {
    private Home() {
    }

    /**
     * The provisioned replica server: {@code override} (a --server-dir option) or app-ejb/target/server in the
     * project; checked, with a message that says how to build it.
     */
    public static Path replicaServer(Path override) throws IOException {
        Path server = override != null ? override : path().resolve("app-ejb/target/server");
        ReplicaServer.checkProvisioned(server);
        return server;
    }

    public static Path path() {
        String home = System.getProperty("ftlab.home");
        return Path.of(home == null ? "." : home).toAbsolutePath().normalize();
    }
}
