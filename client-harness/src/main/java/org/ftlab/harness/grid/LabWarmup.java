package org.ftlab.harness.grid;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import org.ftlab.auction.api.ReplySize;
import org.ftlab.harness.grid.RequestSender.Sent;
import org.ftlab.harness.probe.ProbeTable;
import org.ftlab.harness.workload.OperationOrder;

/**
 * Warms a new lab up before the first block: every client sends {@code labWarmupPerClient} requests, closed loop with
 * no think time, the workload's operations in its order's proportions, cycling through the plan's reply sizes, so
 * that the replicas' JIT compilers and the database have seen every request path at load. The rows are kept (phase
 * warmup, in probes/warmup/) and audited, and never measured.
 */
final class LabWarmup {
    private final GridPlan plan;
    private final OperationOrder order;
    private final RunDirectory dir;
    private final RequestSender sender;
    private final RunControl control;
    private final PrintWriter progress;

    LabWarmup(GridPlan plan, OperationOrder order, RunDirectory dir, RequestSender sender, RunControl control,
            PrintWriter progress) {
        this.plan = plan;
        this.order = order;
        this.dir = dir;
        this.sender = sender;
        this.control = control;
        this.progress = progress;
    }

    /** Runs the warm-up on {@code levels}' clients (each level's, in the levels' order); returns its tables. */
    List<ProbeTable> run(List<List<GridClient>> levels, ExecutorService pool) throws Exception {
        int n = plan.design().labWarmupPerClient();
        int perClient = levels.isEmpty() ? 0 : levels.get(0).size();
        progress.printf(Locale.ROOT, "warming the lab up: %d requests per client, %d clients%s%n", n, perClient,
                levels.size() > 1 ? " (spread over the clients of the " + levels.size() + " strategy and platform "
                        + "levels)" : "");
        progress.flush();
        long t0 = System.nanoTime();
        List<Future<List<ProbeTable>>> futures = new ArrayList<>();
        for (int c = 0; c < perClient; c++) {
            // client c of every strategy, in turn: the lab sees every strategy's traffic, interleaved
            List<GridClient> own = new ArrayList<>();
            for (List<GridClient> level : levels) {
                own.add(level.get(c));
            }
            futures.add(pool.submit(() -> warm(own, n)));
        }
        List<ProbeTable> tables = new ArrayList<>();
        for (List<ProbeTable> t : control.await(futures, levels.stream().flatMap(List::stream).toList())) {
            tables.addAll(t);
        }
        record(tables, n, (System.nanoTime() - t0) / 1e9);
        return tables;
    }

    /** One thread's share: {@code n} requests spread over {@code own}, one client of each level, in turn. */
    private List<ProbeTable> warm(List<GridClient> own, int n) throws InterruptedException {
        int each = (n + own.size() - 1) / own.size();
        List<ProbeTable> tables = new ArrayList<>();
        for (GridClient g : own) {
            tables.add(new ProbeTable(g.clientId(), each, 1));
        }
        List<ReplySize> replies = plan.replies();
        for (int i = 0; i < each * own.size() && control.going(); i++) {
            int j = i / own.size();
            GridClient g = own.get(i % own.size());
            ReplySize reply = replies.get((j / 2) % replies.size());
            Sent r = RequestSender.prepare(g, reply, "lab warm-up", order.warmupOperation(j), ProbeTable.Phase.WARMUP);
            sender.closedLoop(r, g, tables.get(i % own.size()), RequestSender.sizedBytes(reply), 0);
        }
        return tables;
    }

    /** Its rows and summary in the run directory, and the summary's line. */
    private void record(List<ProbeTable> tables, int n, double seconds) throws IOException {
        double[] deciles = deciles(tables);
        dir.writeLabWarmup(tables, n, seconds, deciles[0], deciles[1]);
        progress.printf(Locale.ROOT, "lab warm-up done in %.1f s: mean latency %.2f ms in its first 10%%, %.2f ms in "
                + "its last 10%%%n", seconds, deciles[0] / 1e3, deciles[1] / 1e3);
        progress.flush();
    }

    /** Mean latency of each table's first and last 10% of completed rows, pooled, µs. */
    static double[] deciles(List<ProbeTable> tables) {
        double first = 0;
        double last = 0;
        int count = 0;
        for (ProbeTable t : tables) {
            int decile = (int) Math.ceil(t.size() / 10.0);
            for (int k = 0; k < decile && k < t.size(); k++) {
                if (t.isOk(k) && t.isOk(t.size() - 1 - k)) {
                    first += t.latencyMicros(k);
                    last += t.latencyMicros(t.size() - 1 - k);
                    count++;
                }
            }
        }
        return count == 0 ? new double[] {0, 0} : new double[] {first / count, last / count};
    }
}
