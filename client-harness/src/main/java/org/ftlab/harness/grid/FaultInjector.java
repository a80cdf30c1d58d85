package org.ftlab.harness.grid;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.ftlab.auction.api.MicroClock;
import org.ftlab.harness.lab.ManagedLab;
import org.ftlab.rm.ReplicationManager;

/**
 * Injects the {@link FaultPlan}'s faults into the primary through the Replication Manager, from its own thread so
 * that no client waits for it. It injects only while a configuration runs and only at full replication degree with
 * the lab's spares booted (the previous fault repaired, the spare it used replaced, and {@value #SETTLE_MILLIS} ms
 * since), so every fault meets the same system. One exception keeps {@code --faults-per-config N} honest in short
 * configurations: a fault waits for the spare pool only until the configuration is half-way from its slot to the
 * next one (or to its end); then it meets a lab at full degree whose spare is still booting, which its line in
 * {@code faults.csv} ({@code spares_ready}) and the progress output say.
 */
final class FaultInjector {
    /** Least time between a repair and the next fault (none before the run's first fault). */
    static final long SETTLE_MILLIS = 2000;
    private final ManagedLab lab;
    private final FaultPlan plan;
    private final PrintWriter progress;
    private volatile boolean running;
    private volatile AtomicInteger completed;
    private volatile int configTotal;
    private volatile int injectedThisConfig;
    private int injectedInRun;
    private Thread thread;

    FaultInjector(ManagedLab lab, FaultPlan plan, PrintWriter progress) {
        this.lab = lab;
        this.plan = plan;
        this.progress = progress;
    }

    void start() {
        if (!plan.enabled()) {
            return;
        }
        running = true;
        thread = new Thread(this::loop, "fault-injector");
        thread.setDaemon(true);
        thread.start();
    }

    void beginConfig(int totalInvocations, AtomicInteger completedCounter) {
        injectedThisConfig = 0;
        configTotal = totalInvocations;
        completed = completedCounter;
    }

    void endConfig() {
        completed = null;
        if (plan.perConfig() > 0 && injectedThisConfig < plan.perConfig()) {
            progress.printf(Locale.ROOT, "  note: %d of %d faults injected; the configuration ended while the lab was"
                    + " still repairing the last one (give it more invocations)%n", injectedThisConfig,
                    plan.perConfig());
        }
    }

    void stop() {
        running = false;
        if (thread != null) {
            thread.interrupt();
            try {
                thread.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void loop() {
        long nextAt = System.nanoTime() + (long) (plan.everySeconds() * 1e9);
        try {
            while (running) {
                AtomicInteger c = completed;
                boolean due;
                if (plan.perConfig() > 0) {
                    due = c != null && injectedThisConfig < plan.perConfig()
                            && c.get() >= (long) configTotal * (injectedThisConfig + 1) / (plan.perConfig() + 1);
                } else {
                    due = c != null && System.nanoTime() >= nextAt;
                }
                if (due) {
                    BooleanSupplier sparesCanWait = () -> true;
                    if (plan.perConfig() > 0) {
                        long giveUpAt = (long) configTotal * (2L * injectedThisConfig + 3)
                                / (2L * (plan.perConfig() + 1));
                        sparesCanWait = () -> c.get() < giveUpAt;
                    }
                    boolean spareReady = lab.awaitFullStrength(() -> running, sparesCanWait);
                    if (injectedInRun > 0) {
                        // Let clients see the repaired view (a pre-connected client's spare is the replacement)
                        // before the next fault, as a lab with faults seconds apart would.
                        Thread.sleep(settleLeftMillis(lab.manager().status()));
                    }
                    if (completed == c && running) {
                        ReplicationManager.InjectedFault f = lab.manager().inject(plan.injection(), null);
                        injectedThisConfig++;
                        injectedInRun++;
                        nextAt = System.nanoTime() + (long) (plan.everySeconds() * 1e9);
                        progress.printf(Locale.ROOT, "  fault %s: %s of primary %s (pid %d)%s%n", f.faultId(),
                                plan.kind(), f.replica(), f.pid(), spareReady ? "" : "; its spare was still booting"
                                        + " (waiting longer would have run past the configuration)");
                        progress.flush();
                    }
                }
                Thread.sleep(5);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException | RuntimeException e) {
            if (running) { // an interrupted call while stopping is the normal end, not news
                progress.println("fault injection stopped: " + e.getMessage());
            }
        }
    }

    /** What is left of {@value #SETTLE_MILLIS} ms since the last repair brought the degree back. */
    static long settleLeftMillis(JsonNode status) {
        long lastRestoredUs = 0;
        for (JsonNode f : status.path("failures")) {
            lastRestoredUs = Math.max(lastRestoredUs, f.path("restoredEpochUs").asLong());
        }
        long sinceMillis = (MicroClock.nowEpochMicros() - lastRestoredUs) / 1000;
        return Math.max(0, Math.min(SETTLE_MILLIS, SETTLE_MILLIS - sinceMillis));
    }
}
