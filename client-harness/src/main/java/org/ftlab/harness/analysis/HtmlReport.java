package org.ftlab.harness.analysis;

import static org.ftlab.harness.analysis.HtmlPage.esc;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.ftlab.harness.probe.ClientCalibration;
import org.ftlab.harness.probe.DatabaseFailoverRecord;
import org.ftlab.harness.probe.ManagerFailoverRecord;
import org.ftlab.harness.probe.FaultRecord;
import org.ftlab.harness.probe.StatefulTierRecord;
import org.ftlab.rm.api.Platform;

/**
 * {@code report/index.html}: one self-contained page (Chart.js and the data inlined, no network needed) with the
 * tables rendered here and the plots drawn by {@code report.js} from the embedded data. The page records what it
 * drew in {@code data-plots-rendered} / {@code data-plots-expected} on its body and any script error in
 * {@code #report-errors}, so a headless browser can check it.
 */
final class HtmlReport {
    /** Fault timelines drawn at most; the rest are in summary.json. */
    static final int MAX_TIMELINES = 24;

    private HtmlReport() {
    }

    static String render(Path runDir, RunAnalysis.Result r) throws JsonProcessingException {
        StringBuilder h = HtmlPage.start("ftlab report: " + runDir.toAbsolutePath().normalize().getFileName(), true);
        meta(h, r);
        calibration(h, runDir, r);
        boolean faultRun = r.failover() != null && r.failover().hasFaults();
        long configurations = configurations(r);
        StatefulTierRecord tier = statefulTier(runDir, h);
        JsonNode check = linearizability(runDir, h);
        nav(h, faultRun, r.comparison() != null, tier != null, check != null);
        if (faultRun) {
            // A fault run is read for its fail-over first; the latency statistics follow.
            failover(h, r.failover());
        }
        databaseFailovers(h, runDir);
        managerFailovers(h, runDir);
        if (check != null) {
            LinearizabilitySection.html(h, check);
        }
        if (tier != null) {
            StatefulTierSection.html(h, tier);
        }
        headline(h, r, configurations);
        magical(h, r);
        CausesSection.render(h, r.attribution());
        omission(h, r);
        plots(h, configurations);
        if (!faultRun) {
            failover(h, r.failover());
        }
        if (r.comparison() != null) {
            compare(h, r.comparison());
        }
        h.append("<footer>Written by ftlab ").append(esc(version("ftlab"))).append(" with Chart.js ")
                .append(esc(version("chartjs"))).append(" (MIT licence), inlined below.</footer>\n");
        data(h, r);
        h.append("<script>").append(chartJs()).append("</script>\n");
        h.append("<script>").append(resource("/org/ftlab/harness/analysis/report.js")).append("</script>\n");
        return HtmlPage.end(h);
    }

    /** The run's description under the title, and the warnings to read first. */
    private static void meta(StringBuilder h, RunAnalysis.Result r) {
        h.append("<p class=\"meta\">fail-over strategy <b>")
                .append(esc(r.strategy())).append("</b>, platform <b>").append(esc(r.platform()))
                .append("</b>, replicas <b>").append(esc(r.replicas())).append("</b>, faults <b>").append(esc(r.faultKind())).append("</b>, ")
                .append(esc(r.settings())).append(", ")
                .append(r.entries().stream().filter(e -> e.method().equals("all")).count())
                .append(" blocks (configuration × replicate). ").append(esc(design(r.design())))
                .append(" Latency = ").append(r.design().openLoop()
                        ? "client receive − intended send (open loop: the wait of a user who wanted to send then)"
                        : "client receive − client send (closed loop)").append("; warm-up rows excluded; percentiles: ")
                .append(esc(LatencyStats.PERCENTILE_ESTIMATOR)).append(". Every field is explained in "
                        + "docs/analysis.md.</p>\n");
        if (!r.warnings().isEmpty()) {
            h.append("<div class=\"warn\"><b>Read this first:</b><ul>");
            r.warnings().forEach(w -> h.append("<li>").append(esc(w)).append("</li>"));
            h.append("</ul></div>\n");
        }
        h.append("<pre id=\"report-errors\" class=\"errors\" hidden></pre>\n");
    }

    /**
     * What ftlab's own client added on the machine that ran it, per door of the run, as the calibration bench last
     * measured it there before the run ({@link ClientCalibration}); or that it was not calibrated.
     */
    private static void calibration(StringBuilder h, Path runDir, RunAnalysis.Result r) {
        ClientCalibration c;
        try {
            c = ClientCalibration.readFrom(runDir);
        } catch (IOException e) {
            h.append("<div class=\"warn\">").append(esc(e.getMessage())).append("</div>\n");
            return;
        }
        h.append("<p class=\"meta\" id=\"calibration\"><b>The instrument's own cost.</b> ");
        if (c == null) {
            h.append("Not calibrated on the machine that ran it: <code>scripts/ftlab bench --suites calibration</code> "
                    + "measures what ftlab's own client adds to these latencies, and every run started after it says "
                    + "so here.</p>\n");
            return;
        }
        h.append(esc(String.format(Locale.ROOT, "On %s (calibrated %s, %.0f requests/s, %d round%s), ftlab's own "
                + "client added to what it measured: ", c.host(), c.measuredAt(), c.ratePerS(), c.rounds(),
                c.rounds() == 1 ? "" : "s")));
        List<String> doors = new ArrayList<>();
        List<String> platforms = Arrays.stream(r.platform().split(",")).map(String::strip).toList();
        Set<String> known = Arrays.stream(Platform.values()).map(Platform::wireName).collect(Collectors.toSet());
        if (platforms.stream().noneMatch(known::contains)) {
            // a run whose door is not known (no manifest): every door calibrated
            platforms = c.doors().stream().map(ClientCalibration.Door::platform).distinct().toList();
        }
        for (String platform : platforms) {
            List<String> added = c.describe(platform.strip());
            doors.add("<b>" + esc(platform.strip()) + "</b> " + (added.isEmpty() ? "not calibrated"
                    : esc(String.join("; ", added))));
        }
        h.append(String.join(" — ", doors)).append(" (docs/performance.md, \"Calibration\").</p>\n");
    }

