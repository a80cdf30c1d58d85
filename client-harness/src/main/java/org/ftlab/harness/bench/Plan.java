package org.ftlab.harness.bench;

import java.nio.file.Path;
import java.util.function.Supplier;
import org.ftlab.rm.api.Observe;

/**
 * The bench as planned before any lab boots, which a chosen suite checks itself against ({@link Suite#checkPlan}).
 */
public final class Plan {
    private final Path dir;
    private final boolean wildflyCluster;
    private final Supplier<Observe> observe;

    /**
     * @param dir the bench's directory, not yet created
     * @param wildflyCluster whether the lab the suites run on is WildFly's cluster
     * @param observe {@code --observe}, checked when asked for (a suite that does not ask leaves it unread)
     */
    public Plan(Path dir, boolean wildflyCluster, Supplier<Observe> observe) {
        this.dir = dir;
        this.wildflyCluster = wildflyCluster;
        this.observe = observe;
    }

    /** The bench's directory, not yet created: bench.json and the suites' runs go there. */
    public Path dir() {
        return dir;
    }

    /** Whether the lab the suites run on is WildFly's cluster. */
    public boolean wildflyCluster() {
        return wildflyCluster;
    }

    /** Whether the lab's JVMs, and this one, record events. */
    public Observe observe() {
        return observe.get();
    }
}
