package org.ftlab.harness.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.ftlab.harness.lab.ManagerClient;
import org.ftlab.rm.api.FailureRecord;
import org.ftlab.rm.api.InjectedFault;
import org.ftlab.rm.api.ManagerEndpoint;
import org.ftlab.rm.api.ManagerGroup;
import org.ftlab.rm.api.ManagerStatus;
import org.ftlab.rm.api.ReplicaStatus;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ftlab status}: the replicas of a running lab as its Replication Manager sees them. */
@Command(name = "status", mixinStandardHelpOptions = true,
        description = "Shows the replicas of a running lab (roles, pids, uptime) and the failures seen so far.")
public final class StatusCommand implements Callable<Integer> {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Option(names = "--run", paramLabel = "DIR",
            description = "Run directory of the lab (default: the newest running one under runs/).")
    Path run;

    @Option(names = "--json", description = "Print the Replication Manager's status as JSON.")
    boolean json;

    @Override
    public Integer call() throws Exception {
        Path runDir = run != null ? run : newestRun();
        Path ready = runDir.resolve(ManagerEndpoint.FILE);
        if (!Files.exists(ready)) {
            throw new IllegalArgumentException("no running lab in " + runDir + " (no " + ready.getFileName()
                    + "); start one with 'ftlab demo'");
        }
        ObjectMapper mapper = new ObjectMapper();
        ManagerClient manager = ManagerClient.forRun(runDir);
        ManagerStatus status;
        try {
            status = manager.status();
        } catch (IOException e) {
            throw new IllegalStateException("the lab in " + runDir + " is not running (its Replication Manager at "
                    + manager.url() + " does not answer)");
        }
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(mapper.writerWithDefaultPrettyPrinter().writeValueAsString(status));
            return 0;
        }
        ManagerGroup managers = status.managers();
        out.printf(Locale.ROOT, "managers %s, leader %s in term %d%n", String.join(", ", managers.members()),
                managers.leader() == null ? "none (an election)" : managers.leader(), managers.term());
        out.printf(Locale.ROOT, "view epoch %d, primary %s, replication degree %d of %d, spares %s%n",
                status.epoch(), status.primary() == null ? "none" : status.primary(), status.degree(),
                status.targetDegree(), status.spares());
        out.printf(Locale.ROOT, "%-6s %-9s %8s %-30s %10s %s%n", "name", "state", "pid", "endpoint", "uptime s",
                "request path at the top tier");
        long now = System.currentTimeMillis();
        for (ReplicaStatus r : status.replicas()) {
            out.printf(Locale.ROOT, "%-6s %-9s %8s %-30s %10s %s%n", r.name(), r.state().wireName(),
                    r.pid() == null ? "" : r.pid(), r.uri() == null ? "" : r.uri(),
                    r.uptimeMillis() == null ? "-" : String.format(Locale.ROOT, "%.1f", r.uptimeMillis() / 1000.0),
                    r.topTierShare() == null ? "-" : String.format(Locale.ROOT, "%.0f%%%s", 100 * r.topTierShare(),
                            r.hotSinceEpochMillis() == null ? "" : String.format(Locale.ROOT, " (hot for %.0f s)",
                                    (now - r.hotSinceEpochMillis()) / 1000.0)));
        }
        out.println("failures seen: " + status.failures().size());
        for (FailureRecord f : status.failures()) {
            out.printf(Locale.ROOT, "  %s %s %s (reported by %s)%s%n", f.faultId(), f.replica(),
                    f.verdict().wireName(), f.source().wireName(),
                    f.replacement() == null ? "" : ", replaced by " + f.replacement());
        }
        out.println("faults injected: " + status.faults().size());
        for (InjectedFault f : status.faults()) {
            out.printf(Locale.ROOT, "  %s %s%s: %s%n", f.faultId(), f.spec(),
                    f.replica() == null ? "" : " (" + f.replica() + ")", f.active() ? "in effect" : f.repair().wireName());
        }
        return 0;
    }

    private static Path newestRun() throws IOException {
        Path runs = FtlabCommand.home().resolve("runs");
        if (!Files.isDirectory(runs)) {
            throw new IllegalArgumentException("no runs/ directory; pass --run DIR");
        }
        try (Stream<Path> dirs = Files.list(runs)) {
            return dirs.filter(d -> Files.exists(d.resolve(ManagerEndpoint.FILE)))
                    .max(Comparator.comparing(Path::getFileName))
                    .orElseThrow(() -> new IllegalArgumentException("no running lab under " + runs
                            + "; pass --run DIR"));
        }
    }
}