    /** The replicated database's fail-overs of the run, if it ran on one (unreadable: a warning). */
    private static void databaseFailovers(StringBuilder h, Path runDir) {
        try {
            DatabaseFailoverRecord r = DatabaseFailoverRecord.readFrom(runDir);
            if (r != null) {
                DatabaseFailoverSection.html(h, r);
            }
        } catch (IOException e) {
            h.append("<div class=\"warn\">").append(esc(e.getMessage())).append("</div>\n");
        }
    }

    /** The managers' fail-overs of the run, if it ran on a lab of several (unreadable: a warning). */
    private static void managerFailovers(StringBuilder h, Path runDir) {
        try {
            ManagerFailoverRecord r = ManagerFailoverRecord.readFrom(runDir);
            if (r != null) {
                ManagerFailoverSection.html(h, r);
            }
        } catch (IOException e) {
            h.append("<div class=\"warn\">").append(esc(e.getMessage())).append("</div>\n");
        }
    }

    /** The run's stateful tier record, or null (none, or unreadable: then a warning on the page). */
    private static StatefulTierRecord statefulTier(Path runDir, StringBuilder h) {
        try {
            return StatefulTierRecord.readFrom(runDir);
        } catch (IOException e) {
            h.append("<div class=\"warn\">").append(esc(e.getMessage())).append("</div>\n");
            return null;
        }
    }

    /** The run's linearizability verdict ({@code check.json}), or null (none, or unreadable: then a warning). */
    private static JsonNode linearizability(Path runDir, StringBuilder h) {
        try {
            return LinearizabilitySection.read(runDir);
        } catch (IOException e) {
            h.append("<div class=\"warn\">").append(esc(LinearizabilityCheck.FILE + ": " + e.getMessage()))
                    .append("</div>\n");
            return null;
        }
    }

    /** Links to the sections, in the order they come: a fault run's fail-over first. */
    private static void nav(StringBuilder h, boolean faultRun, boolean comparison, boolean statefulTier,
            boolean linearizability) {
        List<String[]> nav = new ArrayList<>();
        if (faultRun) {
            nav.add(new String[] {"failover", "fail-over"});
            nav.add(new String[] {"performability", "performability"});
        }
        if (linearizability) {
            nav.add(new String[] {"linearizable", "linearizable?"});
        }
        if (statefulTier) {
            nav.add(new String[] {"stateful", "stateful tier"});
        }
        nav.add(new String[] {"headline", "headline"});
        nav.add(new String[] {"magical", "magical 1%"});
        nav.add(new String[] {"causes", "why slow"});
        nav.add(new String[] {"omission", "coordinated omission"});
        nav.add(new String[] {"plots", "latency plots"});
        if (!faultRun) {
            nav.add(new String[] {"failover", "fail-over"});
        }
        if (comparison) {
            nav.add(new String[] {"compare", "comparison"});
        }
        h.append("<nav>").append(String.join(" · ", nav.stream().map(n -> "<a href=\"#" + n[0] + "\">" + n[1]
                + "</a>").toList())).append("</nav>\n");
    }

    /** The data the page's script draws from: the summary and every configuration's plot series. */
    private static void data(StringBuilder h, RunAnalysis.Result r) throws JsonProcessingException {
        ObjectNode data = SummaryJson.JSON.createObjectNode();
        data.set("summary", SummaryJson.tree(r));
        ArrayNode plots = data.putArray("plots");
        for (RunAnalysis.ConfigPlot p : r.plots()) {
            ObjectNode n = plots.addObject();
            n.put("config", p.config());
            ArrayNode clients = n.putArray("clients");
            for (RunAnalysis.ClientSeries s : p.clients()) {
                ObjectNode c = clients.addObject();
                c.put("client", s.client());
                c.set("index", SummaryJson.JSON.valueToTree(s.requestIndex()));
                c.set("ms", SummaryJson.JSON.valueToTree(round(s.latencyMs())));
            }
            n.set("cdf_ms", SummaryJson.JSON.valueToTree(round(p.cdfMs())));
            n.set("cdf_fraction", SummaryJson.JSON.valueToTree(p.cdfFraction()));
            n.set("spectrum", spectrum(p.recordedSpectrum()));
            n.set("spectrum2", spectrum(p.secondSpectrum()));
            n.put("spectrum2_label", p.secondLabel());
        }
        data.put("max_timelines", MAX_TIMELINES);
        // "</" inside a script element would end it: escape the slash (still valid JSON).
        h.append("<script type=\"application/json\" id=\"report-data\">")
                .append(SummaryJson.JSON.writer().writeValueAsString(data).replace("</", "<\\/"))
                .append("</script>\n");
    }

    /** Distinct configurations of the run (replicates of one configuration count once). */
    static long configurations(RunAnalysis.Result r) {
        return r.entries().stream().filter(e -> e.method().equals("all")).map(RunAnalysis.Entry::config).distinct()
                .count();
    }

