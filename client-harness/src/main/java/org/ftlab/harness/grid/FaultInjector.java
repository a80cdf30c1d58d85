package org.ftlab.harness.grid;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.ftlab.auction.api.MicroClock;
import org.ftlab.harness.history.History;
import org.ftlab.rm.api.FailureRecord;
import org.ftlab.rm.api.InjectedFault;
import org.ftlab.rm.api.ManagerStatus;

/**
 * Injects a {@link FaultSchedule}'s faults through the Replication Manager, from its own thread so that no client
 * waits for it, while the run's blocks run. Faults never overlap and every one meets the same system: an entry that
 * falls due waits until the previous fault was repaired, the view has its replication degree, and
 * {@value #SETTLE_MILLIS} ms have passed since the view last changed ({@value #SETTLE_QUIET_MILLIS} ms since the
 * repair of a fault that changed no view); it also waits for a spare to be booted, but only until half-way to the
 * next entry of its block (or to the block's end), so that {@code --faults-per-config N} stays honest in short
 * configurations. A fault that met a lab whose spare was still booting says so
 * ({@code spares_ready} in {@code faults.csv}). An entry whose block has passed, or that was still waiting when the
 * run ended, is reported as not injected.
 */
final class FaultInjector {
    /** Least time between a view change (failure, promotion, restored degree) and the next fault. */
    static final long SETTLE_MILLIS = 2000;
    /** Least time between the repair of a fault that changed no view and the next fault. */
    static final long SETTLE_QUIET_MILLIS = 500;
    private final GridLab lab;
    private final List<FaultSchedule.Entry> entries;
    private final PrintWriter progress;
    private final List<String> notInjected = Collections.synchronizedList(new ArrayList<>());
    private volatile boolean running;
    /** The block running now, or the last one that ran (ended); one volatile reference, read once per pass. */
    private volatile BlockState current = new BlockState(0, 0, null);
    private volatile long startNanos;
    private int injectedInRun;
    /** Where each fault's start is recorded, beside the operations it meets. */
    private final History history;
    private Thread thread;

    FaultInjector(GridLab lab, FaultSchedule schedule, PrintWriter progress, History history) {
        this.lab = lab;
        this.entries = schedule.inOrder();
        this.progress = progress;
        this.history = history;
    }

    void start() {
        if (entries.isEmpty()) {
            return;
        }
        running = true;
        startNanos = System.nanoTime();
        thread = new Thread(this::loop, "fault-injector");
        thread.setDaemon(true);
        thread.start();
    }

    /** Block {@code number} (1-based, in the run's schedule) starts, with {@code totalInvocations} measured ones. */
    void beginBlock(int number, int totalInvocations, AtomicInteger completedCounter) {
        current = new BlockState(number, totalInvocations, completedCounter);
    }

    void endBlock() {
        BlockState b = current;
        current = new BlockState(b.number(), b.total(), null);
    }

    /**
     * A block's number, measured invocations and completed counter ({@code null} once it ended): published as one
     * value, so that no pass sees a new block's number with the last block's end (which would skip its faults).
     */
    private record BlockState(int number, int total, AtomicInteger completed) {
        boolean running(int block) {
            return completed != null && number == block;
        }
    }

