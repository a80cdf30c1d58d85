package org.ftlab.harness.workload;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.ServiceLoader;
import java.util.function.Supplier;
import org.ftlab.auction.api.RequestHeader;
import org.ftlab.harness.failover.Call;
import org.ftlab.harness.failover.FailoverClient;
import org.ftlab.harness.failover.Outcome;
import org.ftlab.harness.history.History;
import org.ftlab.harness.history.Invocation;
import org.ftlab.harness.history.check.Model;
import org.ftlab.harness.probe.ProbeTable;
import org.ftlab.rm.api.FailureRecord;

/**
 * A workload, as Maelstrom and Jepsen make one: its operations (what a client sends), its generator (which operation
 * and arguments each request of a client carries) and its checker (what must hold once the run is over). The grid
 * runs any workload by its {@link #name()}, recorded in the run's manifest; {@code auction} (posts, then views,
 * checked exactly once in the database) is the service's. A new workload is a class of its own package, registered
 * for {@link ServiceLoader} in {@code META-INF/services/org.ftlab.harness.workload.Workload}.
 *
 * <p>A workload is one part: besides what each request is, it owns the order of its operations ({@link #order}), the
 * options it adds to {@code ftlab grid} ({@link #options()}) and the parameters they give it, which the manifest
 * records and the workload reads back ({@link #configured}), what it prepares before a run ({@link #begin}) and
 * keeps after it ({@link #ended}), and the columns it adds to the side-by-side view of runs ({@link #columns()}). The
 * grid drives the load (closed or open loop, warm-up, holds, replicates, faults) and the probes.
 */
public interface Workload {
    /** The name users give ({@code --workload}) and manifests record: lower case, no spaces. */
    String name();

    /** Its operations' method names; requests and stretches name an operation by its index here. */
    List<String> operations();

    /**
     * The order of a client's measured requests in each block, given the plan's two counts per client,
     * {@code --posts} and {@code --views} ({@code posts_per_client} and {@code views_per_client} in the manifest),
     * which each workload reads its own way; counts it cannot take are refused in one line. Warm-up requests mix
     * the order's operations in its proportions.
     */
    OperationOrder order(int posts, int views);

    /**
     * Whether its requests may carry a sized reply ({@code --reply 256}: a payload in place of the reply's value); a
     * workload that reads its replies' values says no, and a grid with sized replies is refused for it.
     */
    default boolean takesSizedReplies() {
        return true;
    }

    /**
     * The options it adds to {@code ftlab grid}, a picocli mixin of its own (null: none). A new instance each call:
     * each command line parses into its own.
     */
    default WorkloadOptions options() {
        return null;
    }

    /**
     * This workload given the parameters a run recorded for it ({@code workload_parameters}, as its options wrote
     * them; null: none, the workload's defaults); one line for a value it cannot take. A workload that takes none
     * ignores what a run recorded.
     */
    default Workload configured(ObjectNode parameters) {
        return this;
    }

    /**
     * Prepares the system before the run's clients open, on the lab whose run directory is {@code labRunDir}.
     * Nothing by default.
     */
    default void begin(Path labRunDir) throws Exception {
    }

    /** This workload's state for one client of the run, set up once before anything is measured. */
    Client open(ClientSession session) throws Exception;

    /** What must hold after the run. */
    Checker checker();

    /**
     * The service as a sequential object, which the run's history is checked against for linearizability, key by
     * key ({@code ftlab check}); null when the workload has none.
     */
    default Model<?> model() {
        return null;
    }

    /**
     * After the run's check, before its verdict is recorded: what the workload keeps of the run in its directory.
     * Nothing by default.
     */
    default void ended(Ended run) throws Exception {
    }

    /** The columns it adds to the side-by-side view of runs; none by default. */
    default RunColumns columns() {
        return RunColumns.NONE;
    }

    /** A run that has ended, as {@link #ended} sees it. */
    interface Ended {
        /** The run directory of the lab the run ran on: its manager, its database. */
        Path labRunDir();

        /** The run's own directory. */
        Path runDir();

        /** The lab's failures that began during the run, in order (read when asked). */
        List<FailureRecord> failures() throws IOException;
    }

    /** One client's generator: the next request of an operation, prepared off the timed path. */
    interface Client {
        /**
         * What this client reads once the run's last block is over, Jepsen's final reads: requests sent by the run's
         * first client (untimed, in the history like any other) so that the history shows the state the run left —
         * an acknowledged write that vanished, or one that took effect twice, becomes visible to the history's
         * checker. {@code header} gives each its header: one call per request, in the list's order. None by default.
         */
        default List<Request> finalReads(Supplier<RequestHeader> header) {
            return List.of();
        }

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

        /** What it is, as the run's history records its invocation ({@link History}). */
        Invocation invocation();

        /**
         * What its reply said, as the run's history records its completion: a value Jackson writes (a record, a
         * map), or null.
         */
        Object replyValue(Outcome<?> outcome);

        /** The key its reply names when its invocation could not (a post's auction); null by default. */
        default String replyKey(Outcome<?> outcome) {
            return null;
        }

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
         * too, its finding, failed or not.
         */
        public String summary() {
            String line = passed() ? "audit: " + checked + " " + unit + ", " + property
                    : "audit FAILED: " + problems.size() + " problems in " + checked + " " + unit + ", first: "
                            + problems.get(0);
            return oracle == null ? line : line + "\n" + oracle;
        }
    }
}
