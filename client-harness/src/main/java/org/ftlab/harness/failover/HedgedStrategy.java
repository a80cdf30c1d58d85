package org.ftlab.harness.failover;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.ftlab.auction.api.AuctionException;
import org.ftlab.auction.api.MicroClock;
import org.ftlab.harness.failover.ReplicaSet.Answer;
import org.ftlab.harness.failover.ReplicaSet.Target;

/**
 * Hedged requests (Dean and Barroso, "The Tail at Scale"): send to the current replica; if it has not answered after
 * the {@link HedgeDelay hedge delay}, send the same request (same header) to the ready standby and take the first
 * answer. The request log makes the second copy safe: the service executes the request once however many replicas
 * receive it.
 *
 * <p>A hedge is not a fail-over. Only when the first replica fails the request (an error, or no answer within the
 * invocation timeout, even after the hedge has answered) does the client suspect it, report it and move its requests
 * to the standby; the Replication Manager still decides who is primary. When the first replica is still silent a
 * further hedge delay after the hedge went out, the client {@linkplain ReplicaSet#askIfSilent asks the manager to
 * check it}: a hung primary's open transaction would otherwise hold up the hedge until the hang is detected.
 */
final class HedgedStrategy implements FailoverStrategy {
    private final ReplicaSet replicas;
    private final PreconnectedStrategy fallback;

    HedgedStrategy(ReplicaSet replicas) {
        this.replicas = replicas;
        this.fallback = new PreconnectedStrategy(replicas);
    }

    @Override
    public <T> Outcome<T> invoke(String operation, Call<T> call) throws AuctionException, AllReplicasDownException {
        long sent = MicroClock.nowEpochMicros();
        Target first = replicas.current();
        long delayMicros = replicas.hedgeDelay().currentMicros(operation);
        CompletableFuture<Answer<T>> a = replicas.attemptAsync(first, operation, call);
        Answer<T> answer = await(a, delayMicros);
        if (answer == null) {
            replicas.askIfSilent(first, a, delayMicros);
        }
        Target second = answer == null ? replicas.standby(first) : null;
        if (answer == null && second == null) {
            answer = a.join(); // nothing to hedge to: wait for the first replica (bounded by the invocation timeout)
        }
        if (answer != null) {
            if (!answer.failed()) {
                return Outcome.firstChoice(Race.resultOf(answer), first.name(), 1);
            }
            return FailOver.retry(replicas, operation, call, new FailOver.Failed(first.name(), first, sent,
                    answer.doneMicros(), answer.failure(), 1), fallback::next);
        }
        CompletableFuture<Answer<T>> b = replicas.attemptAsync(second, operation, call);
        Answer<T> winner = Race.firstAnswer(List.of(a, b)).join();
        if (winner.failed()) {
            // both failed: the phases name the first choice; the search for a replica starts past the hedge's
            return FailOver.retry(replicas, operation, call, new FailOver.Failed(first.name(), second, sent,
                    winner.doneMicros(), winner.failure(), 2), fallback::next);
        }
        return Race.outcome(winner, first, a, sent, 2);
    }

    /** The attempt's answer if it comes within {@code micros}, else null. */
    private static <T> Answer<T> await(CompletableFuture<Answer<T>> attempt, long micros) {
        try {
            return attempt.get(micros, TimeUnit.MICROSECONDS);
        } catch (TimeoutException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return attempt.join();
        } catch (ExecutionException e) {
            throw new IllegalStateException("an attempt future never completes exceptionally", e);
        }
    }
}
