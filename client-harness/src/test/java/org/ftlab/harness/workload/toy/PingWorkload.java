package org.ftlab.harness.workload.toy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.ftlab.auction.api.AuctionService;
import org.ftlab.auction.api.RequestHeader;
import org.ftlab.harness.failover.FailoverClient;
import org.ftlab.harness.failover.Outcome;
import org.ftlab.harness.probe.ProbeTable;
import org.ftlab.harness.workload.ClientSession;
import org.ftlab.harness.workload.Workload;

/**
 * A workload of the test tree, in a package of its own, to show what a second workload is: one operation (a ping,
 * which replicas simulated in the JVM answer with their name), a generator (every request a ping) and a checker
 * (every ping the clients sent completed, and each was answered by the replica its probe row names). Registered in
 * the test tree's {@code META-INF/services}; the grid runs it by name.
 */
public final class PingWorkload implements Workload {
    public static final String NAME = "toy-ping";
    /** What each ping returned, by {@code clientId#seq}: the checker's record of the system's answers. */
    private final Map<String, String> answers = new ConcurrentHashMap<>();

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<String> operations() {
        return List.of("ping");
    }

    @Override
    public Client open(ClientSession session) {
        return (operation, header, tag) -> new Ping(header);
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

    private final class Ping implements Request {
        private final RequestHeader header;

        Ping(RequestHeader header) {
            this.header = header;
        }

        @Override
        public String method() {
            return "ping";
        }

        @Override
        public Outcome<String> invoke(FailoverClient client) throws Exception {
            return client.invoke("ping", AuctionService::ping);
        }

        @Override
        public void completed(Outcome<?> outcome) {
            answers.put(header.clientId() + "#" + header.seq(), (String) outcome.result());
        }
    }
}
