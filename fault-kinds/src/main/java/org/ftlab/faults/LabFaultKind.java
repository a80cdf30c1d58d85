package org.ftlab.faults;

import java.io.IOException;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import org.ftlab.os.Undo;
import org.ftlab.rm.api.FaultAmount;
import org.ftlab.rm.api.FaultKind;
import org.ftlab.rm.api.FaultSpec;
import org.ftlab.rm.api.FaultTarget;
import org.ftlab.rm.api.StallCause;

/**
 * A fault kind as the lab makes it: what the kind is (its constructor's arguments and its support check, as the
 * contract's {@link FaultKind} asks) and how it is made and undone ({@link #make}). A new kind is a final subclass with
 * a public no-argument constructor, registered in {@code META-INF/services/org.ftlab.rm.api.FaultKind}; leaving out a
 * part is a compile error. Two instances of one kind are equal.
 */
public abstract class LabFaultKind implements FaultKind {
    /** For {@code lasts}: the fault lasts its duration, then the lab undoes it. */
    protected static final boolean LASTS = true;
    /** For {@code lasts}: the fault is over once made, or the manager repairs it; it has no duration. */
    protected static final boolean HAS_NO_DURATION = false;
    /** For {@code cause}: not a stall of known cause. */
    protected static final Optional<StallCause> NOT_A_STALL = Optional.empty();

    private final String wireName;
    private final Layer layer;
    private final ActsOn actsOn;
    private final Set<FaultTarget.Node> targets;
    private final boolean lasts;
    private final FaultAmount amount;
    private final Optional<StallCause> cause;

    /**
     * {@code cause}: what the attribution should name it by, which a stall and only a stall has
     * ({@link #attributedTo}).
     */
    protected LabFaultKind(String wireName, Layer layer, ActsOn actsOn, Set<FaultTarget.Node> targets, boolean lasts,
            FaultAmount amount, Optional<StallCause> cause) {
        if (targets.isEmpty()) {
            throw new IllegalArgumentException(wireName + " needs a target");
        }
        if ((layer == Layer.STALL) != cause.isPresent()) {
            throw new IllegalArgumentException(wireName + ": a stall, and only a stall, names the cause the "
                    + "attribution should give it");
        }
        this.wireName = wireName;
        this.layer = layer;
        this.actsOn = actsOn;
        this.targets = Collections.unmodifiableSet(EnumSet.copyOf(targets));
        this.lasts = lasts;
        this.amount = amount;
        this.cause = cause;
    }

    /** The cause a stall should be attributed to: {@code name} at {@code place}. */
    protected static Optional<StallCause> attributedTo(String name, StallCause.Place place) {
        return Optional.of(new StallCause(name, place));
    }

    /** Whether {@code spec}'s fault lasts longer than the detector takes to suspect. */
    protected static boolean outlastsTimeout(FaultSpec spec, long detectorTimeoutMillis) {
        return spec.durationMillis() > detectorTimeoutMillis;
    }

    /**
     * The lab's making of {@code kind}: every registered kind is one.
     *
     * @throws IllegalArgumentException if a kind was registered that the lab cannot make
     */
    public static LabFaultKind of(FaultKind kind) {
        if (kind instanceof LabFaultKind k) {
            return k;
        }
        throw new IllegalArgumentException(kind.wireName() + " is registered but not made by this lab (its class "
                + kind.getClass().getName() + " does not extend " + LabFaultKind.class.getSimpleName() + ")");
    }

    /**
     * Puts in place what {@code spec}'s fault needs before it is made, so that making it is the fault alone; nothing
     * for most kinds.
     */
    public void prepare(FaultSpec spec, FaultSite site) throws IOException {
    }

    /**
     * Makes {@code spec}'s fault at {@code site} and returns its undo, whose script the janitor runs if the manager is
     * killed first.
     */
    public abstract Undo make(FaultSpec spec, FaultSite site) throws IOException;

    @Override
    public final String wireName() {
        return wireName;
    }

    @Override
    public final Layer layer() {
        return layer;
    }

    @Override
    public final ActsOn actsOn() {
        return actsOn;
    }

    @Override
    public final Set<FaultTarget.Node> targets() {
        return targets;
    }

    @Override
    public final boolean lasts() {
        return lasts;
    }

    @Override
    public final FaultAmount amount() {
        return amount;
    }

    @Override
    public final Optional<StallCause> cause() {
        return cause;
    }

    /** One target node, for all but a kind that acts between two sides. */
    @Override
    public boolean takesTwoSides() {
        return false;
    }

    /** Made by the lab, for all but a kind the manager makes itself. */
    @Override
    public boolean madeByManager() {
        return false;
    }

    @Override
    public final boolean equals(Object o) {
        return o != null && o.getClass() == getClass();
    }

    @Override
    public final int hashCode() {
        return getClass().hashCode();
    }

    @Override
    public final String toString() {
        return wireName;
    }
}
