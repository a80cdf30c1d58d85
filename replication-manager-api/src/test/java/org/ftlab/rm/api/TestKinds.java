package org.ftlab.rm.api;

import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Kinds that stand in for the real ones in the contract's tests, registered in this test class path's
 * {@code META-INF/services/org.ftlab.rm.api.FaultKind}: one of each shape the contract tells apart.
 */
final class TestKinds {
    private TestKinds() {
    }

    /** The parts every test kind has alike; the registry makes one instance of each. */
    private abstract static class TestKind implements FaultKind {
        private final String wireName;
        private final Layer layer;
        private final Set<FaultTarget.Node> targets;
        private final boolean lasts;
        private final FaultAmount amount;

        TestKind(String wireName, Layer layer, Set<FaultTarget.Node> targets, boolean lasts, FaultAmount amount) {
            this.wireName = wireName;
            this.layer = layer;
            this.targets = targets;
            this.lasts = lasts;
            this.amount = amount;
        }

        @Override
        public String wireName() {
            return wireName;
        }

        @Override
        public Layer layer() {
            return layer;
        }

        @Override
        public ActsOn actsOn() {
            return ActsOn.REPLICA_PROCESS;
        }

        @Override
        public Set<FaultTarget.Node> targets() {
            return targets;
        }

        @Override
        public boolean takesTwoSides() {
            return false;
        }

        @Override
        public boolean lasts() {
            return lasts;
        }

        @Override
        public FaultAmount amount() {
            return amount;
        }

        @Override
        public boolean failsAReplica(FaultSpec spec, long detectorTimeoutMillis) {
            return false;
        }

        @Override
        public Optional<String> whyNot(LabFacts lab, Function<String, Optional<String>> unusableController) {
            return Optional.empty();
        }

        @Override
        public Optional<StallCause> cause() {
            return Optional.empty();
        }

        @Override
        public boolean madeByManager() {
            return false;
        }
    }

    /** One replica, for a duration, with an amount. */
    public static final class Dim extends TestKind {
        public Dim() {
            super("dim", Layer.PROCESS, EnumSet.of(FaultTarget.Node.PRIMARY, FaultTarget.Node.BACKUP), true,
                    FaultAmount.of("percent", 10, 1, 100, 5, 10));
        }
    }

    /** Two sides, for a duration. */
    public static final class Cut extends TestKind {
        public Cut() {
            super("cut", Layer.NETWORK, EnumSet.allOf(FaultTarget.Node.class), true, FaultAmount.NONE);
        }

        @Override
        public boolean takesTwoSides() {
            return true;
        }
    }

    /** The database, over once made. */
    public static final class Blip extends TestKind {
        public Blip() {
            super("blip", Layer.DATABASE, EnumSet.of(FaultTarget.Node.DB), false, FaultAmount.NONE);
        }
    }
}
