package org.ftlab.rm.api;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The replica server Maven provisions (app-ejb/target/server): WildFly with the service deployed. */
public final class ReplicaServer {
    private ReplicaServer() {
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
