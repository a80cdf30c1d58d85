package org.ftlab.harness.attribution;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * Whose use filled the host's CPUs over an interval (docs/analysis.md, "Whose CPU a wait was for"): each process of
 * the lab (the manager's samples of the replicas, the database, the detector and itself; the harness's own JFR CPU
 * samples), the processes outside the lab ({@value #OUTSIDE}: the host's busy CPUs less the lab's), and the
 * hypervisor ({@value #STEAL}). Each figure is CPUs on average over the interval, from the samples that overlap it,
 * each counted for its overlapping share.
 */
public final class CpuUse {
    /** Processes of the host outside the lab, as one holder. */
    public static final String OUTSIDE = "outside";
    /** CPU the hypervisor gave other guests, as one holder. */
    public static final String STEAL = "steal";
    /** The least share of an interval the host's samples must cover for a verdict on it. */
    static final double MIN_COVERAGE = 0.5;
    /**
     * The shortest window a use is read over, µs: {@code /proc} counts CPU in 10-ms ticks and the processes are sampled
     * every 50 ms, so over a few ms the host's figure is one tick or none while the processes' is a 50-ms average.
     * A shorter request is read over this window, centred on it.
     */
    public static final long MIN_WINDOW_US = 100_000;

    private CpuUse() {
    }

    /**
     * CPUs by holder over {@code [fromUs, toUs]} (at least {@value #MIN_WINDOW_US} µs around it), largest first; empty
     * where the host was not sampled over at least {@value #MIN_COVERAGE} of it.
     */
    public static Map<String, Double> over(RunEvents events, long fromUs, long toUs) {
        if (toUs - fromUs < MIN_WINDOW_US) {
            long mid = fromUs + (toUs - fromUs) / 2;
            fromUs = mid - MIN_WINDOW_US / 2;
            toUs = mid + MIN_WINDOW_US / 2;
        }
        return exactly(events, fromUs, toUs);
    }

    /** As {@link #over}, over exactly {@code [fromUs, toUs]}. */
    static Map<String, Double> exactly(RunEvents events, long fromUs, long toUs) {
        long length = toUs - fromUs;
        if (length <= 0 || events.host().isEmpty()) {
            return Map.of();
        }
        List<JfrStalls.HostSample> host = events.host();
        double covered = sum(host, fromUs, toUs, JfrStalls.HostSample::startUs, JfrStalls.HostSample::endUs,
                h -> h.endUs() - h.startUs());
        if (covered < MIN_COVERAGE * length) {
            return Map.of();
        }
        // CPU-µs of each, scaled from the covered part to the whole interval
        double busy = sum(host, fromUs, toUs, JfrStalls.HostSample::startUs, JfrStalls.HostSample::endUs,
                h -> h.busyCpus() * (h.endUs() - h.startUs()));
        double steal = sum(host, fromUs, toUs, JfrStalls.HostSample::startUs, JfrStalls.HostSample::endUs,
                h -> h.stealCpus() * (h.endUs() - h.startUs()));
        int cpus = host.get(0).cpus();
        Map<String, Double> lab = new LinkedHashMap<>();
        events.usage().forEach((process, samples) -> lab.put(process, sum(samples, fromUs, toUs,
                JfrStalls.ProcessUse::startUs, JfrStalls.ProcessUse::endUs, u -> u.userUs() + u.systemUs())
                / length));
        // JVMs the manager does not sample (the harness): their own CPU samples, each for the period before it
        events.load().forEach((process, samples) -> {
            if (!lab.containsKey(process) && !samples.isEmpty()) {
                lab.put(process, loadCpuUs(samples, fromUs, toUs, cpus) / length);
            }
        });
        double labTotal = lab.values().stream().mapToDouble(Double::doubleValue).sum();
        Map<String, Double> all = new LinkedHashMap<>(lab);
        all.put(OUTSIDE, Math.max(0, busy / covered - labTotal));
        all.put(STEAL, steal / covered);
        Map<String, Double> sorted = new LinkedHashMap<>();
        all.entrySet().stream().sorted(Map.Entry.<String, Double>comparingByValue().reversed())
                .forEach(e -> sorted.put(e.getKey(), e.getValue()));
        return sorted;
    }

    /** {@code 0.82 outside, 0.41 r1, …} — the holders using at least 0.01 CPU. */
    public static String describe(Map<String, Double> use) {
        StringBuilder b = new StringBuilder();
        use.forEach((holder, cpus) -> {
            if (cpus >= 0.005) {
                b.append(b.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.2f %s", cpus,
                        holder));
            }
        });
        return b.toString();
    }

    /** CPU-µs of a JVM's JFR CPU samples over the interval: each covers the time since the one before it. */
    private static double loadCpuUs(List<JfrStalls.LoadSample> samples, long fromUs, long toUs, int cpus) {
        double total = 0;
        int i = Sorted.firstAtLeast(samples.size(), k -> samples.get(k).atUs(), fromUs + 1);
        for (; i < samples.size(); i++) {
            JfrStalls.LoadSample s = samples.get(i);
            long start = i == 0 ? s.atUs() : samples.get(i - 1).atUs();
            if (start >= toUs) {
                break;
            }
            long overlap = Math.min(s.atUs(), toUs) - Math.max(start, fromUs);
            if (overlap > 0) {
                total += (s.user() + s.system()) * cpus * overlap;
            }
        }
        return total;
    }

    /** Σ value × overlapping share, over samples by start that do not overlap each other. */
    static <T> double sum(List<T> samples, long fromUs, long toUs, ToLongFunction<T> start, ToLongFunction<T> end,
            ToDoubleFunction<T> value) {
        double total = 0;
        int i = Sorted.firstAtLeast(samples.size(), k -> end.applyAsLong(samples.get(k)), fromUs + 1);
        for (; i < samples.size(); i++) {
            T s = samples.get(i);
            long a = start.applyAsLong(s);
            long b = end.applyAsLong(s);
            if (a >= toUs) {
                break;
            }
            long overlap = Math.min(b, toUs) - Math.max(a, fromUs);
            if (overlap > 0 && b > a) {
                total += value.applyAsDouble(s) * overlap / (b - a);
            }
        }
        return total;
    }
}
