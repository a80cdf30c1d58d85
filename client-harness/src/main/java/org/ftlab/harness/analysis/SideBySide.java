package org.ftlab.harness.analysis;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import org.ftlab.harness.probe.DatabaseWorkRecord;
import org.ftlab.harness.probe.Manifest;
import org.ftlab.harness.workload.RunColumns;
import org.ftlab.harness.workload.Workloads;

/**
 * Several runs side by side, the teacher's view ({@code ftlab analyze RUN --compare OTHER...}): a class's
 * submissions, or the runs of a sweep. One row of headline figures per run, written as {@code compare.csv} and a
 * self-contained {@code compare.html} with the table and one bar chart per headline figure. Latency figures are the
 * median over a run's blocks of each block's mean and p99 (blocks of different runs are alike only if the runs had
 * the same grid: the table says each run's strategy, knobs and faults so that a reader can tell). The registered
 * workloads add columns of their own ({@link Workloads#columns()}): their labels follow the audit, their figures the
 * view's own.
 */
public final class SideBySide {
    private SideBySide() {
    }

    /**
     * One run's headline figures; null where the run has no such figure (no fault: no fail-over; closed loop
     * without faults: no performability). {@code labels} and {@code figures}: the values of the workloads' columns
     * ({@link #columns()}), in their order.
     */
    public record Row(String run, String strategy, String settings, String faults, long requests, long failed,
            Double meanMs, Double p99Ms, Double detectionMs, Integer clearedSuspicions, long unprovokedFailures,
            int faultyInvocations,
            Double failoverMs, Double goodput, Double punctuality, Double demerits, Double extraRequestsPercent,
            long falseSuspicions, String audit, List<String> labels, Double requestRatePerS,
            Double databaseStatementsPerRequest, List<Double> figures) {
        public Row {
            // a run may have no value of a workload's column
            labels = Collections.unmodifiableList(new ArrayList<>(labels));
            figures = Collections.unmodifiableList(new ArrayList<>(figures));
        }
    }

    /** The columns the workloads add, in the order of the rows' {@code labels} and {@code figures}. */
    public static RunColumns columns() {
        return Workloads.columns();
    }

