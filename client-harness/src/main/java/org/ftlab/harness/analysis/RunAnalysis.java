package org.ftlab.harness.analysis;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.commons.math3.stat.inference.OneWayAnova;
import org.ftlab.harness.probe.ProbeTable;

/**
 * The statistics of a grid run directory, one configuration file at a time (so memory stays bounded by the largest
 * configuration): per configuration and method, and per configuration over all methods, the latency statistics of
 * {@link LatencyStats}; and a one-way ANOVA of the mean, p99 and max across configurations on each factor
 * (criterion C3). Writes {@code report/summary.csv} and {@code report/summary.json}.
 */
public final class RunAnalysis {
    private static final Pattern CONFIG = Pattern.compile("c(\\d+)-t(\\d+)-r(orig|\\d+)");
    private static final int COLUMNS = ProbeTable.HEADER.split(",").length;

    /** One row of the summary: a configuration and a method ({@code all} for every method together). */
    public record Entry(String config, int clients, int thinkMillis, String reply, String method, int failures,
            LatencyStats stats) {
    }

    /** An ANOVA of one metric on one factor; f and p are null when the groups are too small to test. */
    public record Anova(String factor, String metric, Double f, Double p) {
    }

    /** The analysis: entries, ANOVA, and what a reader must know about the input. */
    public record Result(List<Entry> entries, List<Anova> anova, List<String> warnings) {
    }

    private RunAnalysis() {
    }

    public static Result analyze(Path runDir) throws IOException {
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
        if (Files.exists(manifest)) {
            JsonNode m = new ObjectMapper().readTree(manifest.toFile());
            String status = m.path("status").asText();
            int planned = m.path("grid").path("configurations").asInt(files.size());
            if (!status.equals("complete") || files.size() < planned) {
                warnings.add("the run is " + status + ": " + files.size() + " of " + planned
                        + " configurations have probes; statistics cover only those");
            }
        } else {
            warnings.add("no manifest.json: the run's status is unknown");
        }
        List<Entry> entries = new ArrayList<>();
        int failures = 0;
        for (Path file : files) {
            List<Entry> e = analyzeConfig(file);
            entries.addAll(e);
            failures += e.stream().filter(x -> x.method().equals("all")).mapToInt(Entry::failures).sum();
        }
        if (failures > 0) {
            warnings.add(failures + " requests failed; they are counted in 'failures' and left out of the latency "
                    + "statistics");
        }
        return new Result(entries, anova(entries), warnings);
    }

    private static long gridOrder(Path file) {
        Matcher m = CONFIG.matcher(file.getFileName().toString().replace(".csv", ""));
        if (!m.matches()) {
            return Long.MAX_VALUE;
        }
        long reply = m.group(3).equals("orig") ? 0 : Long.parseLong(m.group(3)) + 1;
        return Long.parseLong(m.group(1)) * 1_000_000_000_000L + Long.parseLong(m.group(2)) * 10_000_000L + reply;
    }

    private static List<Entry> analyzeConfig(Path file) throws IOException {
        String name = file.getFileName().toString().replace(".csv", "");
        Matcher m = CONFIG.matcher(name);
        if (!m.matches()) {
            throw new IllegalArgumentException(file + ": not a configuration probe file (expected a name like "
                    + "c04-t20-r512.csv)");
        }
        Map<String, LongList> byMethod = new LinkedHashMap<>();
        Map<String, Integer> failuresByMethod = new LinkedHashMap<>();
        LongList all = new LongList();
        int failures = 0;
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String header = in.readLine();
            if (header == null || !header.startsWith(ProbeTable.HEADER)) {
                throw new IllegalArgumentException(file + ": missing or unknown header; expected " + ProbeTable.HEADER);
            }
            String line;
            int lineNo = 1;
            while ((line = in.readLine()) != null) {
                lineNo++;
                String[] c = line.split(",", -1);
                if (c.length < COLUMNS) {
                    throw new IllegalArgumentException(file + " line " + lineNo + " has " + c.length + " fields, "
                            + "expected " + COLUMNS + ": the file is truncated or damaged");
                }
                String method = c[2];
                if (c[12].startsWith("failed")) {
                    failures++;
                    failuresByMethod.merge(method, 1, Integer::sum);
                    byMethod.computeIfAbsent(method, k -> new LongList());
                    continue;
                }
                long latency;
                try {
                    latency = Long.parseLong(c[5]) - Long.parseLong(c[4]);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException(file + " line " + lineNo + ": client timestamps are not "
                            + "numbers: the file is damaged");
                }
                byMethod.computeIfAbsent(method, k -> new LongList()).add(latency);
                all.add(latency);
            }
        }
        int clients = Integer.parseInt(m.group(1));
        int think = Integer.parseInt(m.group(2));
        String reply = m.group(3).equals("orig") ? "original" : m.group(3);
        List<Entry> out = new ArrayList<>();
        for (Map.Entry<String, LongList> e : byMethod.entrySet()) {
            out.add(new Entry(name, clients, think, reply, e.getKey(), failuresByMethod.getOrDefault(e.getKey(), 0),
                    LatencyStats.of(e.getValue().toArray())));
        }
        out.add(new Entry(name, clients, think, reply, "all", failures, LatencyStats.of(all.toArray())));
        return out;
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

