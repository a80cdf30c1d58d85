package org.ftlab.harness.failover;

import org.ftlab.auction.api.AuctionException;

/**
 * Seed 004's phase III client: one connection, to the primary. When a request fails there (an error, or no answer
 * within the invocation timeout), report it to the Replication Manager, wait until its view names another primary,
 * connect to it and send the request again.
 */
final class ReactiveStrategy implements FailoverStrategy {
    private final ReplicaSet replicas;

    ReactiveStrategy(ReplicaSet replicas) {
        this.replicas = replicas;
    }

    @Override
    public <T> Outcome<T> invoke(String operation, Call<T> call) throws AuctionException, AllReplicasDownException {
        return FailOver.currentThenRetry(replicas, operation, call, replicas::awaitNewPrimary);
    }
}
