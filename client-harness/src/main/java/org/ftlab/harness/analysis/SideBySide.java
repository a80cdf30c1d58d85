package org.ftlab.harness.analysis;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.ftlab.harness.probe.Manifest;

/**
 * Several runs side by side, the teacher's view ({@code ftlab analyze RUN --compare OTHER...}): a class's
 * submissions, or the runs of a sweep. One row of headline figures per run, written as {@code compare.csv} and a
 * self-contained {@code compare.html} with the table and one bar chart per headline figure. Latency figures are the
 * median over a run's blocks of each block's mean and p99 (blocks of different runs are alike only if the runs had
 * the same grid: the table says each run's strategy, knobs and faults so that a reader can tell).
 */
public final class SideBySide {
    private SideBySide() {
    }

    /**
     * One run's headline figures; null where the run has no such figure (no fault: no fail-over; closed loop
     * without faults: no performability).
     */
    public record Row(String run, String strategy, String settings, String faults, long requests, long failed,
            Double meanMs, Double p99Ms, Double detectionMs, Integer clearedSuspicions, long unprovokedFailures,
            int faultyInvocations,
            Double failoverMs, Double goodput, Double punctuality, Double demerits, Double extraRequestsPercent,
            long falseSuspicions, String audit, String tier, Double requestRatePerS,
            Double databaseStatementsPerRequest, Double tierRecoveryMs) {
    }

    /** The headline figures plotted, each a bar per run: key in the row's JSON, and the plot's title. */
    static final String[][] FIGURES = {
        {"mean_ms", "mean latency, ms (median over blocks)"},
        {"p99_ms", "p99 latency, ms (median over blocks)"},
        {"detection_ms", "detection of an injected fault, ms (median)"},
        {"cleared_suspicions", "detector's false suspicions cleared by verification"},
        {"unprovoked", "failures nobody injected (false suspicions acted on)"},
        {"failover_ms", "faulty invocation, ms (median)"},
        {"goodput", "goodput (throughput ÷ fault-free throughput)"},
        {"punctuality", "punctuality (fault-free mean ÷ mean)"},
        {"demerits", "demerits (lower is better)"},
        {"request_rate_per_s", "requests per second (median over blocks)"},
        {"database_statements_per_request", "database statements per request"},
        {"tier_recovery_ms", "stateful tier's recovery (restore + replay), ms (median)"},
    };

    /** The row of a run analysed as {@code r}, named by its directory. */
    public static Row row(Path runDir, RunAnalysis.Result r) throws IOException {
        long requests = 0;
        long failed = 0;
        List<Double> means = new ArrayList<>();
        List<Double> p99s = new ArrayList<>();
        for (RunAnalysis.Entry e : r.entries()) {
            if (!e.method().equals("all")) {
                continue;
            }
            failed += e.failures();
            if (e.stats() != null) {
                requests += e.stats().count();
                means.add(e.stats().mean() / 1000.0);
                p99s.add(e.stats().p99() / 1000.0);
            }
        }
        FailoverAnalysis.Result f = r.failover();
        Long total = RunComparison.median(f, "total");
        FailoverAnalysis.Performability p = f == null ? null : f.run();
        FailoverAnalysis.Redundancy rd = f == null ? null : f.redundancy();
        List<Double> detections = new ArrayList<>();
        long unprovoked = 0;
        for (FailoverAnalysis.FaultSummary s : f == null ? List.<FailoverAnalysis.FaultSummary>of() : f.faults()) {
            if (s.fault().kind() == null) {
                unprovoked++;
            } else if (s.fault().detectionUs() != null) {
                detections.add(s.fault().detectionUs() / 1000.0);
            }
        }
        List<Double> rates = new ArrayList<>();
        for (RunAnalysis.Entry e : r.entries()) {
            if (e.method().equals("all") && e.requestRatePerS() != null) {
                rates.add(e.requestRatePerS());
            }
        }
        org.ftlab.harness.probe.StatefulTierRecord stateful =
                org.ftlab.harness.probe.StatefulTierRecord.readFrom(runDir);
        List<Double> recoveries = new ArrayList<>();
        if (stateful != null) {
            for (org.ftlab.harness.probe.StatefulTierRecord.Recovery rc : stateful.recoveries()) {
                if (rc.recovery() != null && rc.recovery().error() == null) {
                    recoveries.add((rc.recovery().recoveredEpochUs() - rc.recovery().startedEpochUs()) / 1000.0);
                }
            }
        }
        org.ftlab.harness.probe.DatabaseWorkRecord db = org.ftlab.harness.probe.DatabaseWorkRecord.readFrom(runDir);
        String tier = tier(runDir);
        return new Row(runDir.toAbsolutePath().normalize().getFileName().toString(), r.strategy(), r.settings(),
                r.faultKind(), requests, failed, RunComparison.median(means), RunComparison.median(p99s),
                RunComparison.median(detections), DetectorLog.clearedSuspicions(runDir), unprovoked, f == null || f.faulty() == null ? 0 : f.faulty().count(), total == null ? null : total / 1000.0,
                p == null ? null : p.goodput(), p == null ? null : p.punctuality(), p == null ? null : p.demerits(),
                rd == null ? null : 100 * rd.extraRate(), rd == null ? 0 : rd.falseSuspicions(), audit(runDir),
                tier, RunComparison.median(rates), db == null ? null : db.statementsPerRequest(),
                RunComparison.median(recoveries));
    }

