package org.ftlab.harness.grid;

import java.util.concurrent.CountDownLatch;

/**
 * The holds of a closed-loop block: for each stretch of the workload's order, the clients not yet done with its
 * measured requests. A client done with a stretch keeps sending its operation unmeasured (phase {@code hold}) until
 * every client of the block is, so that each measured request meets the same number of busy clients doing the same
 * thing, instead of a load that thins out as clients finish (without the hold, the last views of a 4-client block ran
 * up to 3× faster than the first, because the others had stopped).
 */
final class Holds {
    private final CountDownLatch[] notDone;

    Holds(int stretches, int clients) {
        notDone = new CountDownLatch[stretches];
        for (int k = 0; k < stretches; k++) {
            notDone[k] = new CountDownLatch(clients);
        }
    }

    /** A client is done with stretch {@code k} (or stops before it: an aborted client holds no one up). */
    void done(int k) {
        notDone[k].countDown();
    }

    /** Whether some client of the block is not done with stretch {@code k} yet. */
    boolean held(int k) {
        return notDone[k].getCount() > 0;
    }
}
