package org.ftlab.rm.api;

import java.util.List;

/**
 * {@code POST /degree}: the view's replication degree becomes {@code replicas} — a grid whose degree is a factor
 * runs every level on one lab. Lowering it moves the last backups out of the view into the spare pool (they keep
 * running, warm, and are the first spares taken); raising it takes spares into the view, and launches replacements
 * for the ones missing. The primary never leaves. The degree cannot exceed the one the lab was started with (its
 * replicas and spares are sized for it). The answer is a {@link Result}.
 */
public record DegreeChange(int replicas) {
    public DegreeChange {
        if (replicas < 1) {
            throw new IllegalArgumentException("the replication degree must be at least 1, was " + replicas);
        }
    }

    /**
     * The view after the change: its epoch, the degree asked for, the replicas that left the view for the spare pool,
     * those that joined it from the pool, and how many are being launched because the pool had too few.
     */
    public record Result(long epoch, int targetDegree, List<String> left, List<String> joined, int launching) {
        public Result {
            left = List.copyOf(left);
            joined = List.copyOf(joined);
        }
    }
}
