package org.ftlab.harness.analysis;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Two analysed runs side by side: for every configuration × method both have, this run's and the other run's mean,
 * p99 and max and their ratios (this ÷ other, so 0.5 means this run took half the time); the fail-over phase
 * medians and the performability of both. Ratios of runs made at different times on a shared machine carry that
 * machine's noise: compare runs made back to back.
 */
public record RunComparison(String otherRun, String otherStrategy, List<Row> rows, Double medianMeanRatio,
        Double medianP99Ratio, List<PhasePair> phases, FailoverAnalysis.Performability thisRun,
        FailoverAnalysis.Performability otherRunPerformability) {

    /** One configuration × method in both runs; latencies µs. */
    public record Row(String config, String method, double meanUs, double otherMeanUs, long p99Us, long otherP99Us,
            long maxUs, long otherMaxUs) {
        public double meanRatio() {
            return meanUs / otherMeanUs;
        }

        public double p99Ratio() {
            return (double) p99Us / otherP99Us;
        }

        public double maxRatio() {
            return (double) maxUs / otherMaxUs;
        }
    }

    /** A fail-over phase's median in both runs, µs; null where a run had no faulty invocation. */
    public record PhasePair(String phase, Long medianUs, Long otherMedianUs) {
    }

    public static RunComparison of(RunAnalysis.Result self, Path otherDir, RunAnalysis.Result other) {
        Map<String, RunAnalysis.Entry> byKey = new HashMap<>();
        Map<String, RunAnalysis.Entry> byConfig = new HashMap<>();
        for (RunAnalysis.Entry e : other.entries()) {
            byKey.put(e.label() + "/" + e.method(), e);
            byConfig.putIfAbsent(e.config() + "/" + e.method(), e);
        }
        List<Row> rows = new ArrayList<>();
        List<Double> meanRatios = new ArrayList<>();
        List<Double> p99Ratios = new ArrayList<>();
        for (RunAnalysis.Entry e : self.entries()) {
            RunAnalysis.Entry o = byKey.get(e.label() + "/" + e.method());
            if (o == null) {
                // runs with different replicate counts: compare with the other run's first replicate of the config
                o = byConfig.get(e.config() + "/" + e.method());
            }
            if (o == null || e.stats() == null || o.stats() == null) {
                continue;
            }
            Row r = new Row(e.label(), e.method(), e.stats().mean(), o.stats().mean(), e.stats().p99(),
                    o.stats().p99(), e.stats().max(), o.stats().max());
            rows.add(r);
            if (e.method().equals("all")) {
                meanRatios.add(r.meanRatio());
                p99Ratios.add(r.p99Ratio());
            }
        }
        List<PhasePair> phases = new ArrayList<>();
        for (String phase : List.of("detection", "failover", "retry", "total")) {
            Long a = median(self.failover(), phase);
            Long b = median(other.failover(), phase);
            if (a != null || b != null) {
                phases.add(new PhasePair(phase, a, b));
            }
        }
        return new RunComparison(otherDir.toString(), other.strategy(), rows, median(meanRatios),
                median(p99Ratios), phases, self.failover() == null ? null : self.failover().run(),
                other.failover() == null ? null : other.failover().run());
    }

    static Long median(FailoverAnalysis.Result r, String phase) {
        if (r == null) {
            return null;
        }
        return r.phases().stream().filter(p -> p.phase().equals(phase)).map(FailoverAnalysis.PhaseStats::medianUs)
                .findFirst().orElse(null);
    }

    static Double median(List<Double> v) {
        if (v.isEmpty()) {
            return null;
        }
        List<Double> s = new ArrayList<>(v);
        s.sort(null);
        return s.get((s.size() - 1) / 2);
    }
}