    /** Stops injecting; returns the entries that were never injected, each with the reason. */
    List<String> stop() {
        running = false;
        if (thread != null) {
            thread.interrupt();
            try {
                thread.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return List.copyOf(notInjected);
    }

    private void loop() {
        int next = 0;
        long periodicDueNanos = 0;
        // when the last fault was injected: an entry due at the same moment is injected with it, without waiting for
        // the lab to repair it (a double fault: a replica's crash while the managers fail over)
        FaultSchedule.At lastInjected = null;
        try {
            while (running && next < entries.size()) {
                FaultSchedule.Entry e = entries.get(next);
                FaultSchedule.At at = e.at();
                BlockState b = current;
                AtomicInteger c = b.completed();
                if (at.inBlock() && b.number() > at.block() || at.inBlock() && b.number() == at.block() && c == null) {
                    skip(e, "its block had ended");
                    next++;
                    continue;
                }
                boolean due;
                if (at.inBlock()) {
                    due = b.running(at.block()) && c.get() >= (long) Math.ceil(b.total() * at.fraction());
                } else if (at.periodic()) {
                    if (periodicDueNanos == 0) {
                        periodicDueNanos = startNanos + at.everyMillis() * 1_000_000L;
                    }
                    due = c != null && System.nanoTime() >= periodicDueNanos;
                } else {
                    due = c != null && System.nanoTime() - startNanos >= at.afterMillis() * 1_000_000L;
                }
                if (!due) {
                    Thread.sleep(5);
                    continue;
                }
                boolean together = !at.periodic() && at.equals(lastInjected);
                boolean spareReady = together || lab.awaitReadyForFault(() -> running, sparesCanWait(next, b));
                if (!together) {
                    awaitRepairAndSettle();
                }
                if (!running || current != b) {
                    continue; // the block ended while the lab was repairing: the next pass says so
                }
                InjectedFault f;
                try {
                    f = lab.inject(e.spec());
                } catch (IOException ex) {
                    skip(e, ex.getMessage());
                    next++;
                    continue;
                }
                injectedInRun++;
                lastInjected = at;
                history.faultStarted(f.faultId(), e.spec().kind().wireName(), f.replica());
                if (at.periodic()) {
                    periodicDueNanos = System.nanoTime() + at.everyMillis() * 1_000_000L;
                } else {
                    next++;
                }
                progress.printf(Locale.ROOT, "  fault %s: %s%s%s%n", f.faultId(), e.spec(),
                        f.replica() == null ? "" : " (" + f.replica() + (f.pid() > 0 ? ", pid " + f.pid() : "") + ")",
                        spareReady ? "" : "; its spare was still booting (waiting longer would have run past the "
                                + "next fault)");
                progress.flush();
            }
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        } catch (IOException | RuntimeException ex) {
            if (running) { // an interrupted call while stopping is the normal end, not news
                progress.println("fault injection stopped: " + ex.getMessage());
            }
        }
        for (int i = next; i < entries.size(); i++) {
            if (!entries.get(i).at().periodic()) {
                skip(entries.get(i), "the run ended first");
            }
        }
    }

    /** While the spare pool may still be waited for: until half-way to the next entry of the block (or its end). */
    private BooleanSupplier sparesCanWait(int index, BlockState b) {
        FaultSchedule.At at = entries.get(index).at();
        if (!at.inBlock()) {
            return () -> true;
        }
        double nextFraction = 1.0;
        if (index + 1 < entries.size() && entries.get(index + 1).at().block() == at.block()) {
            nextFraction = entries.get(index + 1).at().fraction();
        }
        long giveUpAt = (long) (b.total() * (at.fraction() + nextFraction) / 2);
        return () -> b.completed() != null && b.completed().get() < giveUpAt;
    }

    /**
     * Waits until no fault is in effect, the view has its degree, a replicated database has its writer and every server
     * back as a replica, and {@value #SETTLE_MILLIS} ms have passed since the last repair.
     */
    private void awaitRepairAndSettle() throws IOException, InterruptedException {
        while (running) {
            ManagerStatus s = lab.status();
            if (!s.anyFaultActive() && s.fullDegree() && (s.databaseView() == null || s.databaseView().whole())) {
                if (injectedInRun > 0) {
                    // Let clients see the repaired view (a pre-connected client's spare is the replacement) before
                    // the next fault, as a lab with faults seconds apart would.
                    Thread.sleep(settleLeftMillis(s));
                }
                return;
            }
            Thread.sleep(20);
        }
    }

    private void skip(FaultSchedule.Entry e, String why) {
        String line = e.at() + " " + e.spec() + ": not injected, " + why;
        notInjected.add(line);
        progress.println("  note: fault " + line);
        progress.flush();
    }

    /**
     * What is left of {@value #SETTLE_MILLIS} ms since the view last changed and of {@value #SETTLE_QUIET_MILLIS} ms
     * since the last repair.
     */
    static long settleLeftMillis(ManagerStatus status) {
        long viewUs = 0;
        for (FailureRecord f : status.failures()) {
            viewUs = Math.max(viewUs, Math.max(f.detectedEpochUs(), Math.max(f.promotedEpochUs(),
                    f.restoredEpochUs())));
        }
        long repairUs = 0;
        for (InjectedFault f : status.faults()) {
            repairUs = Math.max(repairUs, f.repairedEpochUs());
        }
        long now = MicroClock.nowEpochMicros();
        long left = Math.max(SETTLE_MILLIS - (now - viewUs) / 1000, SETTLE_QUIET_MILLIS - (now - repairUs) / 1000);
        return Math.max(0, Math.min(SETTLE_MILLIS, left));
    }
}