    private static void headline(StringBuilder h, RunAnalysis.Result r, long configurations) {
        h.append("<h2 id=\"headline\">Headline: every block (configuration × replicate), all methods</h2>\n<table><tr><th>block</th>"
                + "<th>count</th><th>failed</th><th>mean ms</th><th>median ms</th><th>p99 ms</th>"
                + "<th>p99 99% CI ms</th><th>max ms</th><th>3σ outliers</th><th>C1 max&gt;10×mean</th>"
                + "<th>p99≤10×mean</th><th>p99≤25×mean</th><th>middleware / server / DB ms</th>"
                + "<th>req/s</th><th>steady state: first / last decile ms</th>")
                .append(r.design().openLoop() ? "<th>service p99 ms</th><th>late starts</th>"
                        : "<th>p99 corrected ms</th>").append("</tr>\n");
        for (RunAnalysis.Entry e : r.entries()) {
            if (e.method().equals("all")) {
                headlineRow(h, e, r.design().openLoop());
            }
        }
        h.append("</table>\n<p class=\"note\">Per-method rows are in summary.csv and summary.json. Middleware = "
                + "latency − server time; the server time includes the database time. Steady state: mean latency "
                + "of each client's first and last 10% of fault-free requests of a method (the least steady method "
                + "shown); red when the first exceeds " + RunAnalysis.STEADY_STATE_RATIO + " × the last (give more "
                + "--warmup).</p>\n");
        anova(h, r, configurations);
    }

    /** One block's row of the headline table. */
    private static void headlineRow(StringBuilder h, RunAnalysis.Entry e, boolean openLoopRun) {
        LatencyStats s = e.stats();
        h.append("<tr><td>").append(esc(e.label())).append("</td><td>").append(s == null ? 0 : s.count())
                .append("</td><td").append(e.failures() > 0 ? " class=\"bad\"" : "").append('>')
                .append(e.failures()).append("</td>");
        if (s == null) {
            h.append("<td colspan=\"11\">every request failed</td>");
        } else {
            RunAnalysis.Breakdown b = e.breakdown();
            h.append(td(ms(s.mean()))).append(td(ms(s.median()))).append(td(ms(s.p99())))
                    .append(td(s.p99CiLow() == null ? "n too small"
                            : ms(s.p99CiLow()) + "–" + ms(s.p99CiHigh())))
                    .append(td(ms(s.max()))).append(td(s.outliers3Sigma() + String.format(Locale.ROOT,
                            " (%.2f%%)", 100.0 * s.outliers3Sigma() / s.count())))
                    .append(td(s.c1() ? "yes" : "no")).append(verdict(s.p99Within(10)))
                    .append(verdict(s.p99Within(25)))
                    .append(td(b == null ? "-" : ms(b.middlewareMeanUs()) + " / " + ms(b.serverMeanUs())
                            + " / " + ms(b.databaseMeanUs())));
        }
        h.append(td(e.requestRatePerS() == null ? "-" : String.format(Locale.ROOT, "%.0f",
                e.requestRatePerS())));
        RunAnalysis.SteadyState st = e.steady();
        if (st == null) {
            h.append(td("too few"));
        } else {
            h.append("<td").append(st.steady() ? "" : " class=\"bad\" title=\"not at steady state\"").append('>')
                    .append(ms(st.firstDecileMeanUs())).append(" / ").append(ms(st.lastDecileMeanUs()))
                    .append(st.steady() ? "" : String.format(Locale.ROOT, " (%.1f×)", st.ratio())).append("</td>");
        }
        if (e.openLoop() != null) {
            LatencyStats svc = e.openLoop().service();
            h.append(td(svc == null ? "-" : ms(svc.p99()))).append(td("" + e.openLoop().lateStarts()));
        } else if (!openLoopRun) {
            h.append(td(e.corrected() == null ? "-" : ms(e.corrected().p99Us())));
        }
        h.append("</tr>\n");
    }

    /** The ANOVA across configurations: factorial with replicates, one-way without; none for one configuration. */
    private static void anova(StringBuilder h, RunAnalysis.Result r, long configurations) {
        if (configurations < 2) {
            h.append("<p class=\"note\">ANOVA left out: it compares configurations, and this run has one (run a "
                    + "grid profile for it).</p>\n");
            return;
        }
        if (!r.anovaFactorial().isEmpty()) {
            factorial(h, r);
            return;
        }
        h.append("<h3>ANOVA (criterion C3): does a factor change the latency across configurations?</h3>\n"
                + "<table><tr><th>factor</th><th>metric</th><th>F</th><th>p</th><th>significant at 0.01</th>"
                + "</tr>\n");
        for (RunAnalysis.Anova a : r.anova()) {
            h.append("<tr><td>").append(esc(a.factor())).append("</td><td>").append(esc(a.metric())).append("</td>");
            if (a.f() == null) {
                h.append("<td colspan=\"3\">not testable (a factor needs ≥ 2 levels with ≥ 2 observations)</td>");
            } else {
                h.append(td(String.format(Locale.ROOT, "%.3f", a.f()))).append(td(String.format(Locale.ROOT,
                        "%.3g", a.p()))).append(td(a.p() < 0.01 ? "yes" : "no"));
            }
            h.append("</tr>\n");
        }
        h.append("</table>\n");
    }

    private static String design(RunAnalysis.Design d) {
        return String.format(Locale.ROOT, "%s arrivals, %s order%s, %d replicate%s, %d warm-up requests per client "
                + "and configuration after %d per client for the lab.", d.arrival(), d.order(), d.seed() == null ? ""
                        : " (seed " + d.seed() + ")", d.repeat(), d.repeat() == 1 ? "" : "s", d.warmupPerClient(),
                d.labWarmupPerClient());
    }

