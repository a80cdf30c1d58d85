package org.ftlab.harness.analysis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.math3.distribution.FDistribution;
import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.ArrayRealVector;
import org.apache.commons.math3.linear.RealMatrix;
import org.apache.commons.math3.linear.RealVector;
import org.apache.commons.math3.linear.SingularValueDecomposition;

/**
 * A full-factorial analysis of variance with main effects and two-way interactions, by least squares on treatment-coded
 * factors, with <b>Type II</b> sums of squares: an effect's sum of squares is the drop in residual sum of squares when
 * it is added to the model of every term that does not contain it (a main effect A is tested after the other main
 * effects and the interactions without A; an interaction after every other term). This is what R's
 * {@code car::Anova(type = 2)} and statsmodels' {@code anova_lm(typ=2)} compute; in a balanced design it equals the
 * classical (Type I = Type III) decomposition. The error term is the residual of the full model (here: the variance
 * between replicates of a configuration, plus the three- and four-way interactions). Rank-deficient designs (empty
 * cells) are handled by the pseudo-inverse: an effect's degrees of freedom are the rank it adds.
 *
 * <p>For each effect: df, sum of squares, F = (SS/df) / (SSE/df<sub>error</sub>), p = P(F(df, df<sub>error</sub>) &gt;
 * F) and partial η² = SS / (SS + SSE).
 */
public final class FactorialAnova {
    private static final double RANK_TOLERANCE = 1e-9;

    /** One observation: the level of every factor (by factor name) and the response. */
    public record Observation(Map<String, String> levels, double value) {
    }

    /**
     * One effect: a factor ({@code clients}) or a two-way interaction ({@code clients:think_ms}); f, p and partial η²
     * are null when the effect adds no rank or the error has no degrees of freedom.
     */
    public record Effect(String effect, int df, double sumOfSquares, Double f, Double p, Double partialEtaSq) {
    }

    /** The table: effects in order (main effects, then interactions), and the error term. */
    public record Table(List<Effect> effects, int errorDf, double errorSumOfSquares, int n) {
    }

    private FactorialAnova() {
    }

    /**
     * The Type II table of {@code observations} on {@code factors} (in that order; a factor with a single level is
     * left out, as are interactions with it). Null when fewer than two factors vary or the design leaves no error
     * degrees of freedom.
     */
    public static Table typeII(List<String> factors, List<Observation> observations) {
        List<String> varying = new ArrayList<>();
        Map<String, List<String>> levels = new LinkedHashMap<>();
        for (String f : factors) {
            List<String> l = new ArrayList<>();
            for (Observation o : observations) {
                String v = o.levels().get(f);
                if (v == null) {
                    throw new IllegalArgumentException("observation without a level of " + f);
                }
                if (!l.contains(v)) {
                    l.add(v);
                }
            }
            if (l.size() >= 2) {
                varying.add(f);
                levels.put(f, l);
            }
        }
        if (varying.isEmpty()) {
            return null;
        }
        List<List<String>> terms = new ArrayList<>();
        for (String f : varying) {
            terms.add(List.of(f));
        }
        for (int i = 0; i < varying.size(); i++) {
            for (int j = i + 1; j < varying.size(); j++) {
                terms.add(List.of(varying.get(i), varying.get(j)));
            }
        }
        int n = observations.size();
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            y[i] = observations.get(i).value();
        }
        Map<List<String>, double[][]> columns = new LinkedHashMap<>();
        for (List<String> t : terms) {
            columns.put(t, columns(t, levels, observations));
        }
        Fit full = fit(terms, columns, y);
        int errorDf = n - full.rank;
        if (errorDf <= 0) {
            return null;
        }
        double mse = full.rss / errorDf;
        List<Effect> effects = new ArrayList<>();
        FDistribution dist;
        for (List<String> t : terms) {
            List<List<String>> base = new ArrayList<>();
            for (List<String> other : terms) {
                if (!other.equals(t) && !other.containsAll(t)) {
                    base.add(other);
                }
            }
            List<List<String>> with = new ArrayList<>(base);
            with.add(t);
            Fit without = fit(base, columns, y);
            Fit withT = t.size() == 2 && base.size() == terms.size() - 1 ? full : fit(with, columns, y);
            int df = withT.rank - without.rank;
            double ss = Math.max(0, without.rss - withT.rss);
            String name = String.join(":", t);
            if (df <= 0) {
                effects.add(new Effect(name, 0, 0, null, null, null));
                continue;
            }
            double f = (ss / df) / mse;
            dist = new FDistribution(null, df, errorDf);
            Double p = mse == 0 ? null : 1 - dist.cumulativeProbability(f);
            effects.add(new Effect(name, df, ss, mse == 0 ? null : f, p, ss + full.rss == 0 ? null
                    : ss / (ss + full.rss)));
        }
        return new Table(effects, errorDf, full.rss, n);
    }

    private record Fit(double rss, int rank) {
    }

    /** Least squares of y on an intercept and the terms' columns: residual sum of squares and rank. */
    private static Fit fit(List<List<String>> terms, Map<List<String>, double[][]> columns, double[] y) {
        int n = y.length;
        int p = 1;
        for (List<String> t : terms) {
            p += columns.get(t).length;
        }
        double[][] x = new double[n][p];
        for (int i = 0; i < n; i++) {
            x[i][0] = 1;
        }
        int c = 1;
        for (List<String> t : terms) {
            for (double[] col : columns.get(t)) {
                for (int i = 0; i < n; i++) {
                    x[i][c] = col[i];
                }
                c++;
            }
        }
        RealMatrix m = new Array2DRowRealMatrix(x, false);
        SingularValueDecomposition svd = new SingularValueDecomposition(m);
        double[] s = svd.getSingularValues();
        double threshold = s.length == 0 ? 0 : s[0] * Math.max(n, p) * RANK_TOLERANCE;
        int rank = 0;
        for (double v : s) {
            if (v > threshold) {
                rank++;
            }
        }
        // Project y onto the column space: U_r U_rᵀ y, with the left singular vectors of the non-zero singular values.
        RealMatrix u = svd.getU();
        RealVector yv = new ArrayRealVector(y, false);
        RealVector fitted = new ArrayRealVector(n);
        for (int k = 0; k < rank; k++) {
            RealVector uk = u.getColumnVector(k);
            fitted = fitted.add(uk.mapMultiply(uk.dotProduct(yv)));
        }
        double rss = 0;
        for (int i = 0; i < n; i++) {
            double r = y[i] - fitted.getEntry(i);
            rss += r * r;
        }
        return new Fit(rss, rank);
    }

    /** Treatment-coded columns of a term: one indicator per non-baseline level, products for an interaction. */
    private static double[][] columns(List<String> term, Map<String, List<String>> levels,
            List<Observation> observations) {
        List<double[]> cols = new ArrayList<>();
        cols.add(null);
        for (String factor : term) {
            List<String> l = levels.get(factor);
            List<double[]> next = new ArrayList<>();
            for (double[] prev : cols) {
                for (int k = 1; k < l.size(); k++) {
                    double[] col = new double[observations.size()];
                    for (int i = 0; i < col.length; i++) {
                        double ind = observations.get(i).levels().get(factor).equals(l.get(k)) ? 1 : 0;
                        col[i] = prev == null ? ind : prev[i] * ind;
                    }
                    next.add(col);
                }
            }
            cols = next;
        }
        return cols.toArray(new double[0][]);
    }
}
