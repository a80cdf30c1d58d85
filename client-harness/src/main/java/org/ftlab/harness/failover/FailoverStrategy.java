package org.ftlab.harness.failover;

import org.ftlab.auction.api.AuctionException;

/**
 * How a client gets a reply to each request when replicas fail: where it sends the request, when it sends it
 * elsewhere, and what it counts as a failure. One class per strategy, registered in {@link Strategies}; each works
 * through a {@link ReplicaSet} (the client's connections, the view it follows, its suspicions and its adaptive
 * invocation timeout). The Replication Manager alone decides who is primary; a strategy only chooses where this
 * client's requests go.
 *
 * <p>Implementations must be safe for concurrent invocations (an open-loop client has several in flight), and must
 * send a request only with its own header, so that the service executes it once however many replicas receive it.
 */
public interface FailoverStrategy {
    /**
     * Invokes {@code call} until a replica answers it or the client's bound has passed.
     *
     * @param operation the operation's name (e.g. {@code postAuction}); policies that adapt to latency keep one
     *     history per operation
     * @throws AuctionException the service refused the request (an answer, not a failure)
     * @throws AllReplicasDownException no replica answered within the bound
     */
    <T> Outcome<T> invoke(String operation, Call<T> call) throws AuctionException, AllReplicasDownException;
}