    /** The factorial ANOVA as a table a student can read: one row per effect, the three metrics side by side. */
    private static void factorial(StringBuilder h, RunAnalysis.Result r) {
        List<String> metrics = List.of("mean", "p99", "max");
        h.append("<h3>Factorial ANOVA (criterion C3, Type II): which factors and pairs of factors change the "
                + "latency?</h3>\n<p>One observation per configuration, replicate and method; the error is the "
                + "variation between replicates (and the higher-order interactions). Partial η² is the share of the "
                + "variation left after the other effects that this effect explains: about 0.01 small, 0.06 medium, "
                + "0.14 large. <b>Bold</b>: significant at p &lt; 0.01.</p>\n<table><tr><th rowspan=\"2\">effect</th>"
                + "<th rowspan=\"2\">df</th>");
        for (String m : metrics) {
            h.append("<th colspan=\"3\">").append(m).append("</th>");
        }
        h.append("</tr>\n<tr>");
        for (int i = 0; i < metrics.size(); i++) {
            h.append("<th>F</th><th>p</th><th>partial η²</th>");
        }
        h.append("</tr>\n");
        List<String> effects = r.anovaFactorial().stream().map(RunAnalysis.FactorialEffect::effect).distinct()
                .toList();
        int errorDf = 0;
        for (String effect : effects) {
            h.append("<tr><td>").append(esc(effect.replace(":", " × "))).append("</td>");
            boolean first = true;
            for (String m : metrics) {
                RunAnalysis.FactorialEffect x = r.anovaFactorial().stream().filter(y -> y.effect().equals(effect)
                        && y.metric().equals(m)).findFirst().orElse(null);
                if (first) {
                    h.append(td(x == null ? "-" : "" + x.df()));
                    first = false;
                }
                if (x == null || x.f() == null) {
                    h.append("<td colspan=\"3\">not testable</td>");
                    continue;
                }
                errorDf = x.errorDf();
                String cls = x.p() < 0.01 ? " style=\"font-weight:bold\"" : "";
                h.append("<td").append(cls).append('>').append(String.format(Locale.ROOT, "%.2f", x.f()))
                        .append("</td><td").append(cls).append('>').append(pValue(x.p())).append("</td>")
                        .append(td(String.format(Locale.ROOT, "%.3f", x.partialEtaSq())));
            }
            h.append("</tr>\n");
        }
        h.append("</table>\n<p class=\"note\">Error degrees of freedom: ").append(errorDf)
                .append(". The one-way ANOVA of each factor alone is in summary.json (anova).</p>\n");
    }

    private static String pValue(double p) {
        return p < 1e-16 ? "&lt; 1e-16" : String.format(Locale.ROOT, "%.3g", p);
    }

    /** Coordinated omission: recorded vs corrected (closed loop), or latency vs service time (open loop). */
    private static void omission(StringBuilder h, RunAnalysis.Result r) {
        h.append("<h2 id=\"omission\">Coordinated omission</h2>\n");
        if (r.design().openLoop()) {
            h.append("<p>Open-loop run: every request was sent at its intended time (or counted late), so the "
                    + "latencies above already include the time a request waited behind a stall; no correction is "
                    + "applied. The spectrum compares that latency with the service time (receive − send).</p>\n");
        } else {
            h.append("<p>Closed-loop clients send nothing while they wait, so one slow request stands for every "
                    + "request a user would have sent meanwhile. <b>Corrected</b> figures are HdrHistogram's "
                    + "(<code>recordValueWithExpectedInterval</code>, expected interval = think time + the "
                    + "configuration's median latency): they estimate what users who kept arriving would have seen. "
                    + "Recorded figures are what the clients measured. Both are histogram percentiles (within "
                    + "0.1%); report/histograms/&lt;block&gt;.hlog has both histograms for HdrHistogram's tools.</p>"
                    + "\n<table><tr><th>block</th><th>expected interval ms</th><th>p50 ms</th><th>p99 ms</th>"
                    + "<th>p99.9 ms</th><th>max ms</th><th>p99 corrected ms</th><th>p99.9 corrected ms</th>"
                    + "<th>corrected ÷ recorded p99</th></tr>\n");
            for (RunAnalysis.Entry e : r.entries()) {
                if (!e.method().equals("all") || e.corrected() == null) {
                    continue;
                }
                CoordinatedOmission.Corrected c = e.corrected();
                double ratio = (double) c.p99Us() / Math.max(1, e.stats().p99());
                h.append("<tr><td>").append(esc(e.label())).append("</td>").append(td(ms(c.expectedIntervalUs())))
                        .append(td(ms(e.stats().median()))).append(td(ms(e.stats().p99())))
                        .append(td(ms(e.stats().p999()))).append(td(ms(e.stats().max())))
                        .append(td(ms(c.p99Us()))).append(td(ms(c.p999Us())))
                        .append("<td").append(ratio > 2 ? " class=\"bad\"" : "").append('>')
                        .append(String.format(Locale.ROOT, "%.2f", ratio)).append("</td></tr>\n");
            }
            h.append("</table>\n");
        }
        h.append("<h3>Percentile spectrum</h3>\n<p><label>block <select id=\"spectrum-config\"></select></label> "
                + "The x axis is 1/(1 − percentile): each step right is one more nine.</p>\n")
                .append(plot("spectrum", "latency by percentile, recorded and corrected"));
    }

    private static ArrayNode spectrum(List<CoordinatedOmission.SpectrumPoint> points) {
        ArrayNode a = SummaryJson.JSON.createArrayNode();
        for (CoordinatedOmission.SpectrumPoint p : points) {
            a.addArray().add(p.percentile()).add(p.valueUs());
        }
        return a;
    }

