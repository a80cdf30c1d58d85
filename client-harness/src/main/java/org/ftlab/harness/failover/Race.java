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

    /** Whether {@code attempt} has completed with a failure by now. */
    static <T> boolean failedAlready(CompletableFuture<Answer<T>> attempt) {
        return attempt.isDone() && attempt.join().failed();
    }
}
