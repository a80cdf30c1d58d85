package org.ftlab.rm.api;

import org.ftlab.auction.api.AuctionService;

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
}