    private static void magical(StringBuilder h, RunAnalysis.Result r) {
        RunAnalysis.MagicalOnePercent m = r.magical();
        h.append("<h2 id=\"magical\">The magical 1%</h2>\n<p>Per configuration (all its methods together, as in the seed's "
                + "experiments; the per-method verdicts are in summary.json), p99 is bounded within "
                + "k × mean at p &lt; 0.01 when the upper end of the distribution-free 99% confidence interval of "
                + "p99 is at most k × mean. ");
        h.append(String.format(Locale.ROOT, "<b>%d of %d</b> testable configurations have p99 ≤ "
                + "10 × mean, <b>%d of %d</b> p99 ≤ 25 × mean", m.within10x(), m.tested(), m.within25x(),
                m.tested()));
        if (m.untestable() > 0) {
            h.append(String.format(Locale.ROOT, "; %d configurations have too few requests for the "
                    + "interval (it needs at least 528: run more requests, e.g. --profile full)", m.untestable()));
        }
        h.append(".</p>\n");
        RunAnalysis.Regression g = r.regression();
        if (g != null) {
            h.append(String.format(Locale.ROOT, "<p>Regression of p99 on the mean across %d configurations: "
                    + "<b>p99 ≈ %.3f · mean %s %.0f µs</b>, r = %.3f, p %s %.3g (seed 000 found "
                    + "p99 ≈ 1.04 · mean + 263 µs, r = 0.82).</p>\n", g.n(), g.slope(), g.interceptUs() < 0 ? "−"
                    : "+", Math.abs(g.interceptUs()), g.r(), g.p() == 0 ? "&lt;" : "=", g.p() == 0 ? 1e-16 : g.p()));
            h.append(plot("p99-vs-mean", "p99 against mean per configuration, with the fitted line"));
        } else {
            h.append("<p class=\"note\">The regression of p99 on the mean and its plot are left out: they need three "
                    + "or more configurations.</p>\n");
        }
    }

    private static void plots(StringBuilder h, long configurations) {
        h.append("<h2 id=\"plots\">Latency</h2>\n");
        h.append("<h3>Latency of each client, in request order</h3>\n<p><label>configuration <select "
                + "id=\"client-config\"></select></label> Long series show the slowest request of each bucket of "
                + "consecutive requests.</p>\n")
                .append(plot("client-latency", "latency per client vs request index"));
        if (configurations >= 2) {
            h.append("<h3>Max, p99 and mean vs clients, one plot per reply size</h3>\n"
                    + "<div id=\"by-reply\" class=\"grid2\"></div>\n");
            h.append("<h3>The haircut: configurations sorted by mean, with p99 and max</h3>\n")
                    .append(plot("haircut", "configurations sorted by mean latency"));
        }
        h.append("<h3>Where the slowest 1% spend their time</h3>\n")
                .append(plot("outlier-breakdown", "middleware, server and database time of the top-1% requests"));
        if (configurations >= 2) {
            h.append("<h3>Request rate, reply size and p99</h3>\n")
                    .append(plot("rate-size-p99", "p99 latency vs request rate, by reply size"));
            h.append("<h3>Latency vs throughput</h3>\n")
                    .append(plot("latency-throughput", "mean latency vs throughput"));
        } else {
            h.append("<p class=\"note\">Plots across configurations (latency vs clients, the haircut, rate and reply "
                    + "size, latency vs throughput) are left out: this run has one configuration.</p>\n");
        }
        h.append("<h3>Latency distribution per configuration</h3>\n")
                .append(plot("cdf", "latency CDF per configuration"))
                .append(plot("boxes", "box plots per configuration"));
    }

    private static String spareReady(int sparesReady) {
        return sparesReady == FaultRecord.UNKNOWN ? "-" : sparesReady > 0 ? "yes" : "no: the degree waited for a boot";
    }

    private static void failover(StringBuilder h, FailoverAnalysis.Result f) {
        h.append("<h2 id=\"failover\">Fail-over</h2>\n");
        if (f != null) {
            redundancy(h, f);
        }
        if (f == null || !f.hasFaults()) {
            h.append("<p>This run had no faults. Run <code>scripts/ftlab grid --faults crash</code> (or the demo) "
                    + "for the fail-over breakdown.</p>\n<h2 id=\"performability\">Performability</h2>\n"
                    + "<p>Needs a run with faults.</p>\n");
            return;
        }
        h.append("<h3>The run, second by second, every fault shaded from injection to repair</h3>\n"
                + "<div id=\"run-timeline-box\"></div>\n");
        faults(h, f);
        detection(h, f);
        phases(h, f);
        faultyVsFaultFree(h, f);
        recoveryVsOutliers(h, f.recoveryVsOutliers());
        timelines(h, f);
        performability(h, f);
    }

    /** The faults table: each fault from faults.csv, what the requests that met it saw, and its hand-over. */
    private static void faults(StringBuilder h, FailoverAnalysis.Result f) {
        h.append("<h3>Faults (from faults.csv; times after injection)</h3>\n<p><i>requests saw</i>: what the requests "
                + "that met the fault saw: <i>failed</i> (some failed), <i>served elsewhere</i> (some were failed over, "
                + "hedged or raced to another replica), <i>waited</i> (none failed, but the slowest took longer than "
                + "the run's fault-free p99), <i>served</i> (no visible difference).</p>\n");
        h.append("<table><tr><th>fault</th><th>kind</th>"
                + "<th>target</th><th>replica</th><th>config</th><th>detected ms</th><th>promoted ms</th>"
                + "<th>restored s</th><th>repaired s</th><th>repair</th><th>requests saw</th><th>failed</th>"
                + "<th>spare ready</th>"
                + "<th>faulty invocations</th><th>overlapping requests</th><th>jitter (std) ms</th>"
                + "<th>max latency ms</th><th>hand-over: new primary's first ÷ old primary's last requests, median "
                + "ms (requests); the end of the new primary's first 1-s window with a median within 1.2× the old "
                + "one's</th><th>new primary's request path at the top tier when promoted</th></tr>\n");
        for (FailoverAnalysis.FaultSummary s : f.faults()) {
            faultRow(h, s, f.faultFree());
        }
        h.append("</table>\n");
    }

