package org.ftlab.tart;

import java.util.Arrays;
import java.util.Locale;

/**
 * Seed 003's equation (1): Δτ = β₀ + β₁ξ₁ + … + βₖξₖ, ticks from the execution counts ξ of a handler's basic blocks.
 * Coefficients are clamped at 0, so the estimate never falls as the work grows, and {@link #minTicks} (the estimate
 * of the least work a handling can do) is a true lower bound.
 *
 * @param interceptTicks β₀
 * @param ticksPerUnit βᵢ, ticks per execution of block i
 * @param minWork the least count of each block any handling executes
 */
public record LinearEstimator(double interceptTicks, double[] ticksPerUnit, long[] minWork) implements Estimator {
    public LinearEstimator {
        if (ticksPerUnit.length != minWork.length) {
            throw new IllegalArgumentException(ticksPerUnit.length + " coefficients for " + minWork.length
                    + " work counts");
        }
        interceptTicks = Math.max(0, interceptTicks);
        ticksPerUnit = Arrays.stream(ticksPerUnit).map(b -> Math.max(0, b)).toArray();
        minWork = minWork.clone();
    }

    @Override
    public long ticks(long[] work) {
        if (work.length != ticksPerUnit.length) {
            throw new IllegalArgumentException("work has " + work.length + " counts, the estimator "
                    + ticksPerUnit.length);
        }
        double t = interceptTicks;
        for (int i = 0; i < work.length; i++) {
            t += ticksPerUnit[i] * work[i];
        }
        return Math.max(1, (long) Math.ceil(t));
    }

    @Override
    public long minTicks() {
        return ticks(minWork);
    }

    @Override
    public String describe() {
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "linear %.0f", interceptTicks));
        for (int i = 0; i < ticksPerUnit.length; i++) {
            s.append(String.format(Locale.ROOT, " + %.1f·ξ%d", ticksPerUnit[i], i + 1));
        }
        return s.append(" ticks").toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LinearEstimator e && interceptTicks == e.interceptTicks
                && Arrays.equals(ticksPerUnit, e.ticksPerUnit) && Arrays.equals(minWork, e.minWork);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * Double.hashCode(interceptTicks) + Arrays.hashCode(ticksPerUnit)) + Arrays.hashCode(minWork);
    }

    @Override
    public String toString() {
        return describe();
    }
}
