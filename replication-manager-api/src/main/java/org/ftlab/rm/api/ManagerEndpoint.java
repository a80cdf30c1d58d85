package org.ftlab.rm.api;

import java.util.List;

/**
 * Where a running manager listens and the token its requests need: {@code rm.json} in the run directory (mode 600,
 * written atomically once the lab is ready, and again by each new leader of a lab of several managers).
 *
 * @param url the manager that leads (the lab's one manager, or the leader when it wrote the file)
 * @param pid its process
 * @param members every manager's address, the leader's included (one: a lab of one manager); a member that does not
 *     lead answers 421 with the leader's address
 */
public record ManagerEndpoint(String url, long pid, String token, List<String> members) {
    public static final String FILE = "rm.json";

    public ManagerEndpoint {
        members = members == null || members.isEmpty() ? List.of(url) : List.copyOf(members);
    }

    /** A lab of one manager. */
    public ManagerEndpoint(String url, long pid, String token) {
        this(url, pid, token, List.of(url));
    }

    /**
     * The environment variable that gives every member of a lab of several managers the token they share (never the
     * command line, which ps shows).
     */
    public static final String TOKEN_ENV = "FTLAB_MANAGER_TOKEN";

    /**
     * The response header in which a manager names the term it answers in; a client that has seen a higher term
     * ignores the answer (a deposed leader's, with a view the others have moved on from) and asks the others.
     */
    public static final String TERM_HEADER = "X-Ftlab-Term";

    /** The manager's main class, which a client starts as a child JVM on its own class path. */
    public static final String MAIN_CLASS = "org.ftlab.rm.ReplicationManagerMain";
}