    /** One row of the faults table; {@code faultFree} gives the p99 a request that waited exceeded. */
    private static void faultRow(StringBuilder h, FailoverAnalysis.FaultSummary s, LatencyStats faultFree) {
        FaultRecord r = s.fault();
        h.append("<tr>").append(td(r.id())).append(td(r.label()))
                .append(td(r.target().isEmpty() ? "-" : r.target())).append(td(r.replica()))
                .append(td(s.config() == null ? "-" : s.config())).append(td(msOrDash(r.detectionUs())))
                .append(td(msOrDash(r.promotionUs())))
                .append(td(r.restorationUs() == null ? "-" : String.format(Locale.ROOT, "%.1f",
                        r.restorationUs() / 1e6)))
                .append(td(r.repairUs() == null ? "-" : String.format(Locale.ROOT, "%.2f", r.repairUs() / 1e6)))
                .append(td(r.repair().isEmpty() ? "-" : r.repair()))
                .append(td(faultFree == null ? "-" : s.outcome(faultFree.p99())))
                .append(td("" + s.failed())).append(td(spareReady(r.sparesReady())))
                .append(td("" + s.faultyInvocations()))
                .append(td("" + s.overlapping())).append(td(s.jitterUs() == null ? "-" : ms(s.jitterUs())))
                .append(td(msOrDash(s.maxLatencyUs()))).append(td(handover(s.handover())))
                .append(td(r.promotedHotness() == null ? "-" : r.promotedHotness())).append("</tr>\n");
    }

    /** The Fault Detector's detection time per fault kind, in one paragraph; nothing when no fault was detected. */
    private static void detection(StringBuilder h, FailoverAnalysis.Result f) {
        if (f.detection().isEmpty()) {
            return;
        }
        h.append("<p>Fault Detector detection time (injection → report): ");
        for (FailoverAnalysis.PhaseStats d : f.detection()) {
            h.append(String.format(Locale.ROOT, "%s median %s ms (min %s, max %s, n = %d); ", esc(d.phase()),
                    ms(d.medianUs()), ms(d.minUs()), ms(d.maxUs()), d.count()));
        }
        h.append("</p>\n");
    }

    /** The faulty invocations' phases (detection, fail-over, retry, total) as a table and a plot. */
    private static void phases(StringBuilder h, FailoverAnalysis.Result f) {
        h.append("<h3>Faulty invocations: detection, fail-over, fault-free retry (seed 004)</h3>\n");
        if (f.phases().isEmpty()) {
            h.append("<p>No faulty invocation: no request was in flight on a failed replica.</p>\n");
            return;
        }
        h.append("<table><tr><th>phase</th><th>n</th><th>mean ms</th><th>median ms</th><th>min ms</th>"
                + "<th>max ms</th></tr>\n");
        for (FailoverAnalysis.PhaseStats p : f.phases()) {
            h.append("<tr>").append(td(p.phase())).append(td("" + p.count())).append(td(ms(p.meanUs())))
                    .append(td(ms(p.medianUs()))).append(td(ms(p.minUs()))).append(td(ms(p.maxUs())))
                    .append("</tr>\n");
        }
        h.append("</table>\n").append(plot("phases", "fail-over phase breakdown"));
        byStrategy(h, f);
    }

    /**
     * A run that varies the strategy: each strategy's faulty-invocation medians beside its fault-free mean and p99,
     * side by side (nothing otherwise).
     */
    private static void byStrategy(StringBuilder h, FailoverAnalysis.Result f) {
        Set<String> strategies = new TreeSet<>(f.phasesByStrategy().keySet());
        strategies.addAll(f.faultFreeByStrategy().keySet());
        if (strategies.isEmpty()) {
            return;
        }
        h.append("<h3>By strategy (side by side in this run)</h3>\n<table><tr><th>strategy</th>"
                + "<th>faulty invocations</th><th>detection ms</th><th>fail-over ms</th><th>retry ms</th>"
                + "<th>faulty invocation ms</th><th>fault-free mean ms</th><th>fault-free p99 ms</th></tr>\n");
        for (String s : strategies) {
            Map<String, FailoverAnalysis.PhaseStats> p = new HashMap<>();
            for (FailoverAnalysis.PhaseStats x : f.phasesByStrategy().getOrDefault(s, List.of())) {
                p.put(x.phase(), x);
            }
            LatencyStats ff = f.faultFreeByStrategy().get(s);
            h.append("<tr>").append(td(s))
                    .append(td(p.containsKey("total") ? "" + p.get("total").count() : "0"));
            for (String phase : List.of("detection", "failover", "retry", "total")) {
                h.append(td(p.containsKey(phase) ? ms(p.get(phase).medianUs()) : "-"));
            }
            h.append(td(ff == null ? "-" : ms(ff.mean()))).append(td(ff == null ? "-" : ms(ff.p99())))
                    .append("</tr>\n");
        }
        h.append("</table>\n<p>Medians of each strategy's faulty invocations; fault-free: the requests no fault "
                + "touched.</p>\n");
    }

    /** Faulty, overlapping and fault-free requests side by side, and the jitter in the presence of faults. */
    private static void faultyVsFaultFree(StringBuilder h, FailoverAnalysis.Result f) {
        h.append("<h3>Faulty vs fault-free requests</h3>\n<table><tr><th>requests</th><th>n</th><th>mean ms</th>"
                + "<th>median ms</th><th>p99 ms</th><th>max ms</th></tr>\n");
        statsRow(h, "fault-free (no fault overlapped)", f.faultFree());
        statsRow(h, "overlapped a fault, not retried", f.overlapping());
        statsRow(h, "faulty (retried after fail-over)", f.faulty());
        h.append("</table>\n");
        if (f.jitterMinUs() != null) {
            h.append(String.format(Locale.ROOT, "<p>Jitter in the presence of faults (standard deviation of the "
                    + "latencies that overlapped each fault): min %s ms, max %s ms.</p>\n", ms(f.jitterMinUs()),
                    ms(f.jitterMaxUs())));
        }
    }

