package org.ftlab.tart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Estimators: the constant and the linear one, the regression that fits it, and their history of changes. */
class EstimatorsTest {
    @Test
    void theConstantEstimatorGivesItsTicksWhateverTheWork() {
        ConstantEstimator c = new ConstantEstimator(600_000);
        assertEquals(600_000, c.ticks(new long[] {1}));
        assertEquals(600_000, c.ticks(new long[] {19}));
        assertEquals(600_000, c.minTicks());
        assertThrows(IllegalArgumentException.class, () -> new ConstantEstimator(0));
    }

    @Test
    void theLinearEstimatorRoundsUpNeverGoesBelowOneTickAndBoundsItselfByTheLeastWork() {
        LinearEstimator e = new LinearEstimator(10.2, new double[] {61_827, 3}, new long[] {1, 0});
        assertEquals((long) Math.ceil(10.2 + 61_827 * 3 + 3 * 2), e.ticks(new long[] {3, 2}));
        assertEquals(61_838, e.minTicks());
        LinearEstimator negative = new LinearEstimator(-5, new double[] {-2}, new long[] {0});
        assertEquals(1, negative.ticks(new long[] {100}), "coefficients clamp at 0, estimates at 1 tick");
        assertThrows(IllegalArgumentException.class, () -> e.ticks(new long[] {1}));
    }

    @Test
    void theRegressionRecoversThePapersCoefficientWithoutAnInterceptFromNoisyMeasurements() {
        RegressionFit fit = new RegressionFit(1, false, 10_000, new long[] {1});
        SplittableRandom r = new SplittableRandom(3);
        for (int i = 0; i < 10_000; i++) {
            long iterations = 1 + r.nextInt(19);
            // right-skewed noise, as the paper's residuals: mostly small, now and then large
            long noise = (long) (-Math.log(1 - r.nextDouble()) * 20_000);
            fit.add(new long[] {iterations}, 61_827 * iterations + noise - 20_000);
        }
        RegressionFit.Fit f = fit.fit();
        assertEquals(61_827, f.estimator().ticksPerUnit()[0], 61_827 * 0.01);
        assertEquals(0, f.estimator().interceptTicks());
        assertTrue(f.rSquared() > 0.9, "R² " + f.rSquared());
        assertEquals(10_000, f.samples());
    }

    @Test
    void theRegressionWithAnInterceptFitsTwoBlocksAndKeepsOnlyTheNewestWindow() {
        RegressionFit fit = new RegressionFit(2, true, 500, new long[] {1, 0});
        SplittableRandom r = new SplittableRandom(5);
        for (int i = 0; i < 2_000; i++) {
            long a = 1 + r.nextInt(19);
            long b = r.nextInt(5);
            // the first 1,500 samples cost twice as much: the window of 500 forgets them
            long cost = i < 1_500 ? 2 * (5_000 + 40_000 * a + 9_000 * b) : 5_000 + 40_000 * a + 9_000 * b;
            fit.add(new long[] {a, b}, cost);
        }
        RegressionFit.Fit f = fit.fit();
        assertEquals(500, f.samples());
        assertEquals(5_000, f.estimator().interceptTicks(), 1);
        assertEquals(40_000, f.estimator().ticksPerUnit()[0], 1);
        assertEquals(9_000, f.estimator().ticksPerUnit()[1], 1);
        assertEquals(45_000, f.estimator().minTicks(), 2);
    }

    @Test
    void aFitNeedsMoreSamplesThanVariables() {
        RegressionFit fit = new RegressionFit(2, true, 100, new long[] {0, 0});
        fit.add(new long[] {1, 2}, 5);
        assertThrows(IllegalStateException.class, fit::fit);
    }

    @Test
    void aChangeOfEstimatorAppliesFromItsEffectiveTimeAndOnlyAfterEveryTimeAlreadyUsed() {
        EstimatorHistory h = new EstimatorHistory("gateway-1", new ConstantEstimator(100));
        assertEquals(100, h.at(1_000).ticks(new long[0]));
        assertThrows(IllegalArgumentException.class, () -> h.recalibrate(1_000, new ConstantEstimator(50)),
                "a change may not reach back to a time already used");
        DeterminismFault f = h.recalibrate(5_000, new ConstantEstimator(50));
        assertEquals(100, h.at(4_999).ticks(new long[0]), "logged, not yet applied");
        h.apply(f);
        assertEquals(100, h.at(4_999).ticks(new long[0]), "before its effective time: the old estimator");
        assertEquals(50, h.at(5_000).ticks(new long[0]));
        assertEquals(50, h.minTicksFrom(4_000), "the least estimate from a time counts the changes after it");
        assertEquals(List.of(f), h.faults());
        assertThrows(IllegalArgumentException.class, () -> h.apply(new DeterminismFault("gateway-2", 9_000,
                new ConstantEstimator(1))));
    }
}
