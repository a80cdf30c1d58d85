package org.ftlab.harness.analysis;

import static org.ftlab.harness.analysis.HtmlPage.esc;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import org.ftlab.harness.attribution.Attribution;
import org.ftlab.harness.attribution.InjectedStalls;

/**
 * The report's "Why slow" section: the causes of each block's slowest 1% (docs/analysis.md), a table per block with the
 * share left unexplained, and the slowest requests of the run with their cause, its share and its evidence.
 */
final class CausesSection {
    /** Slow requests listed one by one, slowest first. */
    static final int LISTED = 25;

    private CausesSection() {
    }

    static void render(StringBuilder h, Attribution.Result a) {
        h.append("<h2 id=\"causes\">Why the slowest 1% were slow</h2>\n");
        if (!a.recorded()) {
            h.append("<p class=\"note\">The run recorded no events (<code>--observe off</code>, or a run from before "
                    + "them): its slow requests cannot be explained.</p>\n");
            return;
        }
        h.append(String.format(Locale.ROOT, "<p>Each block's slowest %d%% (at least its maximum) joined to the stalls "
                + "its processes recorded (JDK Flight Recorder in every JVM). A cause accounts for at least %d%% of a "
                + "request's excess over its block's median; the span where the time went is given beside an "
                + "unexplained one, never as a cause. <b>%d of %d</b> slow requests (%s) have a named cause.</p>\n",
                Math.round(Attribution.TOP_FRACTION * 100), Math.round(Attribution.MIN_SHARE_OF_EXCESS * 100),
                a.outliers().stream().filter(Attribution.Outlier::explained).count(), a.outliers().size(),
                pct(a.explainedShare())));
        if (!a.problems().isEmpty()) {
            h.append("<div class=\"warn\"><b>Events missing:</b><ul>");
            a.problems().forEach(p -> h.append("<li>").append(esc(p)).append("</li>"));
            h.append("</ul></div>\n");
        }
        Map<String, Integer> bySpan = a.unexplainedBySpan();
        if (!bySpan.isEmpty()) {
            h.append("<p>The unexplained, by the span their time went to (where a cause not yet recorded lies): ");
            h.append(String.join(", ", bySpan.entrySet().stream().map(e -> "<b>" + esc(e.getKey()) + "</b> "
                    + e.getValue()).toList()));
            h.append(".</p>\n");
        }
        blocks(h, a);
        injected(h, a.injected());
        if (a.timeline() != null) {
            h.append("<h3>The block of the slowest request: ").append(esc(a.timeline().block())).append("</h3>\n"
                    + "<p>Each of its slow requests broken down by span (seed 000's Figure 7, for every one), and its "
                    + "timeline: the slow requests, coloured by cause, above each process's recorded stalls of 1 ms or "
                    + "more.</p>\n");
            h.append(HtmlReport.plot("outlier-spans", "the block's slow requests broken down by span"));
            h.append(HtmlReport.plot("slow-timeline", "the block's slow requests and each process's stalls over time"));
        }
        outliers(h, a.outliers());
    }

    /** The stalls the run injected on purpose, each with the slow requests it delayed and what they were named. */
    private static void injected(StringBuilder h, List<InjectedStalls.Verdict> verdicts) {
        if (verdicts.isEmpty()) {
            return;
        }
        h.append("<h3>Stalls injected on purpose</h3>\n<p>Each stall of known cause the schedule injected, the slow "
                + "requests in flight while it was on, and whether at least half of them name its cause.</p>\n"
                + "<table><tr><th>fault</th><th>kind</th><th>where</th><th>expected cause</th><th>slow requests "
                + "delayed</th><th>named it</th><th>verdict</th><th>causes named</th></tr>\n");
        for (InjectedStalls.Verdict v : verdicts) {
            String where = v.fault().replica() == null || v.fault().replica().isEmpty() ? v.fault().target()
                    : v.fault().target() + " (" + v.fault().replica() + ")";
            String verdict = v.delayed() == 0 ? "delayed none" : v.found() ? "found" : "missed";
            h.append("<tr><td>").append(esc(v.fault().id())).append("</td><td>").append(esc(v.fault().label()))
                    .append("</td><td>").append(esc(where)).append("</td><td>").append(esc(v.expected()))
                    .append("</td><td>").append(v.delayed()).append("</td><td>").append(v.named()).append("</td><td")
                    .append(v.delayed() > 0 && !v.found() ? " class=\"bad\"" : "").append(">").append(verdict)
                    .append("</td><td>");
            v.causes().forEach((c, n) -> h.append(esc(c)).append(" ").append(n).append("<br>"));
            h.append("</td></tr>\n");
        }
        h.append("</table>\n");
    }

