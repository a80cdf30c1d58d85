package org.ftlab.rm.api;

import java.util.Locale;

/**
 * One fault to inject: its kind, target, how long it lasts before the lab repairs it, and its amount (in the kind's
 * {@link FaultKind#amountUnit() unit}; 0 for kinds without one). Checked where it is made, so a bad schedule line or
 * request fails before anything is injected.
 *
 * @param durationMillis how long the fault lasts; 0 for a kind that does not {@link FaultKind#lasts() last}
 */
public record FaultSpec(FaultKind kind, FaultTarget target, long durationMillis, double amount) {
    /** The longest fault a lab injects: longer ones are a run that no longer measures a service. */
    public static final long MAX_DURATION_MILLIS = 600_000;

    public FaultSpec {
        if (kind == null) {
            throw new IllegalArgumentException("a fault needs a kind; use one of " + FaultKind.names());
        }
        if (target == null) {
            target = kind.defaultTarget();
        }
        if (kind.takesTwoSides() != target.isPair()) {
            throw new IllegalArgumentException(kind.takesTwoSides()
                    ? kind.wireName() + " needs two sides, such as primary|clients, was " + target
                    : kind.wireName() + " takes one target, was " + target);
        }
        for (FaultTarget.Node n : new FaultTarget.Node[] {target.node(), target.peer()}) {
            if (n != null && !kind.targets().contains(n)) {
                throw new IllegalArgumentException(kind.wireName() + " cannot target " + n.wireName() + "; it takes "
                        + kind.targets().stream().map(FaultTarget.Node::wireName).toList());
            }
        }
        if (kind.lasts()) {
            if (durationMillis <= 0 || durationMillis > MAX_DURATION_MILLIS) {
                throw new IllegalArgumentException(String.format(Locale.ROOT,
                        "%s needs a duration of 1 ms to %d s, was %d ms", kind.wireName(),
                        MAX_DURATION_MILLIS / 1000, durationMillis));
            }
        } else if (durationMillis != 0) {
            throw new IllegalArgumentException(kind.wireName() + " has no duration (the manager repairs it)");
        }
        amount = kind.checkAmount(amount);
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder(kind.wireName()).append(' ').append(target);
        if (kind.lasts()) {
            s.append(String.format(Locale.ROOT, " for %d ms", durationMillis));
        }
        if (kind.amountUnit() != null) {
            s.append(String.format(Locale.ROOT, " at %s %s", amount == Math.rint(amount) ? Long.toString((long) amount)
                    : Double.toString(amount), kind.amountUnit()));
        }
        return s.toString();
    }
}
