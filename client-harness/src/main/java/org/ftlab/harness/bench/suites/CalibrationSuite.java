package org.ftlab.harness.bench.suites;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.ftlab.harness.bench.BenchReport;
import org.ftlab.harness.bench.Suite;
import org.ftlab.harness.bench.SuiteRun;
import org.ftlab.harness.bench.calibration.CalibrationBench;
import org.ftlab.harness.bench.calibration.LeanClient;
import org.ftlab.harness.bench.calibration.LeanClients;

/**
 * {@code calibration}: {@link CalibrationBench}'s rounds, ftlab's client beside leaner ones on the same endpoint,
 * rate and lab; bench.json's {@code calibration} and its table of what ftlab's client adds through each door.
 */
public final class CalibrationSuite implements Suite {
    private final CalibrationOptions options = new CalibrationOptions();

    @Override
    public String name() {
        return "calibration";
    }

    @Override
    public String description() {
        return "what ftlab's own client adds to what it measures: its clients beside an external load generator "
                + "(vegeta, when installed) and bare loops of client libraries on the same endpoint, rate and lab, "
                + "open loop, through both doors, in alternating rounds.";
    }

    @Override
    public boolean byDefault() {
        return false;
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
        return true;
    }

    @Override
    public void run(SuiteRun run) throws Exception {
        List<String> notes = new ArrayList<>();
        List<LeanClient> clients = LeanClients.all(options.vegeta(), run.dir().resolve("calibration-vegeta"), notes);
        CalibrationBench.Settings settings = new CalibrationBench.Settings(options.ratePerS, options.seconds,
                options.rounds, options.connections, run.rounds().warmup());
        CalibrationBench.Result result = new CalibrationBench(run.lab(), run.dir(), run.progress()).run(settings,
                clients, notes);
        BenchReport report = run.report();
        report.put("calibration", result);
        table(report.table(), result);
        // the machine's latest: every grid run started after it copies it and its report states it
        report.table().append("  kept for this machine's runs: ").append(result.keep()).append('\n');
    }

    static void table(StringBuilder t, CalibrationBench.Result r) {
        CalibrationBench.Settings s = r.settings();
        t.append(String.format(Locale.ROOT, "%ncalibration: what ftlab's client adds (docs/performance.md, "
                + "\"Calibration\"): %d round%s of %d s at %.0f requests/s from %d connections, open loop; service "
                + "times; medians over rounds of same-round differences and ratios; targets: HTTP p50 and p99 <= "
                + "1.15x the external generator's, remote EJB <= +0.1 ms p50 and <= +1 ms p99 over the bare loop%n",
                s.rounds(), s.rounds() == 1 ? "" : "s", s.roundSeconds(), s.ratePerS(), s.connections()));
        Map<String, List<CalibrationBench.Row>> byClient = r.rows().stream().collect(Collectors.groupingBy(
                row -> row.platform() + " " + row.client(), TreeMap::new, Collectors.toList()));
        t.append(String.format(Locale.ROOT, "%-18s %10s %10s %10s %12s %14s %9s%n", "door, client", "p50 ms",
                "p99 ms", "max ms", "bean p50 ms", "CPU µs/req", "errors"));
        byClient.forEach((k, rows) -> {
            double bean = median(rows, 3);
            double cpu = median(rows, 4);
            t.append(String.format(Locale.ROOT, "%-18s %10.3f %10.3f %10.3f %12s %14s %9d%n", k,
                    median(rows, 0) / 1e3, median(rows, 1) / 1e3, median(rows, 2) / 1e3, bean < 0 ? "-"
                    : String.format(Locale.ROOT, "%.3f", bean / 1e3), cpu < 0 ? "-" : String.format(Locale.ROOT,
                            "%.0f", cpu), rows.stream().mapToLong(x -> x.latencies().errors()).sum()));
        });
        t.append(String.format(Locale.ROOT, "%-24s %11s %11s %11s %9s %9s %s%n", "ftlab over", "+p50 ms", "+p99 ms",
                "+max ms", "p50 x", "p99 x", "target"));
        for (CalibrationBench.Added a : r.added()) {
            t.append(String.format(Locale.ROOT, "%-24s %+11.3f %+11.3f %+11.3f %9.2f %9.2f %s%n", a.platform() + " "
                    + a.reference() + (a.external() ? " (ext)" : ""), a.p50Us() / 1e3, a.p99Us() / 1e3,
                    a.maxUs() / 1e3, a.p50Ratio(), a.p99Ratio(), verdict(a)));
        }
        r.clients().forEach((name, what) -> t.append("  ").append(name).append(": ").append(what).append('\n'));
        r.notes().forEach(n -> t.append("  note: ").append(n).append('\n'));
    }

    /** The target a comparison is held to, met or missed; empty where none applies. */
    static String verdict(CalibrationBench.Added a) {
        if (a.external()) {
            return a.p50Ratio() <= 1.15 && a.p99Ratio() <= 1.15 ? "met (<= 1.15x)" : "missed (<= 1.15x)";
        }
        if (a.platform().equals("ejb")) {
            return a.p50Us() <= 100 && a.p99Us() <= 1_000 ? "met (+0.1/+1 ms)" : "missed (+0.1/+1 ms)";
        }
        return "";
    }

    private static double median(List<CalibrationBench.Row> rows, int column) {
        return CalibrationBench.median(rows.stream().mapToDouble(x -> switch (column) {
            case 0 -> x.latencies().p50Us();
            case 1 -> x.latencies().p99Us();
            case 2 -> x.latencies().maxUs();
            case 3 -> x.latencies().beanP50Us();
            default -> x.cpuUsPerRequest();
        }).toArray());
    }
}
