package org.ftlab.harness.failover;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.ftlab.auction.api.AuctionException;
import org.ftlab.auction.api.MicroClock;
import org.ftlab.harness.failover.ReplicaSet.Answer;
import org.ftlab.harness.failover.ReplicaSet.Target;

/**
 * Active replication as seed 000 compares it with warm passive: every request goes to every serving replica at once
 * and the first answer wins. The replicas share one database, where the request log keeps the request once: the
 * first transaction to log it commits, the others wait on its row lock, lose on the key and return the stored reply.
 * That database work, once per replica, is what this strategy costs (the report measures it). A replica still silent
 * after twice the hedged client's delay is {@linkplain ReplicaSet#askIfSilent checked by the manager}: if it hung in
 * the middle of a request, every copy waits on its row lock until it is fenced.
 */
final class ActiveStrategy implements FailoverStrategy {
    private final ReplicaSet replicas;
    private final PreconnectedStrategy fallback;

    ActiveStrategy(ReplicaSet replicas) {
        this.replicas = replicas;
        this.fallback = new PreconnectedStrategy(replicas);
    }

    @Override
    public <T> Outcome<T> invoke(String operation, Call<T> call) throws AuctionException, AllReplicasDownException {
        long sent = MicroClock.nowEpochMicros();
        List<Target> targets = replicas.serving();
        List<CompletableFuture<Answer<T>>> attempts = new ArrayList<>(targets.size());
        long askAfterMicros = 2 * replicas.hedgeDelay().currentMicros(operation);
        for (Target t : targets) {
            CompletableFuture<Answer<T>> attempt = replicas.attemptAsync(t, operation, call);
            attempts.add(attempt);
        }
        replicas.askIfSilent(targets, attempts, askAfterMicros);
        Answer<T> winner = Race.firstAnswer(attempts).join();
        int n = targets.size();
        Target first = targets.get(0);
        if (winner.failed()) {
            return FailOver.retry(replicas, operation, call, new FailOver.Failed(first.name(), winner.target(), sent,
                    winner.doneMicros(), winner.failure(), n), fallback::next);
        }
        return Race.outcome(winner, first, attempts.get(0), sent, n);
    }
}