    /** Finding VII: recovery time against the largest fault-free latencies; nothing when one side is missing. */
    private static void recoveryVsOutliers(StringBuilder h, FailoverAnalysis.RecoveryVsOutliers rv) {
        if (rv == null || rv.medianRecoveryUs() == null || rv.maxFaultFreeUs() == null) {
            return;
        }
        h.append(String.format(Locale.ROOT, "<p><b>Finding VII</b> (seed 000): the median recovery time "
                + "(faulty-invocation latency) is %s ms and the largest %s ms; the largest fault-free latency "
                + "is %s ms, and %d fault-free requests took longer than the median recovery. Largest "
                + "fault-free latencies: %s ms.</p>\n", ms(rv.medianRecoveryUs()), ms(rv.maxRecoveryUs()),
                ms(rv.maxFaultFreeUs()), rv.faultFreeAboveMedianRecovery(),
                String.join(", ", rv.largestFaultFreeUs().stream().map(HtmlReport::ms).toList())));
    }

    /** The box report.js draws the timeline around each fault in (at most {@value #MAX_TIMELINES}). */
    private static void timelines(StringBuilder h, FailoverAnalysis.Result f) {
        h.append("<h3>Around each fault: latency and completions per 1-s slice</h3>\n");
        if (f.timelines().size() > MAX_TIMELINES) {
            h.append(String.format(Locale.ROOT, "<p>The first %d of %d faults; all are in summary.json.</p>\n",
                    MAX_TIMELINES, f.timelines().size()));
        }
        h.append("<div id=\"timelines\" class=\"grid2\"></div>\n");
    }

    /** Performability: what it is measured against, the demerit weights, the table and the exceedance plot. */
    private static void performability(StringBuilder h, FailoverAnalysis.Result f) {
        h.append("<h2 id=\"performability\">Performability (seed 001, chapter 5)</h2>\n<p>Against the fault-free "
                + "baseline of this same run. Goodput = completions per second ÷ completions per second in the "
                + "1-s slices no fault touched; punctuality = fault-free mean ÷ mean of all completed requests "
                + "(1 is ideal); P(&gt; t) counts a failed request as slower than every threshold. ");
        FailoverAnalysis.Demerits w = f.weights();
        h.append(String.format(Locale.ROOT, "Demerits: %s per failed request, %s per request over 2 s, %s per "
                + "request over 1 s, %s per second of waiting above the configuration's fault-free mean.</p>\n",
                num(w.failed()), num(w.over2s()), num(w.over1s()), num(w.excessSecond())).replace("</p>\n", " "));
        h.append("Closed loop: the <i>corrected</i> columns are the same figures over the latencies corrected for "
                + "coordinated omission (the users who kept arriving during a fault).</p>\n");
        h.append("<table><tr><th>config</th><th>requests</th><th>failed</th><th>faulty</th><th>goodput</th>"
                + "<th>punctuality</th><th>P(&gt;0.1 s)</th><th>P(&gt;1 s)</th><th>P(&gt;2 s)</th><th>demerits</th>"
                + "<th>punctuality corrected</th><th>P(&gt;0.1 s) corrected</th><th>P(&gt;1 s) corrected</th>"
                + "<th>P(&gt;2 s) corrected</th></tr>\n");
        perfRow(h, f.run(), true);
        for (FailoverAnalysis.Performability p : f.configs()) {
            if (p.faultyInvocations() > 0 || p.goodput() != null || p.failed() > 0) {
                perfRow(h, p, false);
            }
        }
        h.append("</table>\n<p class=\"note\">Configurations no fault touched are left out of this table (their "
                + "rows are in summary.json).</p>\n").append(plot("exceedance", "probability of exceeding "
                        + "0.1 s, 1 s, 2 s"));
    }

    /** Who answered and what the strategy's redundancy cost: extra requests, hedged answers, false suspicions. */
    private static void redundancy(StringBuilder h, FailoverAnalysis.Result f) {
        FailoverAnalysis.Redundancy rd = f.redundancy();
        h.append(String.format(Locale.ROOT, "<p>Strategy <b>%s</b>: %d requests; <b>%d extra requests (%.2f%%)</b> "
                + "(hedges, copies to other replicas, retries); %d answered by a hedge or a replica other than the "
                + "first choice; <b>%d false suspicions</b> (a fail-over with no fault on: the client gave up on a "
                + "replica that was running). Answered by: %s.</p>\n", esc(f.strategy()), rd.requests(),
                rd.extraRequests(), 100 * rd.extraRate(), rd.hedgedAnswers(), rd.falseSuspicions(),
                rd.answeredBy().isEmpty() ? "-" : esc(String.join(", ", rd.answeredBy().entrySet().stream()
                        .map(e -> e.getKey() + " " + e.getValue()).toList()))));
    }

    private static String handover(FailoverAnalysis.Handover x) {
        if (x == null) {
            return "-";
        }
        return String.format(Locale.ROOT, "%s %s (%d) ÷ %s %s (%d) = %.2f; back within 1.2× after %s",
                x.newReplica(), ms(x.newMedianUs()), x.newCount(), x.oldReplica(), ms(x.oldMedianUs()), x.oldCount(),
                x.ratio(), x.backToSpeed());
    }

