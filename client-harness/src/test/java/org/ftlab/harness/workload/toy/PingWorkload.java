package org.ftlab.harness.workload.toy;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.ftlab.auction.api.AuctionService;
import org.ftlab.auction.api.RequestHeader;
import org.ftlab.harness.failover.FailoverClient;
import org.ftlab.harness.failover.Outcome;
import org.ftlab.harness.history.Invocation;
import org.ftlab.harness.probe.Manifest;
import org.ftlab.harness.probe.ProbeTable;
import org.ftlab.harness.workload.ClientSession;
import org.ftlab.harness.workload.GridLine;
import org.ftlab.harness.workload.OperationOrder;
import org.ftlab.harness.workload.Workload;
import org.ftlab.harness.workload.WorkloadOptions;
import picocli.CommandLine.Option;

/**
 * A workload of the test tree, in a package of its own, to show what a second workload is: three operations, a
 * generator and a checker, an order of its own and an option of its own. Replicas simulated in the JVM answer only a
 * ping (with their name), so each operation is a ping under a name of its own: {@code hello}, {@code ping},
 * {@code bye}. Each client greets ({@code --greetings G}: G hellos), pings ({@code --posts N}: N pings), and says
 * goodbye (G byes), in that order, whatever the order of {@link #operations()}; without greetings it only pings. The
 * checker: every request the clients sent completed, and each was answered by the replica its probe row names.
 * Registered in the test tree's {@code META-INF/services}; the grid runs it by name.
 */
public final class PingWorkload implements Workload {
    public static final String NAME = "toy-ping";
    /** Its operations, in the order {@link #order} names them by index. */
    static final int PING = 0;
    static final int HELLO = 1;
    static final int BYE = 2;
    private static final List<String> OPERATIONS = List.of("ping", "hello", "bye");
    private final int greetings;
    /** What each request returned, by {@code clientId#seq}: the checker's record of the system's answers. */
    private final Map<String, String> answers = new ConcurrentHashMap<>();

    public PingWorkload() {
        this(0);
    }

    private PingWorkload(int greetings) {
        this.greetings = greetings;
    }

    /** What the workload is given beyond its name: its greetings per client and block. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Parameters(Integer greetings) {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<String> operations() {
        return OPERATIONS;
    }

    /** Hellos, pings ({@code --posts}), byes; it has no use for {@code --views}. */
    @Override
    public OperationOrder order(int posts, int views) {
        if (views > 0) {
            throw new IllegalArgumentException("workload " + NAME + " counts its pings with --posts and its "
                    + "greetings with --greetings: give --views 0");
        }
        return OperationOrder.of(new OperationOrder.Stretch(HELLO, greetings), new OperationOrder.Stretch(PING, posts),
                new OperationOrder.Stretch(BYE, greetings));
    }

    @Override
    public WorkloadOptions options() {
        return new GreetingOptions();
    }

    @Override
    public Workload configured(ObjectNode recorded) {
        Parameters p = Manifest.readWorkloadParameters(recorded, Parameters.class);
        return new PingWorkload(p == null || p.greetings() == null ? 0 : p.greetings());
    }

    @Override
    public Client open(ClientSession session) {
        return (operation, header, tag) -> new Ping(OPERATIONS.get(operation), header);
    }

    @Override
    public Checker checker() {
        return (Path runDir, List<ProbeTable> tables) -> {
            int checked = 0;
            List<String> problems = new ArrayList<>();
            for (ProbeTable t : tables) {
                for (int i = 0; i < t.size(); i++) {
                    String key = t.clientId() + "#" + t.seqAt(i);
                    checked++;
                    if (!t.isOk(i)) {
                        problems.add(key + " did not complete");
                    } else if (!t.replicaAt(i).equals(answers.get(key))) {
                        problems.add(key + " was answered by " + answers.get(key) + ", its row says "
                                + t.replicaAt(i));
                    }
                }
            }
            return new Verdict(checked, "pings", "each answered by the replica its row names", problems);
        };
    }

    /** Its option of {@code ftlab grid}: {@code --greetings G}. */
    static final class GreetingOptions implements WorkloadOptions {
        @Option(names = "--greetings", paramLabel = "G", description = "The toy workload's hellos (and byes) per "
                + "client and block.")
        Integer greetings;

        @Override
        public boolean given() {
            return greetings != null;
        }

        @Override
        public ObjectNode parameters(GridLine line) {
            if (greetings != null && greetings < 1) {
                throw new IllegalArgumentException("--greetings must be at least 1, was " + greetings);
            }
            return greetings == null ? null : Manifest.workloadParametersOf(new Parameters(greetings));
        }

        @Override
        public void refuseFor(String workload) {
            if (greetings != null) {
                throw new IllegalArgumentException("--greetings is workload " + NAME + "'s; workload " + workload
                        + " does not greet");
            }
        }
    }

    /** A ping, under the name of its operation. */
    private final class Ping implements Request {
        private final String method;
        private final RequestHeader header;

        Ping(String method, RequestHeader header) {
            this.method = method;
            this.header = header;
        }

        @Override
        public String method() {
            return method;
        }

        @Override
        public Outcome<String> invoke(FailoverClient client) throws Exception {
            return client.invoke(method, AuctionService::ping);
        }

        @Override
        public Invocation invocation() {
            return new Invocation(method, null, null);
        }

        @Override
        public Object replyValue(Outcome<?> outcome) {
            return Map.of("replica", String.valueOf(outcome.result()));
        }

        @Override
        public void completed(Outcome<?> outcome) {
            answers.put(header.clientId() + "#" + header.seq(), (String) outcome.result());
        }
    }
}