    /** The view's own headline figures plotted, each a bar per run: key in the row's JSON, and the plot's title. */
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
        DatabaseWorkRecord db = DatabaseWorkRecord.readFrom(runDir);
        RunColumns columns = columns();
        List<String> labels = new ArrayList<>();
        for (RunColumns.Label l : columns.labels()) {
            labels.add(l.value().of(runDir));
        }
        List<Double> figures = new ArrayList<>();
        for (RunColumns.Figure figure : columns.figures()) {
            figures.add(figure.value().of(runDir));
        }
        return new Row(runDir.toAbsolutePath().normalize().getFileName().toString(), r.strategy(), r.settings(),
                r.faultKind(), requests, failed, RunComparison.median(means), RunComparison.median(p99s),
                RunComparison.median(detections), DetectorLog.clearedSuspicions(runDir), unprovoked, f == null || f.faulty() == null ? 0 : f.faulty().count(), total == null ? null : total / 1000.0,
                p == null ? null : p.goodput(), p == null ? null : p.punctuality(), p == null ? null : p.demerits(),
                rd == null ? null : 100 * rd.extraRate(), rd == null ? 0 : rd.falseSuspicions(), audit(runDir),
                labels, RunComparison.median(rates), db == null ? null : db.statementsPerRequest(), figures);
    }

    /** The run's exactly-once audit as its manifest records it: passed, FAILED, or "-" when none ran. */
    private static String audit(Path runDir) throws IOException {
        if (!Manifest.existsIn(runDir)) {
            return "-";
        }
        Manifest.Audit a = Manifest.readAny(runDir).audit();
        return a == null ? "-" : a.passed() ? "passed" : "FAILED";
    }

    private static final String CSV_HEAD = "run,strategy,settings,faults,requests,failed,mean_ms,p99_ms,"
            + "detection_ms,cleared_suspicions,unprovoked_failures,faulty_invocations,failover_ms,goodput,punctuality,demerits,extra_requests_percent,false_suspicions,"
            + "audit";

    static String csv(List<Row> rows) {
        RunColumns columns = columns();
        List<String> header = new ArrayList<>(List.of(CSV_HEAD));
        columns.labels().forEach(l -> header.add(l.key()));
        header.addAll(List.of("request_rate_per_s", "database_statements_per_request"));
        columns.figures().forEach(f -> header.add(f.key()));
        StringBuilder b = new StringBuilder(String.join(",", header)).append('\n');
        for (Row r : rows) {
            List<String> cells = new ArrayList<>(List.of(quote(r.run()), quote(r.strategy()), quote(r.settings()),
                    quote(r.faults()), Long.toString(r.requests()), Long.toString(r.failed()), num(r.meanMs()),
                    num(r.p99Ms()), num(r.detectionMs()),
                    r.clearedSuspicions() == null ? "" : r.clearedSuspicions().toString(),
                    Long.toString(r.unprovokedFailures()), Integer.toString(r.faultyInvocations()),
                    num(r.failoverMs()), num(r.goodput()), num(r.punctuality()), num(r.demerits()),
                    num(r.extraRequestsPercent()), Long.toString(r.falseSuspicions()), r.audit()));
            r.labels().forEach(l -> cells.add(quote(l)));
            cells.addAll(List.of(num(r.requestRatePerS()), num(r.databaseStatementsPerRequest())));
            r.figures().forEach(f -> cells.add(num(f)));
            b.append(String.join(",", cells)).append('\n');
        }
        return b.toString();
    }

    private static String quote(String s) {
        return "\"" + s.replace("\"", "\"\"") + "\"";
    }

    private static String num(Double d) {
        return d == null ? "" : String.format(Locale.ROOT, "%.3f", d);
    }

    /**
     * The figures a page plots, keyed as {@link #FIGURES} and the workloads' figures name them (null where the run
     * has none).
     */
    static ObjectNode json(Row r, List<RunColumns.Figure> figures) {
        ObjectNode o = SummaryJson.JSON.createObjectNode().put("run", r.run()).put("mean_ms", r.meanMs())
                .put("p99_ms", r.p99Ms()).put("detection_ms", r.detectionMs())
                .put("cleared_suspicions", r.clearedSuspicions()).put("unprovoked", r.unprovokedFailures())
                .put("failover_ms", r.failoverMs()).put("goodput", r.goodput()).put("punctuality", r.punctuality())
                .put("demerits", r.demerits()).put("request_rate_per_s", r.requestRatePerS())
                .put("database_statements_per_request", r.databaseStatementsPerRequest());
        for (int i = 0; i < figures.size(); i++) {
            o.put(figures.get(i).key(), r.figures().get(i));
        }
        return o;
    }

    static String html(List<Row> rows) throws IOException {
        StringBuilder h = HtmlPage.start("ftlab: " + rows.size() + " runs side by side", true);
        h.append("<p class=\"meta\">One row per run. Latency: the median over the run's blocks of each block's mean "
                + "and p99 (compare runs of the same grid). Faulty invocation: the median total of the requests a "
                + "fail-over served. Goodput, punctuality and demerits: docs/analysis.md (performability). Every "
                + "run's own report is in its report/index.html.</p>\n");
        RunColumns columns = columns();
        List<List<String>> cells = new ArrayList<>();
        for (Row r : rows) {
            List<String> row = new ArrayList<>(List.of(r.run(), r.strategy(), r.settings(), r.faults(),
                    "" + r.requests(), "" + r.failed(), num(r.meanMs()), num(r.p99Ms()), num(r.detectionMs()),
                    r.clearedSuspicions() == null ? "" : "" + r.clearedSuspicions(), "" + r.unprovokedFailures(),
                    "" + r.faultyInvocations(), num(r.failoverMs()), num(r.goodput()), num(r.punctuality()),
                    num(r.demerits()), num(r.extraRequestsPercent()), "" + r.falseSuspicions(), r.audit()));
            row.addAll(r.labels());
            row.addAll(List.of(num(r.requestRatePerS()), num(r.databaseStatementsPerRequest())));
            r.figures().forEach(f -> row.add(num(f)));
            cells.add(row);
        }
        List<String> headings = new ArrayList<>(List.of("run", "strategy", "knobs", "faults", "requests", "failed",
                "mean ms", "p99 ms", "detection ms", "cleared suspicions", "unprovoked failures", "faulty",
                "faulty invocation ms", "goodput", "punctuality", "demerits", "extra requests %", "false suspicions",
                "audit"));
        columns.labels().forEach(l -> headings.add(l.heading()));
        headings.addAll(List.of("requests/s", "database statements/request"));
        columns.figures().forEach(f -> headings.add(f.heading()));
        HtmlPage.table(h, headings, cells);
        h.append("<div class=\"grid2\" id=\"figures\"></div>\n<div id=\"report-errors\" class=\"errors\">"
                + "</div>\n");
        ObjectNode data = SummaryJson.JSON.createObjectNode();
        ArrayNode runs = data.putArray("runs");
        rows.forEach(r -> runs.add(json(r, columns.figures())));
        ArrayNode figures = data.putArray("figures");
        for (String[] f : FIGURES) {
            figures.addObject().put("key", f[0]).put("title", f[1]);
        }
        for (RunColumns.Figure f : columns.figures()) {
            figures.addObject().put("key", f.key()).put("title", f.title());
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
