package org.ftlab.tart;

import org.apache.commons.math3.stat.regression.OLSMultipleLinearRegression;

/**
 * Fits a {@link LinearEstimator} to measured handlings, as seed 003 §II.H does: each sample is a handling's work (the
 * execution counts ξ of its blocks) and the real time it took; ordinary least squares (Commons Math) gives the βs
 * and R². The paper's own fit (equation 2: 61,827 ticks per loop iteration, R² = 0.915) has no intercept; both are
 * offered. Keeps the newest {@code window} samples.
 */
public final class RegressionFit {
    private final int variables;
    private final boolean intercept;
    private final long[][] work;
    private final double[] ticks;
    private final long[] minWork;
    private int next;
    private int count;

    /**
     * @param variables how many block counts a sample has
     * @param intercept whether the fit has a β₀
     * @param window samples kept (the newest)
     * @param minWork the least count of each block any handling executes (the fitted estimator's lower bound)
     */
    public RegressionFit(int variables, boolean intercept, int window, long[] minWork) {
        if (variables < 1 || minWork.length != variables) {
            throw new IllegalArgumentException("a fit needs at least one variable and its least count");
        }
        if (window < variables + 2) {
            throw new IllegalArgumentException("a window of " + window + " samples cannot fit " + variables
                    + " variables");
        }
        this.variables = variables;
        this.intercept = intercept;
        this.work = new long[window][];
        this.ticks = new double[window];
        this.minWork = minWork.clone();
    }

    /** Adds one handling: its block counts and the real time it took, ns. */
    public void add(long[] sampleWork, long tookNanos) {
        if (sampleWork.length != variables) {
            throw new IllegalArgumentException("a sample of " + sampleWork.length + " counts for " + variables
                    + " variables");
        }
        work[next] = sampleWork.clone();
        ticks[next] = tookNanos;
        next = (next + 1) % work.length;
        count = Math.min(count + 1, work.length);
    }

    public int samples() {
        return count;
    }

    /** The least-squares fit of the samples kept, with its R²; fails when they cannot determine it. */
    public Fit fit() {
        if (count < variables + 2) {
            throw new IllegalStateException(count + " samples cannot fit " + variables + " variables");
        }
        double[][] x = new double[count][variables];
        double[] y = new double[count];
        for (int i = 0; i < count; i++) {
            for (int j = 0; j < variables; j++) {
                x[i][j] = work[i][j];
            }
            y[i] = ticks[i];
        }
        OLSMultipleLinearRegression ols = new OLSMultipleLinearRegression();
        ols.setNoIntercept(!intercept);
        ols.newSampleData(y, x);
        double[] beta = ols.estimateRegressionParameters();
        double b0 = intercept ? beta[0] : 0;
        double[] per = new double[variables];
        System.arraycopy(beta, intercept ? 1 : 0, per, 0, variables);
        return new Fit(new LinearEstimator(b0, per, minWork), ols.calculateRSquared(), count);
    }

    /** A fitted estimator, its R² (uncentred when the fit has no intercept, as the paper's) and its sample count. */
    public record Fit(LinearEstimator estimator, double rSquared, int samples) {
    }
}
