package org.ftlab.harness.failover;

import java.io.IOException;
import java.util.concurrent.locks.LockSupport;
import javax.naming.NamingException;
import org.ftlab.auction.api.AuctionException;
import org.ftlab.auction.api.MicroClock;
import org.ftlab.harness.failover.ReplicaSet.Target;

/**
 * The retry loop every strategy ends in when the replica it chose failed a request: get another replica by the
 * strategy's {@link Chooser}, send the same request there, and repeat until one answers or the client's bound has
 * passed. The request keeps its header, so the service executes it once whatever the failed attempts did.
 */
final class FailOver {
    private FailOver() {
    }

    /**
     * What the attempts of a request so far left behind, where {@link #retry} takes over.
     *
     * @param firstFailed the replica the request was sent to first, which the phases name (when several copies
     *     failed, the first choice, not the copy whose failure came last)
     * @param failed the replica whose failure ended the attempts so far: where the chooser starts from
     * @param sentMicros when the request was first sent
     * @param detectedMicros when the client knew the first attempt had failed
     * @param failure the last attempt's failure
     * @param attempts attempts already made (the failed ones)
     */
    record Failed(String firstFailed, Target failed, long sentMicros, long detectedMicros, RuntimeException failure,
            int attempts) {
    }

    /** Where to send after {@code failed} failed; null when the deadline passed without a replica. */
    @FunctionalInterface
    interface Chooser {
        Target next(Target failed, long deadlineNanos) throws IOException, NamingException;
    }

    /**
     * Sends {@code call} to the current replica on the calling thread; when that fails, retries elsewhere with
     * {@code chooser}. What the reactive and pre-connected strategies do; they differ only in the chooser.
     */
    static <T> Outcome<T> currentThenRetry(ReplicaSet replicas, String operation, Call<T> call, Chooser chooser)
            throws AuctionException, AllReplicasDownException {
        long sent = MicroClock.nowEpochMicros();
        Target target = replicas.current();
        try {
            return Outcome.firstChoice(replicas.attempt(target, operation, call), target.name(), 1);
        } catch (RuntimeException failure) {
            return retry(replicas, operation, call, new Failed(target.name(), target, sent,
                    MicroClock.nowEpochMicros(), failure, 1), chooser);
        }
    }

    /**
     * Sends {@code call} elsewhere after the attempts {@code so} far failed, replica after replica by {@code chooser},
     * until one answers or the client's bound has passed.
     */
    static <T> Outcome<T> retry(ReplicaSet replicas, String operation, Call<T> call, Failed so, Chooser chooser)
            throws AuctionException, AllReplicasDownException {
        long deadline = replicas.giveUpDeadline();
        String firstFailed = so.firstFailed();
        Target failed = so.failed();
        long sentMicros = so.sentMicros();
        long detectedMicros = so.detectedMicros();
        RuntimeException last = so.failure();
        int attempts = so.attempts();
        while (System.nanoTime() < deadline && !replicas.closed()) {
            Target next;
            try {
                next = chooser.next(failed, deadline);
            } catch (IOException | NamingException | RuntimeException e) {
                last = new IllegalStateException(e.getMessage(), e);
                LockSupport.parkNanos(50_000_000L);
                continue;
            }
            if (next == null) {
                break;
            }
            long failedOver = MicroClock.nowEpochMicros();
            attempts++;
            try {
                T result = replicas.attempt(next, operation, call);
                long done = MicroClock.nowEpochMicros();
                return new Outcome<>(result, Outcome.Served.FAIL_OVER, new FailoverPhases(firstFailed,
                        detectedMicros - sentMicros, failedOver - detectedMicros, done - failedOver, attempts),
                        next.name(), attempts);
            } catch (RuntimeException again) {
                last = again;
                failed = next;
            }
        }
        throw new AllReplicasDownException("no replica answered for " + replicas.giveUpNanos() / 1_000_000_000.0
                + " s after " + firstFailed + " failed (" + attempts + " attempts); last failure: "
                + rootMessage(last), last);
    }

    static String rootMessage(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + ": " + root.getMessage();
    }
}
