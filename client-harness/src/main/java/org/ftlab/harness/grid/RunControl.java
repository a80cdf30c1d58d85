package org.ftlab.harness.grid;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.ftlab.harness.failover.PluginFailure;

/**
 * Whether a run goes on, shared by all its parts: it stops when asked to (an abort: Ctrl-C, or a benchmark's stop)
 * or at the first breach of a plug-in strategy's contract, which the run keeps to record as its error.
 */
final class RunControl {
    private volatile boolean aborted;
    /** The first breach of a plug-in strategy's contract: it stops the run. */
    private volatile PluginFailure pluginFailure;

    /** Asks the run to stop after the requests in flight. */
    void abort() {
        aborted = true;
    }

    boolean aborted() {
        return aborted;
    }

    boolean going() {
        return !aborted;
    }

    /** Records the first plug-in failure (null: none) and stops the run. */
    void pluginFailed(PluginFailure f) {
        if (f != null && pluginFailure == null) {
            pluginFailure = f;
            aborted = true;
        }
    }

    /** The first plug-in failure of the run; null when none. */
    PluginFailure pluginFailure() {
        return pluginFailure;
    }

    /**
     * The clients' results once every client is done; if a plug-in strategy breaks its contract meanwhile (a client
     * may be stuck in it for good), the results of the clients that are done, and the run is aborted.
     */
    <T> List<T> await(List<Future<T>> futures, List<GridClient> clients)
            throws InterruptedException, ExecutionException {
        List<T> results = new ArrayList<>();
        for (Future<T> f : futures) {
            while (!f.isDone() && pluginFailure == null) {
                try {
                    f.get(100, TimeUnit.MILLISECONDS);
                } catch (TimeoutException e) {
                    clients.forEach(c -> pluginFailed(c.session().client.pluginFailure()));
                }
            }
            if (f.isDone() && !f.isCancelled()) {
                results.add(f.get());
            }
        }
        return results;
    }
}
