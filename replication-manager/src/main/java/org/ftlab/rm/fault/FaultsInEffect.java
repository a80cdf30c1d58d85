package org.ftlab.rm.fault;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.logging.Logger;
import org.ftlab.faults.FaultSite;
import org.ftlab.faults.LabFaultKind;
import org.ftlab.os.Janitor;
import org.ftlab.os.Undo;
import org.ftlab.rm.api.FaultSpec;

/**
 * The injected faults still in effect and their undo. Each is undone once: after its duration, at once when a fence
 * ended it, when the manager stops, or by the {@link Janitor} (which holds every undo in effect) if the manager is
 * killed. Mechanism only: the manager decides which fault to make where and when one ends.
 */
public final class FaultsInEffect implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(FaultsInEffect.class.getName());

    private final Map<String, Undo> undos = new LinkedHashMap<>();
    private final Janitor janitor;
    /** Undoes faults when their duration is over, or at once when a fence ended them. */
    private final ScheduledExecutorService repairs = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "fault-repair");
        t.setDaemon(true);
        return t;
    });

    public FaultsInEffect(Janitor janitor) {
        this.janitor = janitor;
    }

    /** What {@code spec}'s fault needs in place before it is made ({@link LabFaultKind#prepare}). */
    public void prepare(FaultSpec spec, FaultSite site) throws IOException {
        LabFaultKind.of(spec.kind()).prepare(spec, site);
    }

    /** Makes {@code spec}'s fault at {@code site} (its kind does); its undo is the janitor's too from now on. */
    public Undo make(FaultSpec spec, FaultSite site) throws IOException {
        Undo undo = LabFaultKind.of(spec.kind()).make(spec, site);
        janitor.register(site.faultId(), undo.script());
        return undo;
    }

    /** Keeps a made fault in effect for {@code durationMillis}, then undoes it and calls {@code onUndone}. */
    public void holdFor(String faultId, Undo undo, long durationMillis, Runnable onUndone) {
        synchronized (undos) {
            undos.put(faultId, undo);
        }
        repairs.schedule(() -> {
            Undo u = take(faultId);
            if (u != null) { // else a fence or the shutdown ended it first
                undo(faultId, u);
                onUndone.run();
            }
        }, durationMillis, TimeUnit.MILLISECONDS);
    }

    /** A fence ended the fault: it is undone at once, in the repair thread (or here, once that is closed). */
    public void endNow(String faultId, boolean inThisThread) {
        Undo u = take(faultId);
        if (u != null) {
            if (inThisThread) {
                undo(faultId, u);
            } else {
                repairs.execute(() -> undo(faultId, u));
            }
        }
    }

    /** Undoes a fault now; a failure is logged, and the janitor's script retries when the manager exits. */
    public void undo(String faultId, Undo undo) {
        try {
            undo.run();
            janitor.done(faultId);
        } catch (IOException | RuntimeException e) {
            LOG.warning("could not undo fault " + faultId + " (the clean-up script "
                    + "retries when the manager exits): " + e.getMessage());
        }
    }

    /** Stops the repair thread, then undoes every fault still in effect, calling {@code onUndone} for each. */
    public void undoAll(Consumer<String> onUndone) {
        repairs.shutdownNow();
        try {
            repairs.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Map<String, Undo> left;
        synchronized (undos) {
            left = new LinkedHashMap<>(undos);
            undos.clear();
        }
        left.forEach((id, undo) -> {
            undo(id, undo);
            onUndone.accept(id);
        });
    }

    /**
     * Undoes now every fault still in effect but those in {@code outlasting}, which their durations end as before (and
     * the janitor, if this JVM is killed first).
     */
    public void undoAllBut(Set<String> outlasting) {
        Map<String, Undo> now = new LinkedHashMap<>();
        synchronized (undos) {
            undos.forEach((id, undo) -> {
                if (!outlasting.contains(id)) {
                    now.put(id, undo);
                }
            });
            now.keySet().forEach(undos::remove);
        }
        now.forEach(this::undo);
    }

    private Undo take(String faultId) {
        synchronized (undos) {
            return undos.remove(faultId);
        }
    }

    /** Stops the janitor once nothing is left for it to undo (else it runs what is left when this JVM exits). */
    @Override
    public void close() {
        if (!janitor.pending()) {
            janitor.close();
        }
    }
}
