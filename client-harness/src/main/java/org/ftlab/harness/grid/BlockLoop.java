package org.ftlab.harness.grid;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import org.ftlab.harness.history.History;
import org.ftlab.harness.probe.ProbeTable;
import org.ftlab.rm.api.ManagerStatus;

/**
 * Runs the blocks not done yet, in the schedule's order, and records each as it ends: the block's degree (in a run
 * that varies it), the hook before it, its clients' shares ({@link BlockRunner}), the faults it overlapped, then its
 * probe file, the run's faults so far and a progress line with the time left. An interrupted block keeps its completed
 * requests in a partial file, and the loop ends.
 */
final class BlockLoop {
    private final GridPlan plan;
    private final RunDirectory dir;
    private final GridLab lab;
    private final BlockRunner blocks;
    private final DegreeChanges degree;
    private final RunFaults faults;
    private final GridRunner.BeforeBlock beforeBlock;
    private final Eta eta;
    private final RunControl control;
    private final PrintWriter progress;
    private final History history;

    BlockLoop(GridPlan plan, RunDirectory dir, GridLab lab, BlockRunner blocks, DegreeChanges degree,
            RunFaults faults, GridRunner.BeforeBlock beforeBlock, Eta eta, RunControl control, PrintWriter progress,
            History history) {
        this.plan = plan;
        this.dir = dir;
        this.lab = lab;
        this.blocks = blocks;
        this.degree = degree;
        this.faults = faults;
        this.beforeBlock = beforeBlock;
        this.eta = eta;
        this.control = control;
        this.progress = progress;
        this.history = history;
    }

    /**
     * Runs {@code todo}, the blocks of {@code schedule} not done yet, on {@code clients}; returns every table of
     * them, the interrupted block's included.
     */
    List<ProbeTable> run(List<GridPlan.Block> schedule, List<GridPlan.Block> todo, RunClients clients,
            ExecutorService pool, FaultInjector injector) throws Exception {
        List<ProbeTable> all = new ArrayList<>();
        int done = schedule.size() - todo.size();
        for (int k = 0; k < todo.size() && control.going(); k++) {
            GridPlan.Block block = todo.get(k);
            List<GridClient> blockClients = clients.of(block);
            if (plan.infra().variesReplicas()) {
                degree.change(block.config().replicas(), blockClients);
            }
            beforeBlock.run(block, blockClients.stream().map(GridClient::session).toList());
            long t0 = System.nanoTime();
            List<ProbeTable> tables = blocks.run(block, schedule.indexOf(block) + 1, blockClients, pool, injector);
            all.addAll(tables);
            ManagerStatus status = lab.status(); // one reading: joined and logged alike
            faults.join(tables, status);
            eta.observe(tables);
            if (control.aborted()) {
                keepPartial(block, tables);
                break;
            }
            dir.writeProbes(block, tables);
            faults.write(status);
            history.flush();
            done++;
            double seconds = (System.nanoTime() - t0) / 1e9;
            progress.printf(Locale.ROOT, "[%d/%d] %s done in %.1f s (%d rows); ETA %s%n", done, schedule.size(),
                    block.id(), seconds, rows(tables), eta.of(todo.subList(k + 1, todo.size())));
            progress.flush();
        }
        return all;
    }

    /** Interrupted: keep what completed (its effects are in the system), but not as a done block. */
    private void keepPartial(GridPlan.Block block, List<ProbeTable> tables) throws IOException {
        if (rows(tables) > 0) {
            Path kept = dir.writePartial(block, tables);
            progress.printf(Locale.ROOT, "%s interrupted: %d completed requests kept in %s (not counted; the block "
                    + "runs again on resume)%n", block.id(), rows(tables), dir.path().relativize(kept));
        }
    }

    static int rows(List<ProbeTable> tables) {
        return tables.stream().mapToInt(ProbeTable::size).sum();
    }
}
