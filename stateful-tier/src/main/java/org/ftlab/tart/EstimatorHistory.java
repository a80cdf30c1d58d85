package org.ftlab.tart;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * A component's estimators over virtual time: the first, and each {@link DeterminismFault} from its effective time on.
 * A replay that applies the same faults computes the same virtual times, whatever real time they were decided at.
 */
public final class EstimatorHistory implements Serializable {
    private static final long serialVersionUID = 1L;
    private final String component;
    private final List<DeterminismFault> versions = new ArrayList<>();
    /** The latest dequeue time an estimate was asked for: a change may only take effect after it. */
    private long latestUsedVt = Long.MIN_VALUE;

    public EstimatorHistory(String component, Estimator first) {
        this.component = component;
        versions.add(new DeterminismFault(component, Long.MIN_VALUE, first));
    }

    /** The estimator in effect for a handling dequeued at {@code dequeueVt}. */
    public synchronized Estimator at(long dequeueVt) {
        latestUsedVt = Math.max(latestUsedVt, dequeueVt);
        return versionAt(dequeueVt);
    }

    private Estimator versionAt(long vt) {
        for (int i = versions.size() - 1; i > 0; i--) {
            if (vt >= versions.get(i).effectiveVt()) {
                return versions.get(i).estimator();
            }
        }
        return versions.get(0).estimator();
    }

    /** The estimator of the latest version: what future handlings use once every change in effect. */
    public synchronized Estimator latest() {
        return versions.get(versions.size() - 1).estimator();
    }

    /**
     * The fault that puts {@code next} in effect from {@code effectiveVt}, which must be later than any dequeue time
     * used so far. Log it synchronously, then {@link #apply} it.
     */
    public synchronized DeterminismFault recalibrate(long effectiveVt, Estimator next) {
        if (effectiveVt <= latestUsedVt || effectiveVt <= versions.get(versions.size() - 1).effectiveVt()) {
            throw new IllegalArgumentException("a new estimator must take effect after virtual time " + Math.max(
                    latestUsedVt, versions.get(versions.size() - 1).effectiveVt()) + ", not at " + effectiveVt);
        }
        return new DeterminismFault(component, effectiveVt, next);
    }

    /** Puts a logged fault in effect (live after logging it, or in a replay). */
    public synchronized void apply(DeterminismFault fault) {
        if (!fault.component().equals(component)) {
            throw new IllegalArgumentException("a fault of " + fault.component() + " applied to " + component);
        }
        if (fault.effectiveVt() <= versions.get(versions.size() - 1).effectiveVt()) {
            throw new IllegalArgumentException("faults apply in the order of their effective times");
        }
        versions.add(fault);
    }

    /** The changes applied so far (not the first estimator). */
    public synchronized List<DeterminismFault> faults() {
        return List.copyOf(versions.subList(1, versions.size()));
    }

    /** The least ticks any handling takes from {@code vt} on (the smallest bound of the versions in effect then). */
    public synchronized long minTicksFrom(long vt) {
        long min = versionAt(vt).minTicks();
        for (DeterminismFault f : versions) {
            if (f.effectiveVt() > vt) {
                min = Math.min(min, f.estimator().minTicks());
            }
        }
        return min;
    }
}
