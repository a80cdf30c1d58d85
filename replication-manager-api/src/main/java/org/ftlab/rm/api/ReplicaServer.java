package org.ftlab.rm.api;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The replica server Maven provisions (app-ejb/target/server): WildFly with the service deployed. */
public final class ReplicaServer {
    private ReplicaServer() {
    }

    /**
     * The same server with WildFly's high-availability subsystems, which Maven provisions beside {@code serverHome}
     * (app-ejb/target/server-ha): what a lab with WildFly's own clustering runs.
     */
    public static Path clusterHome(Path serverHome) {
        Path home = serverHome.toAbsolutePath().normalize();
        return home.resolveSibling(home.getFileName() + "-ha");
    }

    /** Checks that {@code serverHome} holds a provisioned server; the error says how to build one. */
    public static void checkProvisioned(Path serverHome) throws IOException {
        if (!Files.isRegularFile(serverHome.resolve("jboss-modules.jar"))
                || !Files.isRegularFile(serverHome.resolve("standalone/deployments/app-ejb.war"))) {
            throw new IOException("no provisioned replica server at " + serverHome
                    + "; build it with 'mvn -DskipTests install' in the project root");
        }
    }
}