    /** The run's tier as its manifest records it: stateless, stateful (determinism on or off), or "-". */
    private static String tier(Path runDir) throws IOException {
        if (!Manifest.existsIn(runDir)) {
            return "-";
        }
        Manifest.WorkloadParameters w = Manifest.readAny(runDir).workloadParameters();
        if (w == null || !w.onStatefulTier()) {
            return "stateless";
        }
        return w.stateful() != null && "off".equals(w.stateful().determinism()) ? "stateful, determinism off"
                : "stateful";
    }

    /** The run's exactly-once audit as its manifest records it: passed, FAILED, or "-" when none ran. */
    private static String audit(Path runDir) throws IOException {
        if (!Manifest.existsIn(runDir)) {
            return "-";
        }
        Manifest.Audit a = Manifest.readAny(runDir).audit();
        return a == null ? "-" : a.passed() ? "passed" : "FAILED";
    }

    private static final String CSV_HEADER = "run,strategy,settings,faults,requests,failed,mean_ms,p99_ms,"
            + "detection_ms,cleared_suspicions,unprovoked_failures,faulty_invocations,failover_ms,goodput,punctuality,demerits,extra_requests_percent,false_suspicions,"
            + "audit,tier,request_rate_per_s,database_statements_per_request,tier_recovery_ms";

    static String csv(List<Row> rows) {
        StringBuilder b = new StringBuilder(CSV_HEADER).append('\n');
        for (Row r : rows) {
            b.append(String.join(",", quote(r.run()), quote(r.strategy()), quote(r.settings()), quote(r.faults()),
                    Long.toString(r.requests()), Long.toString(r.failed()), num(r.meanMs()), num(r.p99Ms()),
                    num(r.detectionMs()), r.clearedSuspicions() == null ? "" : r.clearedSuspicions().toString(),
                    Long.toString(r.unprovokedFailures()), Integer.toString(r.faultyInvocations()), num(r.failoverMs()), num(r.goodput()),
                    num(r.punctuality()), num(r.demerits()), num(r.extraRequestsPercent()),
                    Long.toString(r.falseSuspicions()), r.audit(), quote(r.tier()), num(r.requestRatePerS()),
                    num(r.databaseStatementsPerRequest()), num(r.tierRecoveryMs()))).append('\n');
        }
        return b.toString();
    }

    private static String quote(String s) {
        return "\"" + s.replace("\"", "\"\"") + "\"";
    }

    private static String num(Double d) {
        return d == null ? "" : String.format(Locale.ROOT, "%.3f", d);
    }

