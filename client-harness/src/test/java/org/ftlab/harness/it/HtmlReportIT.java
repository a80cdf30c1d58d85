package org.ftlab.harness.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ftlab.harness.analysis.RunAnalysis;
import org.ftlab.harness.analysis.RunComparison;
import org.ftlab.harness.bench.SyntheticRun;
import org.ftlab.harness.cli.FtlabCommand;
import org.ftlab.harness.probe.ProbeTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTML report opens in a real headless Chromium (Debian's {@code chromium}; another binary via
 * {@code FTLAB_CHROMIUM}) with no script or console error and every plot drawn: the page itself counts the canvases
 * with pixels on them and lists errors, and the test reads both from the DOM Chromium dumps.
 */
class HtmlReportIT {

    @Test
    void reportOfAFaultRunWithAComparisonRendersEveryPlotWithoutErrors(@TempDir Path dir) throws Exception {
        Path run = dir.resolve("run");
        Path other = dir.resolve("other");
        SyntheticRun.write(run, 60, 1);
        SyntheticRun.write(other, 60, 2);
        RunAnalysis.Result result = RunAnalysis.analyze(run);
        RunAnalysis.write(run, result.withComparison(RunComparison.of(result, other, RunAnalysis.analyze(other))));

        Browser page = open(run.resolve("report/index.html"), dir);
        int expected = attribute(page.dom, "data-plots-expected");
        int rendered = attribute(page.dom, "data-plots-rendered");
        // 8 latency plots + 4 per reply size, the percentile spectrum, the phases, the whole-run timeline with every
        // fault shaded, 12 fault timelines, exceedance, 2 comparison plots.
        assertEquals(30, expected, "plots on the page");
        assertTrue(page.dom.contains("id=\"run-timeline\""), "the run's timeline, faults shaded");
        assertEquals(expected, rendered, "every plot has pixels on its canvas\n" + errors(page.dom));
        assertTrue(page.dom.contains("id=\"report-errors\" class=\"errors\" hidden"), errors(page.dom));
        assertFalse(page.log.contains("Uncaught"), page.log);
        for (String heading : List.of("The magical 1%", "Coordinated omission", "Fail-over", "Performability",
                "Comparison with")) {
            assertTrue(page.dom.contains(heading), heading);
        }
    }

    @Test
    void threeRunsSideBySideGiveOneTableRowAndOneBarPerRunForEveryHeadlineFigure(@TempDir Path dir)
            throws Exception {
        for (int i = 1; i <= 3; i++) {
            SyntheticRun.write(dir.resolve("student" + i), 30, 10 + i);
        }
        StringWriter out = new StringWriter();
        int rc = FtlabCommand.execute(new String[] {"analyze", dir.resolve("student1").toString(),
            "--compare", dir.resolve("student2").toString(), dir.resolve("student3").toString()},
                new PrintWriter(out, true), new PrintWriter(new StringWriter(), true));
        assertEquals(0, rc, out.toString());
        List<String> csv = Files.readAllLines(dir.resolve("student1/report/compare.csv"));
        assertEquals(4, csv.size(), "a header and a row per run");
        for (int i = 1; i <= 3; i++) {
            assertTrue(csv.get(i).startsWith("\"student" + i + "\""), csv.get(i));
            assertTrue(out.toString().contains("student" + i + " "), "the console table names every run");
        }
        // one plot per headline figure that some run has (a figure no run has, e.g. goodput without restored
        // faults, has none)
        List<String> header = List.of(csv.get(0).split(","));
        long figures = List.of("mean_ms", "p99_ms", "detection_ms", "cleared_suspicions", "unprovoked_failures",
                "failover_ms", "goodput", "punctuality", "demerits", "request_rate_per_s",
                "database_statements_per_request", "tier_recovery_ms").stream()
                .filter(f -> csv.subList(1, 4).stream().anyMatch(row -> !row.replaceAll("\"[^\"]*\"", "q")
                        .split(",", -1)[header.indexOf(f)].isEmpty())).count();
        assertTrue(figures >= 5, "the synthetic runs have latency, fail-over and performability figures");
        Browser page = open(dir.resolve("student1/report/compare.html"), dir);
        assertEquals(figures, attribute(page.dom, "data-plots-expected"));
        assertEquals(figures, attribute(page.dom, "data-plots-rendered"), page.dom);
        assertFalse(page.log.contains("Uncaught"), page.log);
    }

