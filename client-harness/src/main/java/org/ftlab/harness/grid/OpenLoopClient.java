package org.ftlab.harness.grid;

import java.util.Objects;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.ftlab.auction.api.MicroClock;
import org.ftlab.harness.grid.RequestSender.Sent;
import org.ftlab.harness.probe.ProbeTable;

/**
 * One client's share of a block, open loop: this thread keeps the schedule of intended send times (every 1/rate s,
 * or exponential gaps for Poisson arrivals, drawn from the run's seed) and hands each request to the client's worker
 * pool, never waiting for a reply. A request that finds every worker busy starts late; the probe row keeps both times
 * (intended and sent), so the wait counts in its latency and the lateness is visible. The clients of a block are
 * staggered: the i-th of N starts its schedule i/(N·rate) s after the block's start, so that N uniform clients at
 * rate r are one uniform stream at N·r (as an external generator's is), not N requests at once every 1/r s (which the
 * calibration found: docs/performance.md §10).
 */
final class OpenLoopClient {
    /** Seconds of requests at a client's rate that its open-loop workers can have in flight before starts are late. */
    static final double IN_FLIGHT_SECONDS = 3.0;
    private final ClientShare share;
    private final GridPlan.Design design;
    private final RequestSender sender;
    private final RunControl control;

    OpenLoopClient(ClientShare share, GridPlan.Design design, RequestSender sender, RunControl control) {
        this.share = share;
        this.design = design;
        this.sender = sender;
        this.control = control;
    }

    /** Workers an open-loop client keeps for {@code ratePerS}: {@value #IN_FLIGHT_SECONDS} s of requests, 8 to 256. */
    static int maxInFlight(double ratePerS) {
        return (int) Math.max(8, Math.min(256, Math.ceil(ratePerS * IN_FLIGHT_SECONDS) + 4));
    }

    /** When the {@code clientIndex}-th of {@code clients} clients at {@code ratePerS} each first sends, ns after the start. */
    static long firstSendOffsetNanos(double ratePerS, int clients, int clientIndex) {
        return Math.round(1e9 / ratePerS * clientIndex / clients);
    }

    /**
     * Runs {@code c}'s share of {@code block}, the {@code clientIndex}-th client of it; counts its measured requests
     * in {@code completed}.
     */
    ProbeTable run(GridPlan.Block block, GridClient c, int clientIndex, AtomicInteger completed)
            throws InterruptedException {
        GridConfig config = block.config();
        int n = share.size();
        ProbeTable table = new ProbeTable(c.clientId(), n, block.replicate());
        int sizedBytes = RequestSender.sizedBytes(config.reply());
        int inFlightCap = maxInFlight(config.ratePerS());
        ExecutorService workers = c.session().workers(inFlightCap);
        // this block's cap on requests in flight, whatever size earlier blocks grew the client's pool to
        Semaphore slots = new Semaphore(inFlightCap);
        Random random = new Random(Objects.hash(design.seed(), block.id(), clientIndex));
        double meanGapNanos = 1e9 / config.ratePerS();
        Semaphore finished = new Semaphore(0);
        int handedOut = 0;
        long startNanos = System.nanoTime();
        long startEpochUs = MicroClock.nowEpochMicros();
        long nextNanos = startNanos + firstSendOffsetNanos(config.ratePerS(), config.clients(), clientIndex);
        for (int i = 0; i < n && control.going(); i++) {
            if (i > 0) {
                nextNanos += design.arrival() == GridPlan.Arrival.POISSON
                        ? (long) (-Math.log(1 - random.nextDouble()) * meanGapNanos) : (long) meanGapNanos;
            }
            long wait;
            while ((wait = nextNanos - System.nanoTime()) > 0 && control.going()) {
                LockSupport.parkNanos(wait);
            }
            Sent r = RequestSender.prepare(c, config.reply(), block.id(), share.operationAt(i), share.phaseAt(i));
            int row = table.claim(r.header().seq(), r.request().method(), startEpochUs + (nextNanos - startNanos)
                    / 1000, r.phase());
            slots.acquire(); // every slot busy: this request (and those due after it) start late
            handedOut++;
            workers.execute(() -> {
                try {
                    sender.invoke(r, c, table, row, sizedBytes);
                    if (r.phase() == ProbeTable.Phase.MEASURE) {
                        completed.incrementAndGet();
                    }
                } finally {
                    slots.release();
                    finished.release();
                }
            });
        }
        // every request handed out has completed its row (interruptible: a run that fails shuts the pools down)
        finished.acquire(handedOut);
        return table;
    }
}
