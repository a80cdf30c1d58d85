package org.ftlab.harness.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.ftlab.harness.probe.ProbeTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Warm-up rows, open-loop latency, steady state, replicates and coordinated omission, read from probe files. */
class RunDesignAnalysisTest {

    /** A completed probe row in the current format. */
    private static String row(String client, int seq, String method, long intended, long send, long recv,
            String phase, int replicate) {
        return client + "," + seq + "," + method + ",," + send + "," + recv + "," + (send + 1) + "," + (send + 2) + ","
                + (recv - 2) + "," + (recv - 1) + "," + send + ",r1,ok,,,,," + intended + "," + phase + ","
                + replicate + ",1";
    }

    private static void write(Path dir, String block, List<String> rows) throws Exception {
        Files.createDirectories(dir.resolve("probes"));
        Files.writeString(dir.resolve("probes/" + block + ".csv"), ProbeTable.HEADER_V3 + "\n"
                + String.join("\n", rows) + "\n");
    }

    @Test
    void warmupRowsStayInTheFileButNoStatisticCountsThem(@TempDir Path run) throws Exception {
        write(run, "c01-t00-rorig", List.of(
                row("a", 1, "postAuction", 0, 0, 90_000, "warmup", 1), // a slow cold start
                row("a", 2, "postAuction", 100_000, 100_000, 101_000, "measure", 1),
                row("a", 3, "postAuction", 200_000, 200_000, 203_000, "measure", 1)));
        RunAnalysis.Result r = RunAnalysis.analyze(run);
        RunAnalysis.Entry all = r.entries().get(r.entries().size() - 1);
        assertEquals(2, all.stats().count());
        assertEquals(2_000, all.stats().mean(), 1e-9);
        assertEquals(3_000, all.stats().max());
        assertEquals(1, all.block().warmupRows());
    }

    @Test
    void openLoopLatencyCountsFromTheIntendedSendAndTheServiceTimeStandsBesideIt(@TempDir Path run)
            throws Exception {
        // Request 2 was due at 10 ms but every worker was busy until 60 ms: it waited 50 ms before it was sent.
        write(run, "c01-rate100-rorig", List.of(
                row("a", 1, "postAuction", 0, 0, 1_000, "measure", 1),
                row("a", 2, "postAuction", 10_000, 60_000, 61_000, "measure", 1)));
        RunAnalysis.Result r = RunAnalysis.analyze(run);
        RunAnalysis.Entry all = r.entries().get(r.entries().size() - 1);
        assertEquals(51_000, all.stats().max());
        assertEquals(1_000, all.openLoop().service().max());
        assertEquals(1, all.openLoop().lateStarts());
        assertEquals(50_000, all.openLoop().maxStartDelayUs());
        assertNull(all.corrected(), "open loop is never corrected for coordinated omission");
        assertEquals(100.0, all.block().ratePerS());
        assertTrue(r.warnings().stream().anyMatch(w -> w.contains("started more than 1 ms after")), r.warnings()
                .toString());
    }