    @Test
    void reportOfAFaultFreeRunSaysSoAndStillRendersEveryPlot(@TempDir Path dir) throws Exception {
        Path run = dir.resolve("run");
        SyntheticRun.write(run, 30, 3);
        Files.writeString(run.resolve("faults.csv"), "fault_id,kind,replica,injected_epoch_us,detected_epoch_us,"
                + "promoted_epoch_us,restored_epoch_us\n");
        RunAnalysis.write(run, RunAnalysis.analyze(run));
        Browser page = open(run.resolve("report/index.html"), dir);
        int expected = attribute(page.dom, "data-plots-expected");
        assertTrue(expected >= 13, "plots on the page: " + expected);
        assertEquals(expected, attribute(page.dom, "data-plots-rendered"), errors(page.dom));
    }

    @Test
    void reportOfAReplicatedOpenLoopRunShowsTheFactorialAnovaAndDrawsEveryPlot(@TempDir Path dir) throws Exception {
        Path run = dir.resolve("run");
        Files.createDirectories(run.resolve("probes"));
        Random random = new Random(5);
        long t = 1_700_000_000_000_000L;
        for (String config : List.of("c01-rate50-rorig", "c02-rate50-rorig", "c01-rate100-rorig",
                "c02-rate100-rorig")) {
            for (int rep = 1; rep <= 2; rep++) {
                StringBuilder csv = new StringBuilder(ProbeTable.HEADER_V3).append('\n');
                int clients = config.startsWith("c02") ? 2 : 1;
                for (int c = 0; c < clients; c++) {
                    for (int i = 0; i < 80; i++) {
                        long intended = t + i * 20_000L;
                        long send = intended + (i % 40 == 0 ? 3_000 : 0); // an occasional late start
                        long recv = send + 500 + random.nextInt(2_000) + (i < 40 ? 1_500 : 0);
                        csv.append("k").append(c).append(',').append(i).append(',')
                                .append(i < 40 ? "postAuction" : "viewAuction").append(",,").append(send).append(',')
                                .append(recv).append(',').append(send + 100).append(',').append(send + 150)
                                .append(',').append(recv - 150).append(',').append(recv - 100).append(',').append(send)
                                .append(",r1,ok,,,,,").append(intended).append(i < 5 ? ",warmup," : ",measure,")
                                .append(rep).append(",1\n");
                    }
                }
                t += 10_000_000L;
                Files.writeString(run.resolve("probes/" + config + "-rep" + rep + ".csv"), csv);
            }
        }
        RunAnalysis.write(run, RunAnalysis.analyze(run));
        Browser page = open(run.resolve("report/index.html"), dir);
        int expected = attribute(page.dom, "data-plots-expected");
        // p99 vs mean, the percentile spectrum, 7 latency plots with one reply size, no fault plots
        assertEquals(10, expected, "plots on the page");
        assertEquals(expected, attribute(page.dom, "data-plots-rendered"), errors(page.dom));
        assertTrue(page.dom.contains("Factorial ANOVA"), "the factorial table of a replicated run");
        assertTrue(page.dom.contains("rate_per_s"), "open loop: the load factor is the rate");
        assertTrue(page.dom.contains("service p99 ms"), "open loop: the service time beside the latency");
    }

