package org.ftlab.stateful;

import java.io.Serializable;
import java.util.Locale;
import org.ftlab.tart.ConstantEstimator;
import org.ftlab.tart.Estimator;
import org.ftlab.tart.LinearEstimator;
import org.ftlab.tart.Order;
import org.ftlab.tart.SilenceMode;

/**
 * How the stateful tier runs: validated here, where they are declared.
 *
 * @param order virtual-time order (deterministic) or arrival order ({@code --determinism off})
 * @param silence how the engine learns its gateways are silent
 * @param estimator {@code regression} (fitted to measured work, seed 003 §II.H) or {@code constant}
 * @param checkpointEvery a soft checkpoint after this many messages handled
 * @param gateways the senders feeding the engine (at least 2, the paper's Figure 1)
 * @param workSpread the gateways' work variability: iterations from {@code 10 − spread} to {@code 10 + spread}
 */
public record TierSettings(Order order, SilenceMode silence, EstimatorKind estimator, int checkpointEvery,
        int gateways, int workSpread) implements Serializable {
    public static final int DEFAULT_CHECKPOINT_EVERY = 500;
    public static final TierSettings DEFAULTS = new TierSettings(Order.VIRTUAL_TIME, SilenceMode.CURIOSITY,
            EstimatorKind.REGRESSION, DEFAULT_CHECKPOINT_EVERY, 2, 9);
    /** The first estimate of a loop iteration, ticks, before any is measured ("from known costs per instruction"). */
    static final long FIRST_GUESS_TICKS_PER_ITERATION = 10_000;

    public TierSettings {
        if (checkpointEvery < 1 || checkpointEvery > 1_000_000) {
            throw new IllegalArgumentException("--checkpoint-every must be 1 to 1000000 messages, was "
                    + checkpointEvery);
        }
        if (gateways < 2 || gateways > 8) {
            throw new IllegalArgumentException("the stateful tier needs 2 to 8 gateways, was " + gateways);
        }
        GatewayWork.checkSpread(workSpread);
    }

    /** How the gateways estimate their handling. */
    public enum EstimatorKind {
        /** Ticks per loop iteration fitted by least squares to measured handlings, refitted as they drift. */
        REGRESSION,
        /** One time per message, the mean of measured handlings, whatever the iterations. */
        CONSTANT;

        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static EstimatorKind parse(String s) {
            for (EstimatorKind k : values()) {
                if (k.wireName().equals(s)) {
                    return k;
                }
            }
            throw new IllegalArgumentException("--estimator must be regression or constant, was '" + s + "'");
        }
    }

    /** A gateway's first estimator, before anything was measured. */
    public Estimator firstEstimator() {
        long min = GatewayWork.minIterations(workSpread);
        return estimator == EstimatorKind.REGRESSION
                ? new LinearEstimator(0, new double[] {FIRST_GUESS_TICKS_PER_ITERATION}, new long[] {min})
                : new ConstantEstimator(FIRST_GUESS_TICKS_PER_ITERATION * GatewayWork.MEAN_ITERATIONS);
    }

    /**
     * The settings given in the words a run records and the doors carry ({@code determinism} {@code on} or
     * {@code off}, {@code silence} and {@code estimator} by their wire names); one line naming the valid values
     * otherwise.
     */
    public static TierSettings parse(String determinism, String silence, String estimator, int checkpointEvery,
            int gateways, int workSpread) {
        Order order = switch (determinism) {
            case "on" -> Order.VIRTUAL_TIME;
            case "off" -> Order.ARRIVAL;
            default -> throw new IllegalArgumentException("--determinism must be on or off, was '" + determinism
                    + "'");
        };
        return new TierSettings(order, SilenceMode.parse(silence), EstimatorKind.parse(estimator), checkpointEvery,
                gateways, workSpread);
    }

    /** {@code on} for virtual-time order, {@code off} for arrival order: the word {@link #parse} reads. */
    public String determinism() {
        return order == Order.VIRTUAL_TIME ? "on" : "off";
    }
}
