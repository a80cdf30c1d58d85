package org.ftlab.harness.grid;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.ftlab.harness.probe.ProbeTable;

/**
 * Runs one block: each of its clients' shares at once, on the run's pool (one thread per client), closed or open
 * loop as its configuration says, all released together; the fault injector knows the block from its start to its
 * end, and how many of its measured requests completed.
 */
final class BlockRunner {
    private final ClientShare share;
    private final ClosedLoopClient closedLoop;
    private final OpenLoopClient openLoop;
    private final RunControl control;

    BlockRunner(ClientShare share, ClosedLoopClient closedLoop, OpenLoopClient openLoop, RunControl control) {
        this.share = share;
        this.closedLoop = closedLoop;
        this.openLoop = openLoop;
        this.control = control;
    }

    /**
     * Runs {@code block}, the {@code blockNumber}-th of the schedule, on {@code clients} (its level's); returns one
     * probe table per client that finished.
     */
    List<ProbeTable> run(GridPlan.Block block, int blockNumber, List<GridClient> clients, ExecutorService pool,
            FaultInjector injector) throws Exception {
        GridConfig config = block.config();
        AtomicInteger completed = new AtomicInteger();
        injector.beginBlock(blockNumber, config.clients() * share.measured(), completed);
        CountDownLatch start = new CountDownLatch(1);
        Holds holds = new Holds(share.stretches(), config.clients());
        List<Future<ProbeTable>> futures = new ArrayList<>();
        for (int c = 0; c < config.clients(); c++) {
            GridClient client = clients.get(c);
            int clientIndex = c;
            futures.add(pool.submit(() -> {
                start.await();
                return config.openLoop() ? openLoop.run(block, client, clientIndex, completed)
                        : closedLoop.run(block, client, completed, holds);
            }));
        }
        start.countDown();
        List<ProbeTable> tables = control.await(futures, clients);
        injector.endBlock();
        return tables;
    }
}
