package org.ftlab.harness.analysis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.commons.math3.stat.inference.OneWayAnova;
import org.ftlab.harness.analysis.RunAnalysis.Anova;
import org.ftlab.harness.analysis.RunAnalysis.Design;
import org.ftlab.harness.analysis.RunAnalysis.Entry;
import org.ftlab.harness.analysis.RunAnalysis.FactorialEffect;

/**
 * Whether the grid's factors move the latency (criterion C3): ANOVA of mean, p99 and max across configurations,
 * one-way on each factor and, in a run with replicates, full factorial. One observation per configuration's block
 * and method: the method entries only ("all" would count each request twice).
 */
final class ConfigurationAnova {
    private ConfigurationAnova() {
    }

    /** One-way ANOVA of each metric on each factor; f and p null where a group has fewer than 2 observations. */
    static List<Anova> oneWay(List<Entry> entries, Design design) {
        List<Entry> perMethod = perMethod(entries);
        Map<String, Function<Entry, Object>> factors = factors(design, perMethod);
        Map<String, Function<LatencyStats, Double>> metrics = metrics();
        List<Anova> out = new ArrayList<>();
        for (Map.Entry<String, Function<Entry, Object>> factor : factors.entrySet()) {
            for (Map.Entry<String, Function<LatencyStats, Double>> metric : metrics.entrySet()) {
                Map<Object, List<Double>> groups = new LinkedHashMap<>();
                for (Entry e : perMethod) {
                    groups.computeIfAbsent(factor.getValue().apply(e), k -> new ArrayList<>())
                            .add(metric.getValue().apply(e.stats()));
                }
                List<double[]> data = groups.values().stream()
                        .map(l -> l.stream().mapToDouble(Double::doubleValue).toArray()).toList();
                boolean testable = data.size() >= 2 && data.stream().allMatch(d -> d.length >= 2);
                Double f = null;
                Double p = null;
                if (testable) {
                    OneWayAnova anova = new OneWayAnova();
                    f = anova.anovaFValue(data);
                    p = anova.anovaPValue(data);
                    if (f.isNaN()) {
                        f = null;
                        p = null;
                    }
                }
                out.add(new Anova(factor.getKey(), metric.getKey(), f, p));
            }
        }
        return out;
    }

    /**
     * Full-factorial ANOVA (Type II; main effects and two-way interactions) of each metric, one observation per
     * (configuration, replicate, method); only when the run has replicates (empty otherwise).
     */
    static List<FactorialEffect> factorial(List<Entry> entries, Design design) {
        List<Entry> perMethod = perMethod(entries);
        if (perMethod.stream().mapToInt(Entry::replicate).max().orElse(1) < 2) {
            return List.of();
        }
        Map<String, Function<Entry, Object>> factors = factors(design, perMethod);
        List<FactorialEffect> out = new ArrayList<>();
        for (Map.Entry<String, Function<LatencyStats, Double>> metric : metrics().entrySet()) {
            List<FactorialAnova.Observation> obs = new ArrayList<>();
            for (Entry e : perMethod) {
                Map<String, String> levels = new LinkedHashMap<>();
                factors.forEach((name, f) -> levels.put(name, String.valueOf(f.apply(e))));
                obs.add(new FactorialAnova.Observation(levels, metric.getValue().apply(e.stats())));
            }
            FactorialAnova.Table t = FactorialAnova.typeII(List.copyOf(factors.keySet()), obs);
            if (t == null) {
                continue;
            }
            for (FactorialAnova.Effect x : t.effects()) {
                out.add(new FactorialEffect(x.effect(), metric.getKey(), x.df(), x.sumOfSquares(), x.f(), x.p(),
                        x.partialEtaSq(), t.errorDf()));
            }
        }
        return out;
    }

    /** The method entries that have statistics. */
    private static List<Entry> perMethod(List<Entry> entries) {
        return entries.stream().filter(e -> !e.method().equals("all") && e.stats() != null).toList();
    }

    /**
     * The factors of the grid, by name as in summary.json: clients, the load factor, reply size, the infrastructure
     * factors the run varies (strategy, replicas, platform), method.
     */
    private static Map<String, Function<Entry, Object>> factors(Design design, List<Entry> entries) {
        Map<String, Function<Entry, Object>> factors = new LinkedHashMap<>();
        factors.put("clients", Entry::clients);
        if (design.openLoop()) {
            factors.put("rate_per_s", e -> e.block().ratePerS());
        } else {
            factors.put("think_ms", Entry::thinkMillis);
        }
        factors.put("reply", Entry::reply);
        if (entries.stream().anyMatch(e -> e.block().strategy() != null)) {
            factors.put("strategy", e -> e.block().strategy());
        }
        if (entries.stream().anyMatch(e -> e.block().replicas() > 0)) {
            factors.put("replicas", e -> e.block().replicas());
        }
        if (entries.stream().anyMatch(e -> e.block().platform() != null)) {
            factors.put("platform", e -> e.block().platform());
        }
        factors.put("method", Entry::method);
        return factors;
    }

    /** The metrics tested, by name as in summary.json, µs. */
    private static Map<String, Function<LatencyStats, Double>> metrics() {
        Map<String, Function<LatencyStats, Double>> metrics = new LinkedHashMap<>();
        metrics.put("mean", LatencyStats::mean);
        metrics.put("p99", s -> (double) s.p99());
        metrics.put("max", s -> (double) s.max());
        return metrics;
    }
}
