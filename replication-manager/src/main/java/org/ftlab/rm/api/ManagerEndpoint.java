package org.ftlab.rm.api;

/**
 * Where a running manager listens and the token its requests need: {@code rm.json} in the run directory (mode 600,
 * written atomically once the lab is ready).
 */
public record ManagerEndpoint(String url, long pid, String token) {
    public static final String FILE = "rm.json";
}
