package org.ftlab.harness.workload;

import java.nio.file.Path;
import java.util.List;
import org.ftlab.auction.api.RequestHeader;
import org.ftlab.harness.failover.Call;
import org.ftlab.harness.failover.FailoverClient;
import org.ftlab.harness.failover.Outcome;
import org.ftlab.harness.probe.Manifest;
import org.ftlab.harness.probe.ProbeTable;

/**
 * A workload, as Maelstrom and Jepsen make one: its operations (what a client sends), its generator (which operation
 * and arguments each request of a client carries) and its checker (what must hold once the run is over). The grid
 * runs any workload by its {@link #name()}, recorded in the run's manifest; {@code auction} (posts, then views,
 * checked exactly once in the database) is the service's. A new workload is a class of its own package, registered
 * for {@link java.util.ServiceLoader} in {@code META-INF/services/org.ftlab.harness.workload.Workload}.
 *
 * <p>The grid drives the load (closed or open loop, warm-up, hold, replicates, faults) and the probes; the workload
 * only says what each request is.
 */
public interface Workload {
    /** The name users give ({@code --workload}) and manifests record: lower case, no spaces. */
    String name();

    /**
     * The operations of a block, in the order its measured requests send them: one or two, whose counts per client
     * are the plan's {@code --posts} (the first) and {@code --views} (the second). Warm-up requests mix them in
     * those proportions.
     */
    List<String> operations();

    /**
     * Whether its requests may carry a sized reply ({@code --reply 256}: a payload in place of the reply's value); a
     * workload that reads its replies' values says no, and a grid with sized replies is refused for it.
     */
    default boolean takesSizedReplies() {
        return true;
    }

    /**
     * Prepares the system before the run's clients open, on the lab whose run directory is {@code labRunDir} (the
     * bids workload on the stateful tier starts a run of it there). Nothing by default.
     */
    default void begin(Path labRunDir) throws Exception {
    }

    /** This workload's state for one client of the run, set up once before anything is measured. */
    Client open(ClientSession session) throws Exception;

    /** What must hold after the run. */
    Checker checker();

    /**
     * This workload given {@code parameters} (null: none, the workload's defaults); a workload that takes none of
     * those given refuses them in one line.
     */
    default Workload configured(Manifest.WorkloadParameters parameters) {
        if (parameters != null && parameters.hotAuctions() != null) {
            throw new IllegalArgumentException("--hot-auctions is the bids workload's; workload " + name()
                    + " has no hot auctions");
        }
        if (parameters != null && parameters.onStatefulTier()) {
            throw new IllegalArgumentException("--tier stateful runs the bids workload (add --bids N); workload "
                    + name() + " runs on the stateless tier only");
        }
        return this;
    }

    /** One client's generator: the next request of an operation, prepared off the timed path. */
    interface Client {
        /**
         * The request of operation {@code operation} (an index into {@link #operations()}) with {@code header}
         * (the client's next sequence number and the configuration's reply size); {@code tag} names the block.
         * Called from one thread per client; in open loop the requests it returns run concurrently.
         */
        Request next(int operation, RequestHeader header, String tag);
    }

    /** One request, ready to send. */
    interface Request {
        /** The operation's method name, as probe files record it. */
        String method();

        /** Sends it through the client's fail-over client: the timed path. */
        Outcome<?> invoke(FailoverClient client) throws Exception;

        /**
         * The same request as a shadow (its header's {@code shadow()}: rolled back, never stored), which the client
         * may send to backups after this one was answered (shadow traffic, {@code --shadow}); null when the
         * operation has none.
         */
        default Call<?> shadow() {
            return null;
        }

        /**
         * A digest of a successful invocation's reply, recorded in its probe row ({@code reply_digest}) for a replay
         * oracle to hold the run to; null (the default) for an operation whose replies no oracle replays.
         */
        default String replyDigest(Outcome<?> outcome) {
            return null;
        }

        /** After a successful invocation: what the generator keeps from its result (say, an auction to view later). */
        default void completed(Outcome<?> outcome) {
        }
    }

    /** The checker: what must hold in the system after the run, given every request the clients completed. */
    interface Checker {
        /** Checks a run whose lab recorded its database in {@code runDir}; {@code tables}: one per client. */
        Verdict check(Path runDir, List<ProbeTable> tables) throws Exception;
    }

    /**
     * A checker's verdict: how many requests it checked ({@code unit}: {@code posts}), what holds for each when it
     * passed ({@code property}), and what was wrong (empty when nothing).
     */
    record Verdict(int checked, String unit, String property, List<String> problems, String oracle) {
        public Verdict(int checked, String unit, String property, List<String> problems) {
            this(checked, unit, property, problems, null);
        }

        public boolean passed() {
            return problems.isEmpty();
        }

        /**
         * One line: the verdict and, when it failed, the first problem; then, where a replay oracle judged the run
         * too (the stateful tier), its finding, failed or not.
         */
        public String summary() {
            String line = passed() ? "audit: " + checked + " " + unit + ", " + property
                    : "audit FAILED: " + problems.size() + " problems in " + checked + " " + unit + ", first: "
                            + problems.get(0);
            return oracle == null ? line : line + "\n" + oracle;
        }
    }
}
