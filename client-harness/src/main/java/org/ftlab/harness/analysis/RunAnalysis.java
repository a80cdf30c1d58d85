package org.ftlab.harness.analysis;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.stream.Stream;
import org.apache.commons.math3.stat.inference.OneWayAnova;
import org.apache.commons.math3.stat.regression.SimpleRegression;

/**
 * The statistics of a grid run directory, one configuration file at a time (so memory stays bounded by the largest
 * configuration plus one latency per request of the run for the fault-free baseline): per configuration and method,
 * and per configuration over all methods, the latency statistics of {@link LatencyStats}, the middleware / server /
 * database breakdown and the request rate; across configurations a one-way ANOVA of mean, p99 and max on each factor
 * (criterion C3), the regression of p99 on the mean and the "magical 1%" verdicts; and the fail-over breakdown and
 * performability of {@link FailoverAnalysis}. {@link #write} puts it in {@code report/}.
 */
public final class RunAnalysis {
    /**
     * Mean components of latency, µs (seed 002): server = reply sent − request received at the bean (P5 − P4),
     * database = transaction end − start (inside server), middleware = latency − server. The top fields are the
     * same means over the slowest 1% (latency ≥ p99): where the outliers' time went. Over completed requests that
     * carry server probes.
     */
    public record Breakdown(double middlewareMeanUs, double serverMeanUs, double databaseMeanUs, int topCount,
            double topMiddlewareMeanUs, double topServerMeanUs, double topDatabaseMeanUs) {
    }

    /**
     * One row of the summary: a configuration and a method ({@code all} for every method together). Request rate
     * (seed 002): requests arriving at the server per second, (n − 1) / (last − first server receive); throughput:
     * request rate × reply size, bytes/s, null for the original reply (its size is not fixed).
     */
    public record Entry(String config, int clients, int thinkMillis, String reply, String method, int failures,
            LatencyStats stats, Breakdown breakdown, Double requestRatePerS, Double throughputBytesPerS) {

        public Entry(String config, int clients, int thinkMillis, String reply, String method, int failures,
                LatencyStats stats) {
            this(config, clients, thinkMillis, reply, method, failures, stats, null, null, null);
        }
    }

    /** An ANOVA of one metric on one factor; f and p are null when the groups are too small to test. */
    public record Anova(String factor, String metric, Double f, Double p) {
    }

    /** Least-squares p99 = slope × mean + intercept across configurations; p tests slope = 0. */
    public record Regression(int n, double slope, double interceptUs, double r, double p) {
    }

    /** How many configurations (all methods together) have p99 within 10× and 25× the mean at p < 0.01. */
    public record MagicalOnePercent(int tested, int within10x, int within25x, int untestable) {
    }

    /** Plot data of one configuration (all methods): per-client latency series and the latency CDF. */
    public record ConfigPlot(String config, List<ClientSeries> clients, double[] cdfMs, double[] cdfFraction) {
    }

    /**
     * One client's latencies in request order, ms; long series are cut into equal buckets of consecutive requests
     * and each bucket is shown by its slowest request, so no outlier is hidden by the thinning.
     */
    public record ClientSeries(String client, int[] requestIndex, double[] latencyMs) {
    }

    /** The analysis: entries, ANOVA, regression, fail-over, plot data, and what a reader must know. */
    public record Result(String strategy, String faultKind, List<Entry> entries, List<Anova> anova,
            Regression regression, MagicalOnePercent magical, FailoverAnalysis.Result failover,
            List<ConfigPlot> plots, List<String> warnings, RunComparison comparison) {

        public Result(List<Entry> entries, List<Anova> anova, List<String> warnings) {
            this("unknown", "none", entries, anova, RunAnalysis.regression(entries), RunAnalysis.magical(entries), null, List.of(), warnings,
                    null);
        }

        public Result withComparison(RunComparison c) {
            return new Result(strategy, faultKind, entries, anova, regression, magical, failover, plots, warnings, c);
        }
    }

    /** Points per client in the latency-vs-request plots. */
    static final int SERIES_POINTS = 400;

    private RunAnalysis() {
    }

    public static Result analyze(Path runDir) throws IOException {
        return analyze(runDir, FailoverAnalysis.Demerits.DEFAULT);
    }

