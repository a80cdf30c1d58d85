package org.ftlab.harness.grid;

import java.util.concurrent.atomic.AtomicInteger;
import org.ftlab.harness.grid.RequestSender.Sent;
import org.ftlab.harness.probe.ProbeTable;

/**
 * One client's share of a block, closed loop: send, wait for the reply, think, send the next; the timed path is the
 * invocation and a few array stores. After the last measured request of each stretch of the workload's order, the
 * client holds ({@link Holds}) until every client of the block is done with that stretch.
 */
final class ClosedLoopClient {
    private final ClientShare share;
    private final RequestSender sender;
    private final RunControl control;

    ClosedLoopClient(ClientShare share, RequestSender sender, RunControl control) {
        this.share = share;
        this.sender = sender;
        this.control = control;
    }

    /** Runs {@code c}'s share of {@code block}; counts its measured requests in {@code completed}. */
    ProbeTable run(GridPlan.Block block, GridClient c, AtomicInteger completed, Holds holds)
            throws InterruptedException {
        GridConfig config = block.config();
        int n = share.size();
        ProbeTable table = new ProbeTable(c.clientId(), n, block.replicate());
        int sizedBytes = RequestSender.sizedBytes(config.reply());
        boolean[] counted = new boolean[share.stretches()];
        try {
            for (int i = 0; i < n && control.going(); i++) {
                Sent r = RequestSender.prepare(c, config.reply(), block.id(), share.operationAt(i), share.phaseAt(i));
                sender.closedLoop(r, c, table, sizedBytes, config.thinkMillis());
                if (r.phase() == ProbeTable.Phase.MEASURE) {
                    completed.incrementAndGet();
                }
                int k = share.stretchEndingAt(i);
                if (k >= 0) {
                    counted[k] = true;
                    hold(holds, k, block, c, table, sizedBytes);
                }
            }
        } finally {
            // An aborted client must not hold the others forever.
            for (int k = 0; k < counted.length; k++) {
                if (!counted[k]) {
                    holds.done(k);
                }
            }
        }
        return table;
    }

    /** Counts this client done with stretch {@code k}, then sends its operation unmeasured while others are not. */
    private void hold(Holds holds, int k, GridPlan.Block block, GridClient c, ProbeTable table, int sizedBytes)
            throws InterruptedException {
        holds.done(k);
        while (holds.held(k) && control.going()) {
            Sent r = RequestSender.prepare(c, block.config().reply(), block.id(), share.operationOf(k),
                    ProbeTable.Phase.HOLD);
            sender.closedLoop(r, c, table, sizedBytes, block.config().thinkMillis());
        }
    }
}
