package org.ftlab.harness.failover;

import java.io.IOException;
import javax.naming.NamingException;
import org.ftlab.auction.api.AuctionException;
import org.ftlab.harness.failover.ReplicaSet.Target;

/**
 * Seed 004's phase IV client: ready connections to the backups. When a request fails on the current replica, switch
 * at once to the next backup in the view and send it again there; the suspicion is reported in the background. Only
 * when no backup is ready does it wait for the Replication Manager, as the reactive client does.
 */
final class PreconnectedStrategy implements FailoverStrategy {
    private final ReplicaSet replicas;

    PreconnectedStrategy(ReplicaSet replicas) {
        this.replicas = replicas;
    }

    @Override
    public <T> Outcome<T> invoke(String operation, Call<T> call) throws AuctionException, AllReplicasDownException {
        return FailOver.currentThenRetry(replicas, operation, call, this::next);
    }

    /** The ready standby; without one, the reactive way. Shared with the strategies that build on this one. */
    Target next(Target failed, long deadlineNanos) throws IOException, NamingException {
        Target t = replicas.failedOver(failed);
        return t != null ? t : replicas.awaitNewPrimary(failed, deadlineNanos);
    }
}
