package org.ftlab.harness.failover;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.ftlab.auction.api.AuctionException;
import org.ftlab.harness.failover.ReplicaSet.Answer;

/** The first answer among attempts of one request sent to several replicas. */
final class Race {
    private Race() {
    }

    /**
     * Completes with the first attempt that answered (a result or a business refusal), or, when every attempt
     * failed, with the last failure.
     */
    static <T> CompletableFuture<Answer<T>> firstAnswer(List<CompletableFuture<Answer<T>>> attempts) {
        CompletableFuture<Answer<T>> first = new CompletableFuture<>();
        AtomicInteger pending = new AtomicInteger(attempts.size());
        for (CompletableFuture<Answer<T>> a : attempts) {
            a.thenAccept(answer -> {
                if (!answer.failed()) {
                    first.complete(answer);
                } else if (pending.decrementAndGet() == 0) {
                    first.complete(answer);
                }
            });
        }
        return first;
    }

    /** The answer's result, or its refusal thrown. */
    static <T> T resultOf(Answer<T> answer) throws AuctionException {
        if (answer.refusal() != null) {
            throw answer.refusal();
        }
        return answer.result();
    }

    /**
     * The outcome of a request sent to {@code sentTo} replicas, {@code first} the first choice: {@code winner} is
     * the answer that came first. Another replica's answer is a hedge while the first choice has not failed the
     * request, a fail-over once it has; its phases are the wait before that replica was sent the request, no
     * fail-over time, and that replica's own time.
     */
    static <T> Outcome<T> outcome(Answer<T> winner, ReplicaSet.Target first, CompletableFuture<Answer<T>> firstAttempt,
            long sentMicros, int sentTo) throws AuctionException {
        T result = resultOf(winner);
        if (winner.target() == first) {
            return new Outcome<>(result, Outcome.Served.FIRST_CHOICE, null, first.name(), sentTo);
        }
        boolean firstFailed = firstAttempt.isDone() && firstAttempt.join().failed();
        return new Outcome<>(result, firstFailed ? Outcome.Served.FAIL_OVER : Outcome.Served.HEDGE,
                new FailoverPhases(first.name(), winner.sentMicros() - sentMicros, 0,
                        winner.doneMicros() - winner.sentMicros(), sentTo), winner.target().name(), sentTo);
    }
}
