package org.ftlab.harness.failover;

import org.ftlab.auction.api.AuctionException;
import org.ftlab.auction.api.AuctionService;

/**
 * A remote call that can be sent to any replica. It must send the same request header every time it is called: a
 * strategy may send it to several replicas, and the header's {@code (clientId, seq)} is what makes the service
 * execute it once.
 */
@FunctionalInterface
public interface Call<T> {
    T invoke(AuctionService service) throws AuctionException;
}
