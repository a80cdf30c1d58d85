package org.ftlab.tart;

/**
 * The paper's crude estimator: a fixed time per message whatever the handling did (its §III.A used 600 µs, the mean
 * over all executions). Cheap and exact when the work does not vary; with variable work its errors behave like
 * jitter and the pessimism delay grows (13% overhead at 1 to 19 iterations in the paper).
 */
public record ConstantEstimator(long ticksPerMessage) implements Estimator {
    public ConstantEstimator {
        if (ticksPerMessage < 1) {
            throw new IllegalArgumentException("a constant estimate must be at least 1 tick, was " + ticksPerMessage);
        }
    }

    @Override
    public long ticks(long[] work) {
        return ticksPerMessage;
    }

    @Override
    public long minTicks() {
        return ticksPerMessage;
    }

    @Override
    public String describe() {
        return "constant " + ticksPerMessage + " ticks";
    }
}