    @Test
    void aFirstDecileSlowerThanOneAndAHalfTimesTheLastIsFlaggedNotSteady(@TempDir Path run) throws Exception {
        List<String> rows = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            long latency = i < 4 ? 5_000 : 2_000; // first decile (4 of 40) at 5 ms, the rest at 2 ms
            long t = i * 10_000L;
            rows.add(row("a", i, "viewAuction", t, t, t + latency, "measure", 1));
        }
        write(run, "c01-t00-rorig", rows);
        RunAnalysis.Result r = RunAnalysis.analyze(run);
        RunAnalysis.Entry all = r.entries().get(r.entries().size() - 1);
        assertEquals(5_000, all.steady().firstDecileMeanUs(), 1e-9);
        assertEquals(2_000, all.steady().lastDecileMeanUs(), 1e-9);
        assertFalse(all.steady().steady());
        assertEquals(List.of(all), r.unsteady());
        assertTrue(r.warnings().stream().anyMatch(w -> w.contains("not at steady state")), r.warnings().toString());
    }

    @Test
    void replicatesAreSeparateBlocksAndGiveTheFactorialAnovaInSummaryJson(@TempDir Path run) throws Exception {
        long t = 0;
        for (int clients : new int[] {1, 2}) {
            for (int rep = 1; rep <= 2; rep++) {
                List<String> rows = new ArrayList<>();
                for (int c = 0; c < clients; c++) {
                    for (int i = 0; i < 4; i++) {
                        long latency = 1_000L * clients + 100L * rep + 10L * i;
                        rows.add(row("k" + c, i, i < 2 ? "postAuction" : "viewAuction", t, t, t + latency,
                                "measure", rep));
                        t += 10_000;
                    }
                }
                write(run, String.format("c%02d-t00-rorig-rep%d", clients, rep), rows);
            }
        }
        RunAnalysis.Result r = RunAnalysis.analyze(run);
        assertEquals(List.of("c01-t00-rorig-rep1", "c01-t00-rorig-rep2", "c02-t00-rorig-rep1",
                "c02-t00-rorig-rep2"), r.entries().stream().filter(e -> e.method().equals("all"))
                        .map(RunAnalysis.Entry::label).toList());
        assertEquals(2, r.entries().get(r.entries().size() - 1).replicate());
        assertFalse(r.anovaFactorial().isEmpty());
        RunAnalysis.FactorialEffect clients = r.anovaFactorial().stream()
                .filter(x -> x.effect().equals("clients") && x.metric().equals("mean")).findFirst().orElseThrow();
        assertEquals(1, clients.df());
        assertTrue(clients.p() < 0.01, "1,000 µs per client dominates: " + clients);
        RunAnalysis.write(run, r);
        JsonNode json = new ObjectMapper().readTree(run.resolve("report/summary.json").toFile());
        JsonNode first = json.path("anova_factorial").get(0);
        for (String field : List.of("effect", "metric", "df", "f", "p", "partial_eta_sq")) {
            assertTrue(first.has(field), field + " in " + first);
        }
        assertTrue(json.path("anova_factorial").findValuesAsText("effect").contains("clients:method"));
        assertEquals(2, json.path("configs").get(json.path("configs").size() - 1).path("replicate").asInt());
        assertTrue(Files.exists(run.resolve("report/histograms/c02-t00-rorig-rep2.hlog")));
    }

    @Test
    void closedLoopEntriesCarryTheCorrectedPercentilesAndTheHlogHasBothTags(@TempDir Path run) throws Exception {
        List<String> rows = new ArrayList<>();
        long t = 0;
        for (int i = 0; i < 100; i++) {
            long latency = i == 50 ? 100_000 : 1_000;
            rows.add(row("a", i, "viewAuction", t, t, t + latency, "measure", 1));
            t += latency;
        }
        write(run, "c01-t00-rorig", rows);
        RunAnalysis.Result r = RunAnalysis.analyze(run);
        RunAnalysis.Entry all = r.entries().get(r.entries().size() - 1);
        assertEquals(1_000, all.stats().p99());
        assertEquals(1_000, all.corrected().expectedIntervalUs());
        assertEquals(99_000, all.corrected().p99Us(), 99);
        RunAnalysis.write(run, r);
        String hlog = Files.readString(run.resolve("report/histograms/c01-t00-rorig.hlog"));
        assertTrue(hlog.contains("Tag=recorded,"), hlog);
        assertTrue(hlog.contains("Tag=corrected,"), hlog);
        org.HdrHistogram.HistogramLogReader reader = new org.HdrHistogram.HistogramLogReader(
                run.resolve("report/histograms/c01-t00-rorig.hlog").toFile());
        org.HdrHistogram.Histogram recorded = (org.HdrHistogram.Histogram) reader.nextIntervalHistogram();
        org.HdrHistogram.Histogram corrected = (org.HdrHistogram.Histogram) reader.nextIntervalHistogram();
        assertEquals(100, recorded.getTotalCount());
        assertEquals(199, corrected.getTotalCount());
    }

    @Test
    void correctedPerformabilityCountsABlockWhoseRequestsAllFailedOnceAndOnlyAsExceeding(@TempDir Path run)
            throws Exception {
        List<String> ok = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            long t = i * 10_000L;
            ok.add(row("a", i, "viewAuction", t, t, t + 1_000, "measure", 1));
        }
        write(run, "c01-t00-rorig", ok);
        String failed = ",,,,,,r1,failed:AllReplicasDownException,,,,,";
        write(run, "c01-t00-r256", List.of("b,1,viewAuction,256,0,5000" + failed + "0,measure,1,",
                "b,2,viewAuction,256,6000,9000" + failed + "6000,measure,1,"));
        FailoverAnalysis.Performability all = RunAnalysis.analyze(run).failover().run();
        // 10 completed requests of 1 ms, no stall: the corrected mean is the fault-free mean
        assertEquals(1.0, all.corrected().punctuality(), 1e-9);
        // the 2 failures exceed every threshold, among 12 requests, corrected or not
        assertEquals(2.0 / 12, all.corrected().pOver100ms(), 1e-9);
        assertEquals(2.0 / 12, all.pOver100ms(), 1e-9);
    }
}