    public static Result analyze(Path runDir, FailoverAnalysis.Demerits demerits) throws IOException {
        Path probes = runDir.resolve("probes");
        if (!Files.isDirectory(probes)) {
            throw new IllegalArgumentException(runDir + " has no probes/ directory: not a grid run directory");
        }
        List<Path> files;
        try (Stream<Path> list = Files.list(probes)) {
            // Grid order: clients, then think time, then reply size (original first), not the file names' order.
            files = list.filter(p -> p.getFileName().toString().endsWith(".csv"))
                    .sorted(java.util.Comparator.comparingLong(RunAnalysis::gridOrder)
                            .thenComparing(p -> p.getFileName().toString()))
                    .toList();
        }
        if (files.isEmpty()) {
            throw new IllegalArgumentException(probes + " holds no probe files: the run finished no configuration");
        }
        List<String> warnings = new ArrayList<>();
        Path manifest = runDir.resolve("manifest.json");
        String strategy = "unknown";
        String faultKind = "unknown";
        if (Files.exists(manifest)) {
            JsonNode m = new ObjectMapper().readTree(manifest.toFile());
            String status = m.path("status").asText();
            int planned = m.path("grid").path("configurations").asInt(files.size());
            if (!status.equals("complete") || files.size() < planned) {
                warnings.add("the run is " + status + ": " + files.size() + " of " + planned
                        + " configurations have probes; statistics cover only those");
            }
            strategy = m.path("failover_strategy").asText("unknown");
            faultKind = m.path("faults").path("kind").asText("unknown");
            JsonNode audit = m.path("audit");
            if (audit.has("passed") && !audit.path("passed").asBoolean()) {
                warnings.add("the exactly-once audit failed: " + audit.path("problems"));
            }
        } else {
            warnings.add("no manifest.json: the run's status is unknown");
        }
        List<FaultRecord> faults = FaultRecord.readAll(runDir);
        if (faults.stream().map(FaultRecord::id).distinct().count() < faults.size()) {
            warnings.add("fault ids repeat across resumed segments: a request's fault_id is matched to the first "
                    + "fault with that id");
        }
        FailoverAnalysis.Accumulator failover = new FailoverAnalysis.Accumulator(faults, demerits);
        List<Entry> entries = new ArrayList<>();
        List<ConfigPlot> plots = new ArrayList<>();
        int failures = 0;
        for (Path file : files) {
            ProbeFile pf = ProbeFile.read(file);
            List<Entry> e = entries(pf);
            entries.addAll(e);
            failures += e.get(e.size() - 1).failures();
            plots.add(plot(pf));
            failover.accept(pf);
        }
        if (failures > 0) {
            warnings.add(failures + " requests failed; they are counted in 'failures' and left out of the latency "
                    + "statistics");
        }
        FailoverAnalysis.Result fo = failover.finish(strategy);
        return new Result(strategy, faultKind, entries, anova(entries), regression(entries), magical(entries), fo,
                plots, warnings, null);
    }

    private static long gridOrder(Path file) {
        Matcher m = ProbeFile.configName(file.getFileName().toString().replace(".csv", ""));
        if (m == null) {
            return Long.MAX_VALUE;
        }
        long reply = m.group(3).equals("orig") ? 0 : Long.parseLong(m.group(3)) + 1;
        return Long.parseLong(m.group(1)) * 1_000_000_000_000L + Long.parseLong(m.group(2)) * 10_000_000L + reply;
    }

    /** One entry per method (in order of first appearance) and one for all methods. */
    static List<Entry> entries(ProbeFile pf) {
        List<Entry> out = new ArrayList<>();
        for (int m = 0; m < pf.methods.size(); m++) {
            out.add(entry(pf, pf.methods.get(m), m));
        }
        out.add(entry(pf, "all", -1));
        return out;
    }

    private static Entry entry(ProbeFile pf, String name, int method) {
        LongList latencies = new LongList();
        LongList serverRecv = new LongList();
        int failures = 0;
        for (int i = 0; i < pf.size; i++) {
            if (method >= 0 && pf.method[i] != method) {
                continue;
            }
            if (!pf.completed(i)) {
                failures++;
                continue;
            }
            latencies.add(pf.latencyUs(i));
            if (pf.serverRecvUs[i] != ProbeFile.NONE) {
                serverRecv.add(pf.serverRecvUs[i]);
            }
        }
        long[] sorted = latencies.toArray();
        Arrays.sort(sorted);
        LatencyStats stats = LatencyStats.ofSorted(sorted);
        Breakdown breakdown = stats == null ? null : breakdown(pf, method, stats.p99());
        Double rate = null;
        Double throughput = null;
        if (serverRecv.size() >= 2) {
            long[] r = serverRecv.toArray();
            long first = Long.MAX_VALUE;
            long last = Long.MIN_VALUE;
            for (long t : r) {
                first = Math.min(first, t);
                last = Math.max(last, t);
            }
            if (last > first) {
                rate = (r.length - 1) * 1e6 / (last - first);
                throughput = pf.reply.equals("original") ? null : rate * Long.parseLong(pf.reply);
            }
        }
        return new Entry(pf.config, pf.clients, pf.thinkMillis, pf.reply, name, failures, stats, breakdown, rate,
                throughput);
    }

