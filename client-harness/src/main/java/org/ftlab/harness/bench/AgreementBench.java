package org.ftlab.harness.bench;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.ftlab.auction.api.ReplySize;
import org.ftlab.harness.analysis.RunAnalysis;
import org.ftlab.harness.grid.FaultSchedule;
import org.ftlab.harness.grid.GridPlan;
import org.ftlab.harness.grid.GridRunner;
import org.ftlab.harness.grid.RunDirectory;
import org.ftlab.harness.lab.Home;
import org.ftlab.harness.lab.LabFile;
import org.ftlab.harness.lab.ManagedLab;
import org.ftlab.harness.probe.RunSettings;

/**
 * One truth between the two instruments: on one lab, rounds of the service bench's {@code view} and {@code post}
 * alternate with a grid run at the same load (1 and 10 clients, think time 0, original replies, posts then views,
 * with the grid's default per-configuration warm-up). Each round gives the ratio grid mean ÷ bench mean per method
 * and client count, measured minutes apart on the same warm lab; the figures are their median and range over rounds.
 * Agreement within noise is a ratio whose range contains 1 or stays within the rounds' own spread.
 */
public final class AgreementBench {
    static final List<Integer> CLIENTS = List.of(1, 10);
    private static final Map<String, String> GRID_METHOD = Map.of("view", "viewAuction", "post", "postAuction");

    private final ManagedLab lab;
    private final int warmupPerClient;
    private final Path benchDir;
    private final PrintWriter out;

    public AgreementBench(ManagedLab lab, Path benchDir, PrintWriter out, int warmupPerClient) {
        this.warmupPerClient = warmupPerClient;
        this.lab = lab;
        this.benchDir = benchDir;
        this.out = out;
    }

    /** Runs {@code rounds} alternating rounds; returns per client count and method the means and ratios. */
    public Map<String, Object> run(int rounds, int requestsPerClient) throws Exception {
        // (clients, workload) -> per round: bench mean, grid mean
        Map<String, List<double[]>> pairs = new LinkedHashMap<>();
        for (int round = 1; round <= rounds; round++) {
            List<ServiceBench.Sample> bench = new ServiceBench(lab, out).run(1, CLIENTS, requestsPerClient, warmupPerClient,
                    List.of("view", "post"));
            GridPlan plan = new GridPlan("custom", CLIENTS, List.of(0), List.of(ReplySize.ORIGINAL),
                    requestsPerClient, requestsPerClient, new GridPlan.Design(GridPlan.DEFAULT_WARMUP_PER_CLIENT, 1,
                            GridPlan.Order.SEQUENTIAL, 0L, GridPlan.Arrival.CLOSED, List.of(), 0));
            Path dir = benchDir.resolve("agreement-round-" + round);
            LabFile shape = lab.description();
            RunDirectory rd = RunDirectory.create(dir, plan, "preconnected", FaultSchedule.NONE, shape.replicas(),
                    shape.spares(), shape.database(), Home.path(), RunSettings.of(shape));
            if (!GridRunner.runToEnd(lab, rd, out)) {
                throw new IllegalStateException("the grid run " + dir + " did not complete");
            }
            RunAnalysis.Result grid = RunAnalysis.analyze(dir);
            for (int n : CLIENTS) {
                for (String w : List.of("view", "post")) {
                    ServiceBench.Sample b = bench.stream().filter(s -> s.clients() == n && s.workload().equals(w))
                            .findFirst().orElseThrow();
                    RunAnalysis.Entry g = grid.entries().stream().filter(e -> e.clients() == n
                            && e.method().equals(GRID_METHOD.get(w))).findFirst().orElseThrow();
                    pairs.computeIfAbsent(n + "/" + w, k -> new ArrayList<>())
                            .add(new double[] {b.stats().mean(), g.stats().mean()});
                    out.printf(Locale.ROOT, "  round %d, %2d client%s, %-4s bench %7.3f ms, grid %7.3f ms: ratio %.3f%n",
                            round, n, n == 1 ? " " : "s", w, b.stats().mean() / 1e3, g.stats().mean() / 1e3,
                            g.stats().mean() / b.stats().mean());
                    out.flush();
                }
            }
        }
        Map<String, Object> result = new LinkedHashMap<>();
        for (Map.Entry<String, List<double[]>> e : pairs.entrySet()) {
            Map<String, Object> f = new LinkedHashMap<>();
            f.put("bench_mean_us", ServiceBench.Spread.of(e.getValue().stream().mapToDouble(p -> p[0]).toArray()));
            f.put("grid_mean_us", ServiceBench.Spread.of(e.getValue().stream().mapToDouble(p -> p[1]).toArray()));
            f.put("grid_over_bench", ServiceBench.Spread.of(e.getValue().stream().mapToDouble(p -> p[1] / p[0])
                    .toArray()));
            result.put(e.getKey(), f);
        }
        return result;
    }
}
