package org.ftlab.rm.api;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * What a fault kind's amount means: its unit, its default, its bounds and the levels a random schedule draws it from.
 *
 * @param unit {@code cpu_percent}, {@code drop_percent}, {@code kbit_per_s}, …; null for a kind without an amount
 * @param levels the amounts a random schedule draws from; none for a kind without an amount
 */
public record FaultAmount(String unit, double defaultAmount, double min, double max, List<Double> levels) {
    /** The amount of a kind that takes none. */
    public static final FaultAmount NONE = new FaultAmount(null, 0, 0, 0, List.of());

    public FaultAmount {
        levels = List.copyOf(levels);
        if ((unit == null) != levels.isEmpty()) {
            throw new IllegalArgumentException("an amount has a unit exactly when it has levels to draw from");
        }
    }

    /** An amount in {@code unit}, {@code min} to {@code max}, 0 standing for {@code defaultAmount}. */
    public static FaultAmount of(String unit, double defaultAmount, double min, double max, double... levels) {
        return new FaultAmount(unit, defaultAmount, min, max, Arrays.stream(levels).boxed().toList());
    }

    /** Checks an amount of kind {@code kind}; returns it, or the default for 0. */
    double check(String kind, double amount) {
        if (unit == null) {
            if (amount != 0) {
                throw new IllegalArgumentException(kind + " takes no amount, was " + amount);
            }
            return 0;
        }
        if (amount == 0) {
            return defaultAmount;
        }
        if (!(amount >= min && amount <= max)) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "%s amount must be %s to %s %s, was %s",
                    kind, fmt(min), fmt(max), unit, fmt(amount)));
        }
        return amount;
    }

    private static String fmt(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