    @Test
    void reportOfAOneConfigurationFaultRunOpensWithTheFailOverAndLeavesOutWhatNeedsSeveralConfigurations(
            @TempDir Path dir) throws Exception {
        Path run = dir.resolve("run");
        Files.createDirectories(run.resolve("probes"));
        Random random = new Random(11);
        long t0 = 1_700_000_000_000_000L;
        long faultAt = t0 + 3_000_000;
        StringBuilder csv = new StringBuilder(ProbeTable.HEADER_V3).append('\n');
        for (int c = 0; c < 4; c++) {
            long t = t0;
            for (int i = 0; i < 600; i++) {
                boolean faulty = i == 300;
                if (faulty) {
                    t = faultAt - 500;
                }
                boolean hedged = !faulty && i % 50 == 7; // 2% of requests answered by the hedge
                long latency = 2_000 + random.nextInt(3_000) + (faulty ? 40_000 : 0) + (hedged ? 8_000 : 0);
                long recv = t + latency;
                String replica = t < faultAt ? "r1" : "r2";
                String servedBy = hedged ? (replica.equals("r1") ? "r2" : "r3") : faulty ? "r2" : replica;
                csv.append("k").append(c).append(',').append(i + 1).append(',').append(i % 2 == 0 ? "postAuction"
                        : "viewAuction").append(",,").append(t).append(',').append(recv).append(',')
                        .append(t + 300).append(',').append(t + 400).append(',').append(recv - 400).append(',')
                        .append(recv - 300).append(',').append(t).append(',').append(servedBy).append(',')
                        .append(faulty ? "retried,f1,20000,100," + (latency - 20_100) : hedged ? "hedged,,,,"
                                : "ok,,,,").append(',').append(t).append(",measure,1,")
                        .append(faulty || hedged ? 2 : 1).append('\n');
                t = recv;
            }
        }
        Files.writeString(run.resolve("probes/c04-t00-rorig.csv"), csv);
        Files.writeString(run.resolve("faults.csv"), "fault_id,kind,replica,injected_epoch_us,detected_epoch_us,"
                + "promoted_epoch_us,restored_epoch_us,spares_ready\nf1,crash,r1," + faultAt + ","
                + (faultAt + 20_000) + "," + (faultAt + 21_000) + "," + (faultAt + 21_000) + ",0\n");
        Files.writeString(run.resolve("manifest.json"), "{\"status\":\"complete\",\"profile\":\"custom\","
                + "\"grid\":{\"configurations\":1},\"failover_strategy\":\"hedged\","
                + "\"faults\":{\"kind\":\"crash\"}}\n");
        RunAnalysis.write(run, RunAnalysis.analyze(run));

        Browser page = open(run.resolve("report/index.html"), dir);
        int expected = attribute(page.dom, "data-plots-expected");
        assertEquals(expected, attribute(page.dom, "data-plots-rendered"), errors(page.dom));
        assertTrue(page.dom.contains("id=\"report-errors\" class=\"errors\" hidden"), errors(page.dom));
        assertTrue(page.dom.indexOf("id=\"failover\"") < page.dom.indexOf("id=\"headline\""),
                "a fault run opens with the fail-over section");
        assertTrue(page.dom.contains("Strategy <b>hedged</b>"), "the strategy's redundancy paragraph");
        assertTrue(page.dom.contains("extra requests (2."), "the hedge rate");
        assertTrue(Pattern.compile("r2 [0-9.]+ \\(\\d+\\) ÷ r1 [0-9.]+ \\(\\d+\\) = [0-9.]+").matcher(page.dom).find(),
                "the hand-over of the fault: the new primary's first requests against the old one's last");
        assertTrue(page.dom.contains("no: the degree waited for a boot"), "the fault met no booted spare");
        assertTrue(page.dom.contains("ANOVA left out"), "the ANOVA needs two configurations: one line says so");
        assertTrue(page.dom.contains("this run has one configuration"), "cross-configuration plots: one line");
        for (String absent : List.of("id=\"haircut\"", "id=\"by-reply\"", "id=\"p99-vs-mean\"",
                "id=\"latency-throughput\"")) {
            assertFalse(page.dom.contains(absent), absent + " needs several configurations");
        }
    }

    record Browser(String dom, String log) {
    }

    static Browser open(Path html, Path work) throws Exception {
        String chromium = chromium();
        Path profile = Files.createDirectories(work.resolve("chromium-profile"));
        List<String> cmd = new ArrayList<>(List.of(chromium, "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-dev-shm-usage", "--disable-background-networking", "--disable-extensions",
                "--no-first-run", "--user-data-dir=" + profile, "--enable-logging=stderr", "--v=0",
                "--window-size=1280,1024", "--virtual-time-budget=20000", "--dump-dom", html.toUri().toString()));
        Path out = work.resolve("dom.html");
        Path err = work.resolve("chromium.log");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("chromium did not finish within 120 s");
        }
        String dom = Files.readString(out, StandardCharsets.UTF_8);
        String log = Files.readString(err, StandardCharsets.UTF_8);
        assertTrue(dom.contains("data-plots-expected"), "chromium exited " + p.exitValue() + " without a page:\n" + log);
        return new Browser(dom, log);
    }

    private static String chromium() {
        String env = System.getenv("FTLAB_CHROMIUM");
        if (env != null && !env.isBlank()) {
            return env;
        }
        for (String name : List.of("chromium", "chromium-browser", "google-chrome")) {
            for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
                if (Files.isExecutable(Path.of(dir, name))) {
                    return Path.of(dir, name).toString();
                }
            }
        }
        fail("no headless browser for the report test: install Debian's chromium (apt-get install chromium) or set "
                + "FTLAB_CHROMIUM");
        return null;
    }

    static int attribute(String dom, String name) {
        Matcher m = Pattern.compile(name + "=\"(\\d+)\"").matcher(dom);
        assertTrue(m.find(), name + " missing from the page");
        return Integer.parseInt(m.group(1));
    }

    private static String errors(String dom) {
        Matcher m = Pattern.compile("<pre id=\"report-errors\"[^>]*>([^<]*)</pre>").matcher(dom);
        return m.find() ? m.group(1) : "";
    }
}