    /** Writes {@code report/summary.csv} and {@code report/summary.json} (atomically). */
    public static void write(Path runDir, Result result) throws IOException {
        Path report = runDir.resolve("report");
        Files.createDirectories(report);
        ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode root = json.createObjectNode();
        root.put("percentile_estimator", LatencyStats.PERCENTILE_ESTIMATOR);
        ArrayNode configs = root.putArray("configs");
        StringBuilder csv = new StringBuilder("config,clients,think_ms,reply,method,count,failures,mean_us,std_us,"
                + "min_us,median_us,p90_us,p99_us,p999_us,max_us,trimmed_mean_us,outliers_3sigma,c1,p99_ci_low_us,"
                + "p99_ci_high_us\n");
        for (Entry e : result.entries()) {
            ObjectNode n = configs.addObject();
            n.put("config", e.config());
            n.put("clients", e.clients());
            n.put("think_ms", e.thinkMillis());
            n.put("reply", e.reply());
            n.put("method", e.method());
            LatencyStats s = e.stats();
            n.put("count", s == null ? 0 : s.count());
            n.put("failures", e.failures());
            if (s != null) {
                n.put("mean_us", s.mean());
                n.put("std_us", s.std());
                n.put("min_us", s.min());
                n.put("median_us", s.median());
                n.put("p90_us", s.p90());
                n.put("p99_us", s.p99());
                n.put("p999_us", s.p999());
                n.put("max_us", s.max());
                n.put("trimmed_mean_us", s.trimmedMean());
                n.put("outliers_3sigma", s.outliers3Sigma());
                n.put("c1", s.c1());
                if (s.p99CiLow() == null) {
                    n.putNull("p99_ci_low_us");
                    n.putNull("p99_ci_high_us");
                } else {
                    n.put("p99_ci_low_us", s.p99CiLow());
                    n.put("p99_ci_high_us", s.p99CiHigh());
                }
            }
            csv.append(String.join(",", e.config(), "" + e.clients(), "" + e.thinkMillis(), e.reply(), e.method(),
                    "" + (s == null ? 0 : s.count()), "" + e.failures(),
                    s == null ? "" : fmt(s.mean()), s == null ? "" : fmt(s.std()), s == null ? "" : "" + s.min(),
                    s == null ? "" : "" + s.median(), s == null ? "" : "" + s.p90(), s == null ? "" : "" + s.p99(),
                    s == null ? "" : "" + s.p999(), s == null ? "" : "" + s.max(),
                    s == null ? "" : fmt(s.trimmedMean()), s == null ? "" : "" + s.outliers3Sigma(),
                    s == null ? "" : "" + s.c1(), s == null || s.p99CiLow() == null ? "" : "" + s.p99CiLow(),
                    s == null || s.p99CiHigh() == null ? "" : "" + s.p99CiHigh())).append('\n');
        }
        ArrayNode anova = root.putArray("anova");
        for (Anova a : result.anova()) {
            ObjectNode n = anova.addObject();
            n.put("factor", a.factor());
            n.put("metric", a.metric());
            if (a.f() == null) {
                n.putNull("f");
                n.putNull("p");
            } else {
                n.put("f", a.f());
                n.put("p", a.p());
            }
        }
        root.putObject("failover");
        root.set("warnings", json.valueToTree(result.warnings()));
        writeAtomically(report.resolve("summary.csv"), csv.toString());
        writeAtomically(report.resolve("summary.json"), json.writeValueAsString(root));
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, "%.3f", v);
    }

    private static void writeAtomically(Path file, String text) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try (BufferedWriter w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
            w.write(text);
        }
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** A growable long array: a configuration's latencies without boxing. */
    private static final class LongList {
        private long[] values = new long[1024];
        private int size;

        void add(long v) {
            if (size == values.length) {
                values = java.util.Arrays.copyOf(values, size * 2);
            }
            values[size++] = v;
        }

        long[] toArray() {
            return java.util.Arrays.copyOf(values, size);
        }
    }
}
