package org.ftlab.rm.api;

/**
 * Where a running manager listens and the token its requests need: {@code rm.json} in the run directory (mode 600,
 * written atomically once the lab is ready).
 */
public record ManagerEndpoint(String url, long pid, String token) {
    public static final String FILE = "rm.json";

    /** The manager's main class, which a client starts as a child JVM on its own class path. */
    public static final String MAIN_CLASS = "org.ftlab.rm.ReplicationManagerMain";
}