    private static void compare(StringBuilder h, RunComparison c) {
        h.append("<h2 id=\"compare\">Comparison with ").append(esc(c.otherRun())).append("</h2>\n<p>Ratios are "
                + "this run ÷ the other (").append(esc(c.otherStrategy())).append(" strategy); below 1 means "
                        + "this run was faster.");
        if (c.medianMeanRatio() != null) {
            h.append(String.format(Locale.ROOT, " Median over configurations: mean ratio %.3f, p99 ratio %.3f.",
                    c.medianMeanRatio(), c.medianP99Ratio()));
        }
        h.append("</p>\n");
        if (!c.phases().isEmpty()) {
            h.append("<table><tr><th>fail-over phase</th><th>median ms (this)</th><th>median ms (other)</th>"
                    + "<th>ratio</th></tr>\n");
            for (RunComparison.PhasePair p : c.phases()) {
                h.append("<tr>").append(td(p.phase())).append(td(msOrDash(p.medianUs())))
                        .append(td(msOrDash(p.otherMedianUs())))
                        .append(td(p.medianUs() == null || p.otherMedianUs() == null || p.otherMedianUs() == 0 ? "-"
                                : String.format(Locale.ROOT, "%.3f", (double) p.medianUs() / p.otherMedianUs())))
                        .append("</tr>\n");
            }
            h.append("</table>\n");
        }
        h.append(plot("compare-ratios", "mean and p99 ratio per configuration"));
        if (!c.phases().isEmpty()) {
            h.append(plot("compare-phases", "fail-over phase medians, both runs"));
        }
        h.append("<table><tr><th>config</th><th>method</th><th>mean ms</th><th>other</th><th>ratio</th>"
                + "<th>p99 ms</th><th>other</th><th>ratio</th><th>max ms</th><th>other</th><th>ratio</th></tr>\n");
        for (RunComparison.Row r : c.rows()) {
            if (!r.method().equals("all")) {
                continue;
            }
            h.append("<tr>").append(td(r.config())).append(td(r.method())).append(td(ms(r.meanUs())))
                    .append(td(ms(r.otherMeanUs()))).append(td(ratio(r.meanRatio()))).append(td(ms(r.p99Us())))
                    .append(td(ms(r.otherP99Us()))).append(td(ratio(r.p99Ratio()))).append(td(ms(r.maxUs())))
                    .append(td(ms(r.otherMaxUs()))).append(td(ratio(r.maxRatio()))).append("</tr>\n");
        }
        h.append("</table>\n");
    }

    private static void statsRow(StringBuilder h, String label, LatencyStats s) {
        h.append("<tr>").append(td(label)).append(td("" + (s == null ? 0 : s.count())));
        if (s == null) {
            h.append("<td colspan=\"4\">none</td>");
        } else {
            h.append(td(ms(s.mean()))).append(td(ms(s.median()))).append(td(ms(s.p99()))).append(td(ms(s.max())));
        }
        h.append("</tr>\n");
    }

    private static void perfRow(StringBuilder h, FailoverAnalysis.Performability p, boolean bold) {
        h.append(bold ? "<tr class=\"total\">" : "<tr>").append(td(bold ? "whole run" : p.config()))
                .append(td("" + p.requests())).append(td("" + p.failed())).append(td("" + p.faultyInvocations()))
                .append(td(p.goodput() == null ? "-" : String.format(Locale.ROOT, "%.3f", p.goodput())))
                .append(td(p.punctuality() == null ? "-" : String.format(Locale.ROOT, "%.3f", p.punctuality())))
                .append(td(pct(p.pOver100ms()))).append(td(pct(p.pOver1s()))).append(td(pct(p.pOver2s())))
                .append(td(String.format(Locale.ROOT, "%.1f", p.demerits())));
        FailoverAnalysis.CorrectedPerformability c = p.corrected();
        if (c == null) {
            h.append("<td colspan=\"4\">-</td>");
        } else {
            h.append(td(c.punctuality() == null ? "-" : String.format(Locale.ROOT, "%.3f", c.punctuality())))
                    .append(td(pct(c.pOver100ms()))).append(td(pct(c.pOver1s()))).append(td(pct(c.pOver2s())));
        }
        h.append("</tr>\n");
    }

    static String plot(String id, String label) {
        return "<figure><canvas id=\"" + id + "\" class=\"plot\" role=\"img\" aria-label=\"" + esc(label)
                + "\"></canvas></figure>\n";
    }

    private static String verdict(Boolean b) {
        return b == null ? "<td>n too small</td>" : b ? "<td class=\"good\">yes</td>" : "<td class=\"bad\">no</td>";
    }

    private static String td(String s) {
        return "<td>" + esc(s) + "</td>";
    }

    static String ms(double us) {
        return String.format(Locale.ROOT, us >= 100_000 ? "%.0f" : us >= 1000 ? "%.2f" : "%.3f", us / 1e3);
    }

    private static String ms(long us) {
        return ms((double) us);
    }

    private static String msOrDash(Long us) {
        return us == null ? "-" : ms(us);
    }

    private static String pct(double f) {
        return String.format(Locale.ROOT, "%.3f%%", 100 * f);
    }

    private static String ratio(double r) {
        return String.format(Locale.ROOT, "%.3f", r);
    }

    private static String num(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
    }

    private static double[] round(double[] v) {
        double[] out = new double[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = Math.round(v[i] * 1000) / 1000.0;
        }
        return out;
    }

    /** Chart.js, to inline in a page. */
    static String chartJs() {
        return resource("/META-INF/resources/webjars/chart.js/" + version("chartjs") + "/dist/chart.umd.min.js")
                .replace("</script", "<\\/script");
    }

    /** A resource of the build as text. */
    static String resource(String name) {
        try (InputStream in = HtmlReport.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("the build left out " + name + ": rebuild with mvn install");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String version(String key) {
        Properties p = new Properties();
        try (InputStream in = HtmlReport.class.getResourceAsStream("/ftlab-versions.properties")) {
            p.load(in);
        } catch (IOException | NullPointerException e) {
            throw new IllegalStateException("the build left out ftlab-versions.properties: rebuild with mvn install");
        }
        return p.getProperty(key, "unknown");
    }
}