    private static Breakdown breakdown(ProbeFile pf, int method, long p99) {
        double[] sum = new double[3];
        double[] top = new double[3];
        int n = 0;
        int topN = 0;
        for (int i = 0; i < pf.size; i++) {
            if ((method >= 0 && pf.method[i] != method) || !pf.completed(i) || !pf.hasServerProbes(i)) {
                continue;
            }
            long latency = pf.latencyUs(i);
            long server = pf.serverSendUs[i] - pf.serverRecvUs[i];
            long db = pf.dbEndUs[i] - pf.dbStartUs[i];
            double[] c = {latency - server, server, db};
            for (int k = 0; k < 3; k++) {
                sum[k] += c[k];
            }
            n++;
            if (latency >= p99) {
                for (int k = 0; k < 3; k++) {
                    top[k] += c[k];
                }
                topN++;
            }
        }
        if (n == 0) {
            return null;
        }
        return new Breakdown(sum[0] / n, sum[1] / n, sum[2] / n, topN, topN == 0 ? 0 : top[0] / topN,
                topN == 0 ? 0 : top[1] / topN, topN == 0 ? 0 : top[2] / topN);
    }

    private static ConfigPlot plot(ProbeFile pf) {
        List<ClientSeries> series = new ArrayList<>();
        LongList all = new LongList();
        for (int c = 0; c < pf.clientIds.size(); c++) {
            LongList lat = new LongList();
            for (int i = 0; i < pf.size; i++) {
                if (pf.client[i] == c && pf.completed(i)) {
                    lat.add(pf.latencyUs(i));
                    all.add(pf.latencyUs(i));
                }
            }
            long[] v = lat.toArray();
            int bucket = Math.max(1, (v.length + SERIES_POINTS - 1) / SERIES_POINTS);
            int points = (v.length + bucket - 1) / bucket;
            int[] index = new int[points];
            double[] ms = new double[points];
            for (int p = 0; p < points; p++) {
                int best = p * bucket;
                for (int i = p * bucket; i < Math.min(v.length, (p + 1) * bucket); i++) {
                    if (v[i] > v[best]) {
                        best = i;
                    }
                }
                index[p] = best + 1;
                ms[p] = v[best] / 1e3;
            }
            series.add(new ClientSeries(pf.clientIds.get(c), index, ms));
        }
        long[] sorted = all.toArray();
        Arrays.sort(sorted);
        List<Double> q = new ArrayList<>();
        for (int k = 0; k <= 100; k++) {
            q.add(k / 100.0);
        }
        for (int k = 1; k < 10; k++) {
            q.add(0.99 + k / 1000.0);
            q.add(0.999 + k / 10000.0);
        }
        q.sort(null);
        double[] cdfMs = new double[sorted.length == 0 ? 0 : q.size()];
        double[] cdfFraction = new double[cdfMs.length];
        for (int k = 0; k < cdfMs.length; k++) {
            int rank = (int) Math.max(1, Math.ceil(q.get(k) * sorted.length));
            cdfMs[k] = sorted[Math.min(rank, sorted.length) - 1] / 1e3;
            cdfFraction[k] = q.get(k);
        }
        return new ConfigPlot(pf.config, series, cdfMs, cdfFraction);
    }

    /**
     * p99 on mean across configurations, each over all its methods as in the seed's experiments (its model:
     * p99 ≈ 1.04·mean + 263 µs, r = 0.82).
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

    /** ANOVA of each metric across configurations on each factor; method entries only ("all" would double count). */
    static List<Anova> anova(List<Entry> entries) {
        List<Entry> perMethod = entries.stream().filter(e -> !e.method().equals("all") && e.stats() != null).toList();
        Map<String, Function<Entry, Object>> factors = new LinkedHashMap<>();
        factors.put("clients", Entry::clients);
        factors.put("think_ms", Entry::thinkMillis);
        factors.put("reply", Entry::reply);
        factors.put("method", Entry::method);
        Map<String, Function<LatencyStats, Double>> metrics = new LinkedHashMap<>();
        metrics.put("mean", LatencyStats::mean);
        metrics.put("p99", s -> (double) s.p99());
        metrics.put("max", s -> (double) s.max());
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

    /** Writes {@code report/summary.csv}, {@code summary.json} and {@code index.html} (each atomically). */
    public static void write(Path runDir, Result result) throws IOException {
        Path report = runDir.resolve("report");
        Files.createDirectories(report);
        writeAtomically(report.resolve("summary.csv"), SummaryJson.csv(result));
        writeAtomically(report.resolve("summary.json"), SummaryJson.json(result));
        writeAtomically(report.resolve("index.html"), HtmlReport.render(runDir, result));
    }

    static void writeAtomically(Path file, String text) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try (BufferedWriter w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
            w.write(text);
        }
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}