    /** The figures a page plots, keyed as {@link #FIGURES} names them (null where the run has none). */
    static ObjectNode json(Row r) {
        return SummaryJson.JSON.createObjectNode().put("run", r.run()).put("mean_ms", r.meanMs())
                .put("p99_ms", r.p99Ms()).put("detection_ms", r.detectionMs())
                .put("cleared_suspicions", r.clearedSuspicions()).put("unprovoked", r.unprovokedFailures())
                .put("failover_ms", r.failoverMs()).put("goodput", r.goodput()).put("punctuality", r.punctuality())
                .put("demerits", r.demerits()).put("request_rate_per_s", r.requestRatePerS())
                .put("database_statements_per_request", r.databaseStatementsPerRequest())
                .put("tier_recovery_ms", r.tierRecoveryMs());
    }

    static String html(List<Row> rows) throws IOException {
        StringBuilder h = HtmlPage.start("ftlab: " + rows.size() + " runs side by side", true);
        h.append("<p class=\"meta\">One row per run. Latency: the median over the run's blocks of each block's mean "
                + "and p99 (compare runs of the same grid). Faulty invocation: the median total of the requests a "
                + "fail-over served. Goodput, punctuality and demerits: docs/analysis.md (performability). Every "
                + "run's own report is in its report/index.html.</p>\n");
        List<List<String>> cells = new ArrayList<>();
        for (Row r : rows) {
            cells.add(List.of(r.run(), r.strategy(), r.settings(), r.faults(), "" + r.requests(), "" + r.failed(),
                    num(r.meanMs()), num(r.p99Ms()), num(r.detectionMs()),
                    r.clearedSuspicions() == null ? "" : "" + r.clearedSuspicions(), "" + r.unprovokedFailures(),
                    "" + r.faultyInvocations(), num(r.failoverMs()), num(r.goodput()), num(r.punctuality()),
                    num(r.demerits()), num(r.extraRequestsPercent()), "" + r.falseSuspicions(), r.audit(), r.tier(),
                    num(r.requestRatePerS()), num(r.databaseStatementsPerRequest()), num(r.tierRecoveryMs())));
        }
        HtmlPage.table(h, List.of("run", "strategy", "knobs", "faults", "requests", "failed", "mean ms", "p99 ms",
                "detection ms", "cleared suspicions", "unprovoked failures", "faulty", "faulty invocation ms",
                "goodput", "punctuality", "demerits", "extra requests %", "false suspicions", "audit", "tier",
                "requests/s", "database statements/request", "tier recovery ms"), cells);
        h.append("<div class=\"grid2\" id=\"figures\"></div>\n<div id=\"report-errors\" class=\"errors\">"
                + "</div>\n");
        ObjectNode data = SummaryJson.JSON.createObjectNode();
        ArrayNode runs = data.putArray("runs");
        rows.forEach(r -> runs.add(json(r)));
        ArrayNode figures = data.putArray("figures");
        for (String[] f : FIGURES) {
            figures.addObject().put("key", f[0]).put("title", f[1]);
        }
        h.append("<script type=\"application/json\" id=\"compare-data\">")
                .append(SummaryJson.JSON.writer().writeValueAsString(data).replace("</", "<\\/")).append("</script>\n");
        h.append("<script>").append(HtmlReport.chartJs()).append("</script>\n");
        h.append("<script>").append(HtmlReport.resource("/org/ftlab/harness/analysis/compare.js"))
                .append("</script>\n");
        return HtmlPage.end(h);
    }

    /** Writes {@code compare.csv} and {@code compare.html} into {@code reportDir}; returns the page. */
    public static Path write(Path reportDir, List<Row> rows) throws IOException {
        Files.createDirectories(reportDir);
        RunAnalysis.writeAtomically(reportDir.resolve("compare.csv"), csv(rows));
        Path page = reportDir.resolve("compare.html");
        RunAnalysis.writeAtomically(page, html(rows));
        return page;
    }
}
