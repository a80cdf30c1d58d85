package org.ftlab.harness.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.ftlab.harness.analysis.RunAnalysis;
import org.ftlab.harness.bench.SyntheticRun;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ftlab bench}: benchmarks, not tests. Each figure is the median and spread of repeated runs in this
 * process, written to {@code DIR/bench.json} and printed as a table.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = {"Benchmarks ftlab and writes DIR/bench.json plus a table: each figure with its median and "
                + "spread over repeated runs.",
                "analysis: time and peak memory to analyse a synthetic full-size run (48 configurations, "
                        + "2,640,000 probe rows)."})
public final class BenchCommand implements Callable<Integer> {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Option(names = "--out", paramLabel = "DIR", description = "Where to write bench.json and the synthetic run "
            + "(default: runs/bench-<time>).")
    Path out;

    @Option(names = "--repeat", paramLabel = "N", defaultValue = "3",
            description = "Repetitions of each measurement (default ${DEFAULT-VALUE}).")
    int repeat;

    @Option(names = "--requests-per-method", paramLabel = "N", defaultValue = "5000",
            description = "Posts and views per client in the synthetic run (default ${DEFAULT-VALUE}, the full "
                    + "profile).")
    int requestsPerMethod;

    @Override
    public Integer call() throws Exception {
        if (repeat < 1 || repeat > 100) {
            throw new IllegalArgumentException("--repeat must be between 1 and 100, not " + repeat);
        }
        if (requestsPerMethod < 1 || requestsPerMethod > 100_000) {
            throw new IllegalArgumentException("--requests-per-method must be between 1 and 100000, not "
                    + requestsPerMethod);
        }
        Path dir = (out != null ? out : Home.path().resolve("runs").resolve("bench-"
                + java.time.LocalDateTime.now().format(java.time.format.DateTimeFormatter.ofPattern(
                        "yyyyMMdd-HHmmss")))).toAbsolutePath();
        Files.createDirectories(dir);
        PrintWriter pw = spec.commandLine().getOut();
        ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode root = json.createObjectNode();
        ObjectNode machine = root.putObject("machine");
        machine.put("cpus", Runtime.getRuntime().availableProcessors());
        machine.put("memory_gib", totalMemoryGiB());
        machine.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        machine.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
        machine.put("max_heap_mib", Runtime.getRuntime().maxMemory() >> 20);
        root.put("when", java.time.Instant.now().toString());

        Path run = dir.resolve("synthetic-run");
        pw.printf(Locale.ROOT, "writing a synthetic run (%d requests per method per client) to %s ...%n",
                requestsPerMethod, run);
        pw.flush();
        deleteRecursively(run);
        long t0 = System.nanoTime();
        long rows = SyntheticRun.write(run, requestsPerMethod, 42);
        double writeS = (System.nanoTime() - t0) / 1e9;
        long bytes;
        try (Stream<Path> files = Files.list(run.resolve("probes"))) {
            bytes = files.mapToLong(p -> p.toFile().length()).sum();
        }
        double[] seconds = new double[repeat];
        double[] heapMib = new double[repeat];
        for (int i = 0; i < repeat; i++) {
            System.gc();
            List<MemoryPoolMXBean> heap = ManagementFactory.getMemoryPoolMXBeans().stream()
                    .filter(p -> p.getType() == MemoryType.HEAP).toList();
            heap.forEach(MemoryPoolMXBean::resetPeakUsage);
            long s0 = System.nanoTime();
            RunAnalysis.write(run, RunAnalysis.analyze(run));
            seconds[i] = (System.nanoTime() - s0) / 1e9;
            heapMib[i] = heap.stream().mapToLong(p -> p.getPeakUsage().getUsed()).sum() / 1048576.0;
            pw.printf(Locale.ROOT, "  analysis run %d: %.2f s, peak heap used %.0f MiB%n", i + 1, seconds[i],
                    heapMib[i]);
            pw.flush();
        }
        ObjectNode a = root.putObject("analysis");
        a.put("configurations", 48);
        a.put("rows", rows);
        a.put("probe_bytes", bytes);
        a.put("synthetic_write_s", writeS);
        ArrayNode runs = a.putArray("runs_s");
        Arrays.stream(seconds).forEach(runs::add);
        a.put("median_s", median(seconds));
        a.put("min_s", Arrays.stream(seconds).min().orElse(0));
        a.put("max_s", Arrays.stream(seconds).max().orElse(0));
        a.put("median_peak_heap_mib", median(heapMib));
        a.put("process_peak_rss_mib", peakRssMib());
        a.put("target_s", 15);
        Files.writeString(dir.resolve("bench.json"), json.writeValueAsString(root));
        pw.printf(Locale.ROOT, "%n%-44s %10s %10s %10s%n", "benchmark", "median", "min", "max");
        pw.printf(Locale.ROOT, "%-44s %9.2fs %9.2fs %9.2fs%n", String.format(Locale.ROOT,
                "analysis of %,d rows (%d MB), %d runs", rows, bytes / 1_000_000, repeat), median(seconds),
                a.path("min_s").asDouble(), a.path("max_s").asDouble());
        pw.printf(Locale.ROOT, "%-44s %8.0fMiB%n", "  peak heap used (median)", median(heapMib));
        pw.printf(Locale.ROOT, "%-44s %8.0fMiB%n", "  peak RSS of this process", a.path("process_peak_rss_mib")
                .asDouble());
        pw.println("bench.json: " + dir.resolve("bench.json"));
        pw.flush();
        return 0;
    }

    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s[(s.length - 1) / 2]; // nearest rank, as everywhere in ftlab
    }

    private static double peakRssMib() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.replaceAll("\\D", "")) / 1024.0;
                }
            }
        } catch (IOException | NumberFormatException e) {
            // not Linux: leave it out
        }
        return -1;
    }

    private static double totalMemoryGiB() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemTotal:")) {
                    return Math.round(Long.parseLong(line.replaceAll("\\D", "")) / 1048576.0 * 10) / 10.0;
                }
            }
        } catch (IOException | NumberFormatException e) {
            // not Linux
        }
        return -1;
    }

    private static void deleteRecursively(Path p) throws IOException {
        if (!Files.exists(p)) {
            return;
        }
        List<Path> all = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(p)) {
            walk.forEach(all::add);
        }
        for (int i = all.size() - 1; i >= 0; i--) {
            Files.delete(all.get(i));
        }
    }
}
