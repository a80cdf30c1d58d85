package org.ftlab.harness.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FactorialAnovaTest {

    private static FactorialAnova.Observation obs(double y, String... levels) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < levels.length; i += 2) {
            m.put(levels[i], levels[i + 1]);
        }
        return new FactorialAnova.Observation(m, y);
    }

    private static FactorialAnova.Effect effect(FactorialAnova.Table t, String name) {
        return t.effects().stream().filter(e -> e.effect().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void balancedTwoByTwoWithReplicatesHasTheHandComputedSumsOfSquares() {
        // Cell means a1b1 2, a1b2 6, a2b1 5, a2b2 8; grand mean 5.25; A means 4 / 6.5, B means 3.5 / 7.
        // SS_A = 4·(1.25² + 1.25²) = 12.5; SS_B = 4·(1.75² + 1.75²) = 24.5; SS_AB = 2·4·0.25² = 0.5;
        // SSE = 2 + 2 + 2 + 8 = 14 on 4 df (MSE 3.5): F_A = 3.5714, F_B = 7, F_AB = 0.142857.
        List<FactorialAnova.Observation> o = List.of(
                obs(1, "a", "a1", "b", "b1"), obs(3, "a", "a1", "b", "b1"),
                obs(5, "a", "a1", "b", "b2"), obs(7, "a", "a1", "b", "b2"),
                obs(4, "a", "a2", "b", "b1"), obs(6, "a", "a2", "b", "b1"),
                obs(6, "a", "a2", "b", "b2"), obs(10, "a", "a2", "b", "b2"));
        FactorialAnova.Table t = FactorialAnova.typeII(List.of("a", "b"), o);
        assertEquals(4, t.errorDf());
        assertEquals(14, t.errorSumOfSquares(), 1e-9);
        FactorialAnova.Effect a = effect(t, "a");
        assertEquals(1, a.df());
        assertEquals(12.5, a.sumOfSquares(), 1e-9);
        assertEquals(12.5 / 3.5, a.f(), 1e-9);
        assertEquals(12.5 / (12.5 + 14), a.partialEtaSq(), 1e-9);
        // p from the F(1, 4) distribution (statsmodels anova_lm typ=2 gives the same: 0.131777567494)
        assertEquals(0.131777567494, a.p(), 1e-9);
        FactorialAnova.Effect b = effect(t, "b");
        assertEquals(24.5, b.sumOfSquares(), 1e-9);
        assertEquals(7.0, b.f(), 1e-9);
        assertEquals(0.0572352311066, b.p(), 1e-9);
        FactorialAnova.Effect ab = effect(t, "a:b");
        assertEquals(0.5, ab.sumOfSquares(), 1e-9);
        assertEquals(0.5 / 3.5, ab.f(), 1e-9);
        assertEquals(0.724658636496, ab.p(), 1e-9);
    }

    @Test
    void unbalancedDesignGetsTypeTwoSumsOfSquaresAsStatsmodelsComputesThem() {
        // 3 × 2 × 2 cells with 2 replicates each, the last three observations dropped (one cell empty, one halved).
        // Reference: statsmodels 0.14 anova_lm(ols('y ~ C(a)+C(b)+C(c)+C(a):C(b)+C(a):C(c)+C(b):C(c)'), typ=2).
        double[] y = {3.1, 4.2, 5.0, 6.3, 2.2, 7.7, 8.1, 5.5, 4.4, 6.6, 9.0, 3.3, 5.8, 7.1, 6.2, 4.9, 8.8, 5.1, 6.9,
            7.4, 3.9};
        List<FactorialAnova.Observation> o = new ArrayList<>();
        int i = 0;
        for (String a : List.of("x", "y", "z")) {
            for (String b : List.of("p", "q")) {
                for (String c : List.of("u", "v")) {
                    for (int r = 0; r < 2 && i < y.length; r++) {
                        o.add(obs(y[i++], "a", a, "b", b, "c", c));
                    }
                }
            }
        }
        FactorialAnova.Table t = FactorialAnova.typeII(List.of("a", "b", "c"), o);
        assertEquals(11, t.errorDf());
        assertEquals(47.77, t.errorSumOfSquares(), 1e-9);
        double[][] expected = { // ss, df, F, p
            {5.01155128205, 2, 0.577005067014, 0.577699511991},
            {0.125952380952, 1, 0.0290030602989, 0.867863872403},
            {2.888, 1, 0.665019886958, 0.432096662812},
            {9.8178125, 2, 1.13037405799, 0.35771374352},
            {5.04625, 2, 0.581000104668, 0.57561517178},
            {0.7225, 1, 0.166370106762, 0.69118454873}};
        List<String> names = List.of("a", "b", "c", "a:b", "a:c", "b:c");
        for (int k = 0; k < names.size(); k++) {
            FactorialAnova.Effect e = effect(t, names.get(k));
            assertEquals(expected[k][0], e.sumOfSquares(), 1e-8, names.get(k));
            assertEquals((int) expected[k][1], e.df(), names.get(k));
            assertEquals(expected[k][2], e.f(), 1e-8, names.get(k));
            assertEquals(expected[k][3], e.p(), 1e-8, names.get(k));
        }
    }

    @Test
    void aFactorWithOneLevelIsLeftOutAndNoErrorDegreesOfFreedomGivesNoTable() {
        List<FactorialAnova.Observation> o = List.of(obs(1, "a", "a1", "b", "b1"), obs(2, "a", "a2", "b", "b1"),
                obs(3, "a", "a1", "b", "b1"), obs(5, "a", "a2", "b", "b1"));
        FactorialAnova.Table t = FactorialAnova.typeII(List.of("a", "b"), o);
        assertEquals(List.of("a"), t.effects().stream().map(FactorialAnova.Effect::effect).toList());
        assertEquals(2, t.errorDf());
        // one observation per cell of a 2 × 2 with interaction: nothing left for the error
        assertNull(FactorialAnova.typeII(List.of("a", "b"), List.of(obs(1, "a", "a1", "b", "b1"),
                obs(2, "a", "a2", "b", "b1"), obs(3, "a", "a1", "b", "b2"), obs(5, "a", "a2", "b", "b2"))));
    }
}