    private static void blocks(StringBuilder h, Attribution.Result a) {
        TreeSet<String> causes = new TreeSet<>(a.causes().keySet());
        causes.remove(Attribution.UNEXPLAINED);
        h.append("<table><tr><th>block</th><th>slow requests</th>");
        causes.forEach(c -> h.append("<th>").append(esc(c)).append("</th>"));
        h.append("<th>unexplained</th></tr>\n");
        row(h, "<b>run</b>", a.outliers().size(), a.causes(), causes);
        for (Attribution.BlockCauses b : a.blocks()) {
            row(h, esc(b.block()), b.outliers(), b.causes(), causes);
        }
        h.append("</table>\n");
    }

    private static void row(StringBuilder h, String label, int outliers, Map<String, Integer> counts,
            TreeSet<String> causes) {
        h.append("<tr><td>").append(label).append("</td><td>").append(outliers).append("</td>");
        causes.forEach(c -> h.append("<td>").append(counts.getOrDefault(c, 0)).append("</td>"));
        int unexplained = counts.getOrDefault(Attribution.UNEXPLAINED, 0);
        h.append("<td").append(unexplained > 0 ? " class=\"bad\"" : "").append(">").append(unexplained)
                .append(outliers == 0 ? "" : " (" + pct(unexplained / (double) outliers) + ")").append("</td></tr>\n");
    }

    private static void outliers(StringBuilder h, List<Attribution.Outlier> all) {
        List<Attribution.Outlier> slowest = all.stream()
                .sorted(Comparator.comparingLong(Attribution.Outlier::latencyUs).reversed()).limit(LISTED).toList();
        h.append("<p>The ").append(slowest.size()).append(" slowest of them (all in summary.json, "
                + "<code>outliers</code>):</p>\n<table><tr><th>block</th><th>request</th><th>latency ms</th>"
                + "<th>excess ms</th><th>cause</th><th>share of latency</th><th>span</th><th>evidence</th></tr>\n");
        for (Attribution.Outlier o : slowest) {
            h.append("<tr><td>").append(esc(o.block())).append("</td><td>").append(esc(o.client())).append('#')
                    .append(o.seq()).append(' ').append(esc(o.method())).append("</td><td>")
                    .append(HtmlReport.ms(o.latencyUs())).append("</td><td>").append(HtmlReport.ms(o.excessUs()))
                    .append("</td><td").append(o.explained() ? "" : " class=\"bad\"").append(">")
                    .append(esc(o.cause())).append("</td><td>").append(pct(o.share())).append("</td><td>")
                    .append(esc(o.span())).append("</td><td>");
            h.append(String.join("; ", o.evidence().stream().limit(2).map(e -> esc(e.process() + " " + e.detail())
                    + String.format(Locale.ROOT, " %s ms (%s ms of it)", HtmlReport.ms(e.durationUs()),
                            HtmlReport.ms(e.overlapUs()))).toList()));
            h.append("</td></tr>\n");
        }
        h.append("</table>\n");
    }

    private static String pct(double f) {
        return String.format(Locale.ROOT, "%.0f%%", 100 * f);
    }
}
