package org.ftlab.harness.analysis;

import java.util.List;
import org.apache.commons.math3.stat.regression.SimpleRegression;
import org.ftlab.harness.analysis.RunAnalysis.Entry;
import org.ftlab.harness.analysis.RunAnalysis.MagicalOnePercent;
import org.ftlab.harness.analysis.RunAnalysis.Regression;

/**
 * The 99th percentile against the mean across configurations, each over all its methods: the least-squares line
 * of p99 on the mean, and the "magical 1%" verdicts (p99 within 10× and 25× the mean).
 */
final class P99OnMean {
    private P99OnMean() {
    }

    /**
     * p99 on mean across configurations, as in the seed's experiments (its model: p99 ≈ 1.04·mean + 263 µs,
     * r = 0.82); null with fewer than 3 configurations or no spread in the mean.
     */
    static Regression regression(List<Entry> entries) {
        SimpleRegression r = new SimpleRegression();
        for (Entry e : entries) {
            if (e.method().equals("all") && e.stats() != null) {
                r.addData(e.stats().mean(), e.stats().p99());
            }
        }
        if (r.getN() < 3 || Double.isNaN(r.getSlope())) {
            return null;
        }
        return new Regression((int) r.getN(), r.getSlope(), r.getIntercept(), r.getR(), r.getSignificance());
    }

    /** How many configurations have p99 within 10× and 25× the mean at p &lt; 0.01, and how many are too small. */
    static MagicalOnePercent magical(List<Entry> entries) {
        int tested = 0;
        int w10 = 0;
        int w25 = 0;
        int untestable = 0;
        for (Entry e : entries) {
            if (!e.method().equals("all") || e.stats() == null) {
                continue;
            }
            if (e.stats().p99Within(10) == null) {
                untestable++;
                continue;
            }
            tested++;
            w10 += e.stats().p99Within(10) ? 1 : 0;
            w25 += e.stats().p99Within(25) ? 1 : 0;
        }
        return new MagicalOnePercent(tested, w10, w25, untestable);
    }
}
