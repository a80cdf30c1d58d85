package org.ftlab.harness.bench.suites;

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
import java.util.stream.Stream;
import org.ftlab.harness.analysis.RunAnalysis;
import org.ftlab.harness.bench.ServiceBench;
import org.ftlab.harness.bench.Suite;
import org.ftlab.harness.bench.SuiteRun;
import org.ftlab.harness.bench.SyntheticRun;

/**
 * {@code analysis}: writes a {@link SyntheticRun} of the full profile's size into the bench's directory and times
 * {@code --repeat} analyses of it, with the heap each used at its peak; bench.json's {@code analysis} and one line of
 * the table. Needs no lab.
 */
public final class AnalysisSuite implements Suite {
    /** The analysis of a full-size run this suite times should take less, s. */
    private static final int TARGET_S = 15;

    private final AnalysisOptions options = new AnalysisOptions();

    @Override
    public String name() {
        return "analysis";
    }

    @Override
    public String description() {
        return "time and peak memory to analyse a synthetic full-size run (2,640,000 rows).";
    }

    @Override
    public boolean byDefault() {
        return true;
    }

    @Override
    public Object options() {
        return options;
    }

    @Override
    public void checkOptions() {
        options.check();
    }

    @Override
    public boolean needsLab() {
        return false;
    }

    @Override
    public void run(SuiteRun run) throws Exception {
        PrintWriter pw = run.progress();
        int repeat = run.rounds().repeat();
        Path synthetic = run.dir().resolve("synthetic-run");
        pw.printf(Locale.ROOT, "analysis: writing a synthetic run (%d requests per method per client) ...%n",
                options.requestsPerMethod);
        pw.flush();
        deleteRecursively(synthetic);
        long t0 = System.nanoTime();
        long rows = SyntheticRun.write(synthetic, options.requestsPerMethod, 42);
        double writeS = (System.nanoTime() - t0) / 1e9;
        long bytes;
        try (Stream<Path> files = Files.list(synthetic.resolve("probes"))) {
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
            RunAnalysis.write(synthetic, RunAnalysis.analyze(synthetic));
            seconds[i] = (System.nanoTime() - s0) / 1e9;
            heapMib[i] = heap.stream().mapToLong(p -> p.getPeakUsage().getUsed()).sum() / 1048576.0;
            pw.printf(Locale.ROOT, "  analysis run %d: %.2f s, peak heap used %.0f MiB%n", i + 1, seconds[i],
                    heapMib[i]);
            pw.flush();
        }
        ObjectNode a = run.report().object("analysis");
        a.put("configurations", 48);
        a.put("rows", rows);
        a.put("probe_bytes", bytes);
        a.put("synthetic_write_s", writeS);
        ArrayNode runs = a.putArray("runs_s");
        Arrays.stream(seconds).forEach(runs::add);
        ServiceBench.Spread time = ServiceBench.Spread.of(seconds);
        ServiceBench.Spread heapUsed = ServiceBench.Spread.of(heapMib);
        a.put("median_s", time.median());
        a.put("min_s", time.min());
        a.put("max_s", time.max());
        a.put("median_peak_heap_mib", heapUsed.median());
        a.put("process_peak_rss_mib", peakRssMib());
        a.put("target_s", TARGET_S);
        run.report().table().append(String.format(Locale.ROOT, "%nanalysis of %,d rows (%d MB), %d runs: median "
                + "%.2f s (%.2f–%.2f), peak heap used %.0f MiB (median), process peak RSS %.0f MiB; target < %d s%n",
                rows, bytes / 1_000_000, repeat, time.median(), time.min(), time.max(), heapUsed.median(),
                a.path("process_peak_rss_mib").asDouble(), TARGET_S));
    }

    /** The most memory this process has held, MiB; -1 where {@code /proc/self/status} does not tell (not Linux). */
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
