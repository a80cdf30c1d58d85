package org.ftlab.harness.grid;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.ftlab.harness.analysis.LatencySummary;
import org.ftlab.harness.probe.FaultRecord;
import org.ftlab.harness.probe.FaultsCsv;
import org.ftlab.harness.probe.ProbeFile;

/**
 * A short text summary of a finished run directory, read back from its files (so it shows what users' scripts
 * will see): rows and latency per method, faulty invocations and their phase medians, and the fault timeline.
 * The full statistics are the analysis command's job.
 */
public final class RunSummary {
    private RunSummary() {
    }

    public static String of(Path runDir) throws IOException {
        List<Long> post = new ArrayList<>();
        List<Long> view = new ArrayList<>();
        List<long[]> phases = new ArrayList<>();
        int files = 0;
        long rows = 0;
        long failed = 0;
        int faulty = 0;
        try (Stream<Path> csvs = Files.list(runDir.resolve("probes"))) {
            for (Path csv : csvs.filter(p -> p.toString().endsWith(".csv")).sorted().toList()) {
                files++;
                ProbeFile pf = ProbeFile.read(csv);
                rows += pf.size;
                for (int i = 0; i < pf.size; i++) {
                    if (!pf.completed(i)) {
                        failed++;
                        continue;
                    }
                    (pf.methods.get(pf.method[i]).equals("postAuction") ? post : view).add(pf.latencyUs(i));
                    if (pf.faultyInvocation(i)) {
                        faulty++;
                        if (pf.detectUs[i] != ProbeFile.NONE) {
                            phases.add(new long[] {pf.detectUs[i], pf.failoverUs[i], pf.retryUs[i]});
                        }
                    }
                }
            }
        }
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "%d probe files, %d rows, %d failed%n", files, rows, failed));
        sb.append(String.format(Locale.ROOT, "  %-12s %8s %9s %9s %9s %9s%n", "method", "count", "mean ms", "p50 ms",
                "p99 ms", "max ms"));
        line(sb, "postAuction", post);
        line(sb, "viewAuction", view);
        List<Long> all = new ArrayList<>(post);
        all.addAll(view);
        line(sb, "all", all);
        if (faulty > 0) {
            sb.append(String.format(Locale.ROOT, "  faulty invocations: %d", faulty));
            if (!phases.isEmpty()) {
                sb.append(String.format(Locale.ROOT, "; median phases ms (%d with phases): detection %.1f, "
                        + "fail-over %.1f, retry %.1f", phases.size(), median(phases, 0), median(phases, 1),
                        median(phases, 2)));
            }
            sb.append('\n');
        }
        List<FaultRecord> faults = FaultsCsv.readAll(runDir);
        if (!faults.isEmpty()) {
            sb.append(String.format(Locale.ROOT, "  %-6s %-8s %-10s %-16s %10s %11s %10s %10s%n", "fault", "replica",
                    "kind", "target", "detect ms", "promote ms", "restore s", "repair s"));
            for (FaultRecord f : faults) {
                sb.append(String.format(Locale.ROOT, "  %-6s %-8s %-10s %-16s %10s %11s %10s %10s%n", f.id(),
                        f.replica().isEmpty() ? "-" : f.replica(), f.label(), f.target().isEmpty() ? "-" : f.target(),
                        since(f.detectionUs(), 1e3), since(f.promotionUs(), 1e3), since(f.restorationUs(), 1e6),
                        since(f.repairUs(), 1e6)));
            }
        }
        return sb.toString();
    }

    private static String since(Long micros, double unit) {
        return micros == null ? "-" : String.format(Locale.ROOT, "%.1f", micros / unit);
    }

    private static void line(StringBuilder sb, String method, List<Long> latencies) {
        if (latencies.isEmpty()) {
            return;
        }
        LatencySummary s = LatencySummary.of(latencies.stream().mapToLong(Long::longValue).toArray());
        sb.append(String.format(Locale.ROOT, "  %-12s %8d %9.3f %9.3f %9.3f %9.3f%n", method, s.count(),
                s.meanMicros() / 1000.0, s.medianMicros() / 1000.0, s.p99Micros() / 1000.0, s.maxMicros() / 1000.0));
    }

    private static double median(List<long[]> phases, int k) {
        long[] v = phases.stream().mapToLong(p -> p[k]).sorted().toArray();
        return LatencySummary.nearestRank(v, 50) / 1000.0;
    }
}
