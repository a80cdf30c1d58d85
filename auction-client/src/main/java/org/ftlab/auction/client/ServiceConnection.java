package org.ftlab.auction.client;

import javax.naming.NamingException;
import org.ftlab.auction.api.AuctionService;
import org.ftlab.rm.api.Platform;

/**
 * A connection to the auction service on one replica, over one middleware {@link Platform}, authenticated as the
 * run's application user and pinned to that replica: it never fails over by itself (fail-over is the clients'
 * strategies' job). A call that the replica refuses for a business reason throws the service's
 * {@code AuctionException}; any other failure (the replica crashed, hung past the invocation timeout, answered with a
 * server error) is a {@link RuntimeException}.
 */
public interface ServiceConnection extends AutoCloseable {
    AuctionService service();

    /** Bounds every later call: one that has not answered after {@code millis} fails (0: no bound). */
    void invocationTimeout(long millis);

    @Override
    void close();

    /**
     * A connection to the replica at {@code remotingUri} ({@code remote+http://host:port}, as the view names it)
     * through {@code platform}; with {@code invocationTimeoutMillis} &gt; 0 the connection is opened and checked here
     * (a ping), so a dead replica fails this call.
     */
    static ServiceConnection open(Platform platform, String remotingUri, String username, String password,
            long invocationTimeoutMillis) throws NamingException {
        return switch (platform) {
            case EJB -> ReplicaConnection.open(remotingUri, username, password, invocationTimeoutMillis);
            case REST -> HttpReplicaConnection.open(remotingUri, username, password, invocationTimeoutMillis);
        };
    }
}
