package org.ftlab.harness.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.ftlab.harness.attribution.Attribution;
import org.ftlab.harness.probe.ClientCalibration;
import org.ftlab.harness.probe.ProbeTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunAnalysisTest {

    /** A probe row with the given client send/receive times and outcome. */
    private static String row(String client, int seq, String method, long send, long recv, String outcome) {
        boolean ok = !outcome.startsWith("failed");
        return client + "," + seq + "," + method + ",," + send + "," + recv + ","
                + (ok ? (send + 1) + "," + (send + 2) + "," + (recv - 2) + "," + (recv - 1) : ",,,") + "," + send
                + "," + (ok ? "r1" : "") + "," + outcome + ",,,,";
    }

    private static void write(Path dir, String config, List<String> rows) throws Exception {
        Files.createDirectories(dir.resolve("probes"));
        Files.writeString(dir.resolve("probes/" + config + ".csv"),
                ProbeTable.HEADER_V1 + "\n" + String.join("\n", rows) + "\n");
    }

    @Test
    void theReportStatesWhatFtlabsClientAddedOnTheMachineThatRanItOrThatItWasNotCalibrated(@TempDir Path dir)
            throws Exception {
        Path calibrated = dir.resolve("calibrated");
        Path plain = dir.resolve("plain");
        for (Path run : List.of(calibrated, plain)) {
            write(run, "c01-t00-rorig", List.of(row("a", 1, "postAuction", 0, 1000, "ok"),
                    row("a", 2, "postAuction", 2000, 3000, "ok")));
        }
        new ClientCalibration("2026-11-27T22:00:00Z", "lab-host", 200, 3, List.of(new ClientCalibration.Door("ejb",
                "bare-ejb", false, -4, -860, 1200, 0.99, 0.82))).writeTo(calibrated);
        RunAnalysis.write(calibrated, RunAnalysis.analyze(calibrated));
        RunAnalysis.write(plain, RunAnalysis.analyze(plain));

        String page = Files.readString(calibrated.resolve("report/index.html"));
        assertTrue(page.contains("The instrument's own cost") && page.contains("lab-host")
                && page.contains("-0.004 ms at the median and -0.860 ms at p99"), "stated beside the latencies");
        assertEquals(-860, new ObjectMapper().readTree(calibrated.resolve("report/summary.json").toFile())
                .path("client_calibration").path("doors").get(0).path("p99_added_us").asDouble(), 1e-9);
        String other = Files.readString(plain.resolve("report/index.html"));
        assertTrue(other.contains("Not calibrated on the machine that ran it"), "and its absence");
        assertTrue(new ObjectMapper().readTree(plain.resolve("report/summary.json").toFile())
                .path("client_calibration").isMissingNode());
    }

    @Test
    void statisticsPerMethodAndOverallWithFailuresCountedApart(@TempDir Path run) throws Exception {
        write(run, "c01-t00-rorig", List.of(
                row("a", 1, "postAuction", 0, 1000, "ok"),
                row("a", 2, "postAuction", 2000, 5000, "ok"),
                row("a", 3, "viewAuction", 6000, 6500, "ok"),
                row("a", 4, "viewAuction", 7000, 7700, "retried"),
                row("a", 5, "viewAuction", 8000, 9000, "failed:AllReplicasDownException")));
        RunAnalysis.Result r = RunAnalysis.analyze(run);
        assertEquals(3, r.entries().size());
        RunAnalysis.Entry post = r.entries().get(0);
        assertEquals("postAuction", post.method());
        assertEquals(2000.0, post.stats().mean(), 1e-12); // (1000 + 3000) / 2
        RunAnalysis.Entry view = r.entries().get(1);
        assertEquals(1, view.failures());
        assertEquals(2, view.stats().count());
        assertEquals(600.0, view.stats().mean(), 1e-12); // (500 + 700) / 2
        RunAnalysis.Entry all = r.entries().get(2);
        assertEquals("all", all.method());
        assertEquals(4, all.stats().count());
        assertEquals(1, all.failures());
        assertEquals(3000, all.stats().max());
        assertTrue(r.warnings().stream().anyMatch(w -> w.contains("1 requests failed")), r.warnings().toString());
        assertTrue(r.warnings().stream().anyMatch(w -> w.contains("no manifest.json")), r.warnings().toString());

        RunAnalysis.write(run, r);
        JsonNode json = new ObjectMapper().readTree(run.resolve("report/summary.json").toFile());
        assertTrue(json.path("percentile_estimator").asText().startsWith("nearest-rank"));
        assertEquals(3, json.path("configs").size());
        JsonNode first = json.path("configs").get(0);
        assertEquals("c01-t00-rorig", first.path("config").asText());
        assertEquals("original", first.path("reply").asText());
        assertEquals(2000.0, first.path("mean_us").asDouble(), 1e-12);
        assertTrue(first.path("p99_ci_low_us").isNull());
        assertEquals(4, Files.readAllLines(run.resolve("report/summary.csv")).size());
    }

    @Test
    void anovaOfTwoGroupsHasTheHandComputedF() {
        // Means 1, 2, 3 at 1 client and 4, 5, 6 at 4 clients: SSB = 13.5 (df 1), SSW = 4 (df 4), F = 13.5.
        List<RunAnalysis.Entry> entries = List.of(
                entry(1, "m1", 1), entry(1, "m2", 2), entry(1, "m3", 3),
                entry(4, "m1", 4), entry(4, "m2", 5), entry(4, "m3", 6));
        RunAnalysis.Anova clientsMean = ConfigurationAnova.oneWay(entries, RunAnalysis.Design.UNKNOWN).stream()
                .filter(a -> a.factor().equals("clients") && a.metric().equals("mean")).findFirst().orElseThrow();
        assertEquals(13.5, clientsMean.f(), 1e-9);
        // P(F(1,4) > 13.5) = two-sided P(|t_4| > sqrt(13.5)) = 0.02131 (t tables)
        assertEquals(0.02131, clientsMean.p(), 5e-5);
    }

    @Test
    void p99OnMeanRegressionIsOverConfigurationsWithTheHandComputedLine() {
        // Three configurations with (mean, p99) = (1, 3), (2, 5), (3, 7) µs: p99 = 2·mean + 1 exactly, r = 1.
        List<RunAnalysis.Entry> entries = List.of(
                new RunAnalysis.Entry("c01-t00-rorig", 1, 0, "original", "all", 0, LatencyStats.of(new long[] {-1, 3})),
                new RunAnalysis.Entry("c04-t00-rorig", 4, 0, "original", "all", 0, LatencyStats.of(new long[] {-1, 5})),
                new RunAnalysis.Entry("c07-t00-rorig", 7, 0, "original", "all", 0, LatencyStats.of(new long[] {-1, 7})),
                entry(1, "postAuction", 1000)); // per-method entries are not configurations: left out
        RunAnalysis.Regression g = P99OnMean.regression(entries);
        assertEquals(3, g.n());
        assertEquals(2.0, g.slope(), 1e-12);
        assertEquals(1.0, g.interceptUs(), 1e-12);
        assertEquals(1.0, g.r(), 1e-12);
    }

    @Test
    void outliersSizeAgainstTheirNumberIsARankCorrelationOverTheBlocks() {
        // five blocks of 1,000 requests of 1 ms, with 1 outlier of 100 ms, 2 of 50 ms, … 16 of 6 ms: the more 3σ
        // outliers a block has, the smaller its max ÷ mean (seed 000's Finding II, exactly)
        List<RunAnalysis.Entry> entries = new ArrayList<>();
        int[][] blocks = {{1, 100_000}, {2, 50_000}, {4, 25_000}, {8, 12_000}, {16, 6_000}};
        for (int[] b : blocks) {
            long[] v = new long[1000 + b[0]];
            Arrays.fill(v, 1_000);
            Arrays.fill(v, 1000, v.length, b[1]);
            LatencyStats stats = LatencyStats.of(v);
            assertEquals(b[0], stats.outliers3Sigma(), "each outlier is beyond 3σ");
            entries.add(new RunAnalysis.Entry("c01-t00-r" + b[1], 1, 0, "original", "all", 0, stats));
        }
        entries.add(entry(1, "postAuction", 1000)); // per-method entries are not blocks: left out
        RunAnalysis.OutlierTradeoff t = OutlierCorrelations.tradeoff(entries);
        assertEquals(5, t.n());
        assertEquals(-1.0, t.spearmanRho(), 1e-12);
        assertEquals(0.0, t.p(), 1e-12);
        assertEquals(null, OutlierCorrelations.tradeoff(entries.subList(0, 3)), "too few blocks to rank");
    }

    @Test
    void eachProcessMetricIsRankedAgainstTheBlocksOutliers() {
        // five blocks whose max ÷ mean grows with r1's kernel time, and one metric that is the same everywhere
        List<RunAnalysis.Entry> entries = new ArrayList<>();
        List<Attribution.BlockCauses> blocks = new ArrayList<>();
        for (int k = 1; k <= 5; k++) {
            long[] v = new long[100];
            Arrays.fill(v, 1_000);
            v[99] = 1_000L * (k + 1);
            String name = "c01-t00-r" + (256 * k);
            entries.add(new RunAnalysis.Entry(name, 1, 0, "original", "all", 0, LatencyStats.of(v)));
            blocks.add(new Attribution.BlockCauses(name, 1, Map.of(),
                    Map.of("r1.kernel_cpu", 0.01 * k, "fd.gc_pauses", 0.0), 0, 1));
        }
        List<RunAnalysis.LoadCorrelation> c = OutlierCorrelations.withLoad(entries, blocks);
        assertEquals(1, c.size(), "a constant metric cannot be ranked: " + c);
        assertEquals("r1.kernel_cpu", c.get(0).metric());
        assertEquals(5, c.get(0).n());
        assertEquals(1.0, c.get(0).rhoMaxOverMean(), 1e-12);
    }

    private static RunAnalysis.Entry entry(int clients, String method, long latency) {
        return new RunAnalysis.Entry("c0" + clients + "-t00-rorig", clients, 0, "original", method, 0,
                LatencyStats.of(new long[] {latency}));
    }

    @Test
    void truncatedFileIsAClearErrorNotANumber(@TempDir Path run) throws Exception {
        write(run, "c01-t00-rorig", List.of(row("a", 1, "postAuction", 0, 1000, "ok"), "a,2,postAuction,,2000"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RunAnalysis.analyze(run));
        assertTrue(e.getMessage().contains("line 3 has 5 fields, expected 17: the file is truncated"),
                e.getMessage());
    }

    @Test
    void runWithoutProbesIsAClearError(@TempDir Path run) throws Exception {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> RunAnalysis.analyze(run)).getMessage()
                .contains("no probes/ directory"));
        Files.createDirectories(run.resolve("probes"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> RunAnalysis.analyze(run)).getMessage()
                .contains("finished no configuration"));
    }

    @Test
    void configurationWhoseRequestsAllFailedHasFailuresAndNoStatistics(@TempDir Path run) throws Exception {
        write(run, "c01-t00-r256", List.of(row("a", 1, "viewAuction", 0, 1000, "failed:X"),
                row("a", 2, "viewAuction", 2000, 3000, "failed:X")));
        RunAnalysis.Result r = RunAnalysis.analyze(run);
        RunAnalysis.Entry all = r.entries().get(r.entries().size() - 1);
        assertEquals(2, all.failures());
        assertNull(all.stats());
        RunAnalysis.write(run, r);
        assertEquals(0, new ObjectMapper().readTree(run.resolve("report/summary.json").toFile())
                .path("configs").get(0).path("count").asInt());
    }
}
