package org.ftlab.harness.grid;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import org.ftlab.harness.lab.ManagedLab;
import org.ftlab.rm.ReplicationManager;

/**
 * Injects the {@link FaultPlan}'s faults into the primary through the Replication Manager, from its own thread so
 * that no client waits for it. It injects only while a configuration runs and only at full replication degree with
 * the lab's spares booted (the previous fault repaired, the spare it used replaced, and {@value #SETTLE_MILLIS} ms
 * since), so every fault meets the same system.
 */
final class FaultInjector {
    /** Pause between a repair and the next fault (none before the run's first fault). */
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
                    awaitFullStrength(lab, () -> running);
                    if (injectedInRun > 0) {
                        // Let clients see the repaired view (a pre-connected client's spare is the replacement)
                        // before the next fault, as a lab with faults seconds apart would.
                        Thread.sleep(SETTLE_MILLIS);
                    }
                    if (completed == c && running) {
                        ReplicationManager.InjectedFault f = lab.manager().inject(plan.injection(), null);
                        injectedThisConfig++;
                        injectedInRun++;
                        nextAt = System.nanoTime() + (long) (plan.everySeconds() * 1e9);
                        progress.printf(Locale.ROOT, "  fault %s: %s of primary %s (pid %d)%n", f.faultId(),
                                plan.kind(), f.replica(), f.pid());
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

    /** Until the view has its degree and the spare pool is full, or {@code going} turns false. */
    static void awaitFullStrength(ManagedLab lab, java.util.function.BooleanSupplier going) throws IOException,
            InterruptedException {
        while (going.getAsBoolean()) {
            JsonNode s = lab.manager().status();
            if (s.path("degree").asInt() >= s.path("targetDegree").asInt()
                    && s.path("spares").size() >= s.path("targetSpares").asInt()) {
                return;
            }
            Thread.sleep(50);
        }
    }
}
