package org.ftlab.harness.analysis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.stat.correlation.SpearmansCorrelation;
import org.ftlab.harness.analysis.RunAnalysis.Entry;
import org.ftlab.harness.analysis.RunAnalysis.LoadCorrelation;
import org.ftlab.harness.analysis.RunAnalysis.OutlierTradeoff;
import org.ftlab.harness.attribution.Attribution;

/**
 * Seed 000's findings on outliers as rank correlations over a run's blocks (all methods together): the size of the
 * largest outlier against the share of outliers (Finding II), and each process metric against both (Finding IV).
 */
final class OutlierCorrelations {
    /** Fewest blocks a correlation is ranked over. */
    static final int MIN_BLOCKS = 4;

    private OutlierCorrelations() {
    }

    /** Finding II: max ÷ mean against the share of 3σ outliers; null with too few blocks or no spread to rank. */
    static OutlierTradeoff tradeoff(List<Entry> entries) {
        List<double[]> points = new ArrayList<>();
        for (Entry e : entries) {
            LatencyStats s = e.stats();
            if (e.method().equals("all") && s != null && s.mean() > 0) {
                points.add(new double[] {s.outliers3Sigma() / (double) s.count(), s.max() / s.mean()});
            }
        }
        double[] rhoP = spearman(points.stream().mapToDouble(x -> x[0]).toArray(),
                points.stream().mapToDouble(x -> x[1]).toArray());
        return rhoP == null ? null : new OutlierTradeoff(points.size(), rhoP[0], rhoP[1]);
    }

    /**
     * Finding IV: each process metric the blocks recorded ({@code blocks}' load) against their max ÷ mean and
     * their share of 3σ outliers, metrics in alphabetical order; a metric neither side of which can be ranked is left
     * out.
     */
    static List<LoadCorrelation> withLoad(List<Entry> entries, List<Attribution.BlockCauses> blocks) {
        Map<String, LatencyStats> byBlock = new LinkedHashMap<>();
        for (Entry e : entries) {
            if (e.method().equals("all") && e.stats() != null && e.stats().mean() > 0) {
                byBlock.put(e.label(), e.stats());
            }
        }
        Map<String, List<double[]>> points = new TreeMap<>(); // metric -> {value, max/mean, share}
        for (Attribution.BlockCauses b : blocks) {
            LatencyStats s = byBlock.get(b.block());
            if (s == null || b.load() == null) {
                continue;
            }
            b.load().forEach((metric, v) -> points.computeIfAbsent(metric, k -> new ArrayList<>())
                    .add(new double[] {v, s.max() / s.mean(), s.outliers3Sigma() / (double) s.count()}));
        }
        List<LoadCorrelation> out = new ArrayList<>();
        points.forEach((metric, p) -> {
            double[] x = p.stream().mapToDouble(v -> v[0]).toArray();
            double[] rhoP1 = spearman(x, p.stream().mapToDouble(v -> v[1]).toArray());
            double[] rhoP2 = spearman(x, p.stream().mapToDouble(v -> v[2]).toArray());
            if (rhoP1 != null || rhoP2 != null) { // NaN where one side cannot be ranked (all equal)
                out.add(new LoadCorrelation(metric, x.length, rhoP1 == null ? Double.NaN : rhoP1[0],
                        rhoP1 == null ? Double.NaN : rhoP1[1], rhoP2 == null ? Double.NaN : rhoP2[0],
                        rhoP2 == null ? Double.NaN : rhoP2[1]));
            }
        });
        return out;
    }

    /**
     * Spearman's ρ of two series and its two-sided p (Student's t with n − 2 degrees of freedom); null with fewer
     * than {@value #MIN_BLOCKS} points or a constant series.
     */
    static double[] spearman(double[] x, double[] y) {
        int n = x.length;
        if (n < MIN_BLOCKS) {
            return null;
        }
        double rho = new SpearmansCorrelation().correlation(x, y);
        if (Double.isNaN(rho)) {
            return null; // a constant series: nothing to rank
        }
        if (Math.abs(rho) >= 1) {
            return new double[] {rho, 0};
        }
        double t = rho * Math.sqrt((n - 2) / (1 - rho * rho));
        return new double[] {rho, 2 * new TDistribution(null, n - 2).cumulativeProbability(-Math.abs(t))};
    }
}
