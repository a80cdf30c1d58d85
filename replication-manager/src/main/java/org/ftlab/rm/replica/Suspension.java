package org.ftlab.rm.replica;

import java.io.IOException;
import org.ftlab.os.access.ApplicationUser;

/**
 * WildFly's graceful suspend and resume of one replica, through its management interface (HTTP, digest
 * authentication as the lab's user). A suspended WildFly finishes the requests it has, accepts no new ones, and tells
 * remote EJB clients that its beans are unavailable, so WildFly's cluster-aware client sends them elsewhere with no
 * error (measured: no call reached a suspended member, none failed); resumed, it serves at once. What a lab of
 * WildFly's cluster keeps its spares in: members of the JGroups cluster that clients do not call.
 */
public final class Suspension {
    private Suspension() {
    }

    /** Suspends {@code replica}: it finishes its requests and takes no new ones. */
    public static void suspend(Replica replica, ApplicationUser user) throws IOException {
        operation(replica, user, "suspend");
    }

    /** Resumes {@code replica}: it serves again. */
    public static void resume(Replica replica, ApplicationUser user) throws IOException {
        operation(replica, user, "resume");
    }

    private static void operation(Replica replica, ApplicationUser user, String operation) throws IOException {
        Management.invoke(replica, user, operation, "[]");
    }
}
