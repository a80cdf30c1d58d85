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
import java.util.List;
import java.util.Map;
import org.ftlab.harness.probe.ProbeTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FailoverAnalysisTest {
    /** faults.csv as runs before fault schedules wrote it: still read. */
    private static final String LEGACY_FAULTS_HEADER = "fault_id,kind,replica,injected_epoch_us,detected_epoch_us,"
            + "promoted_epoch_us,restored_epoch_us";
    private static final long T0 = 1_000_000_000_000L;

    private static String ok(int seq, long send, long latency) {
        return "a," + seq + ",postAuction,," + send + "," + (send + latency) + "," + (send + 10) + "," + (send + 20)
                + "," + (send + 30) + "," + (send + latency - 10) + "," + send + ",r1,ok,,,,";
    }

    private static String retried(int seq, long send, long detect, long failover, long retry) {
        long recv = send + detect + failover + retry;
        return "a," + seq + ",postAuction,," + send + "," + recv + "," + (recv - retry + 10) + "," + (recv - retry + 20)
                + "," + (recv - retry + 30) + "," + (recv - 10) + "," + send + ",r2,retried,f1," + detect + ","
                + failover + "," + retry;
    }

    /**
     * One configuration: 8 fault-free requests of 10 ms, one per second from T0, and two faulty invocations at
     * T0 + 8 s (phases 50 / 1 / 9 ms and 70 / 3 / 7 ms), one failed request; one crash injected at T0 + 8 s,
     * detected 60 ms later, promoted at 61 ms, restored at 1.5 s.
     */
    private static Path fixture(Path run) throws Exception {
        List<String> rows = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            rows.add(ok(i + 1, T0 + i * 1_000_000L, 10_000));
        }
        rows.add(retried(9, T0 + 8_000_000, 50_000, 1_000, 9_000));
        rows.add(retried(10, T0 + 8_000_100, 70_000, 3_000, 7_000));
        rows.add("a,11,postAuction,," + (T0 + 9_500_000) + "," + (T0 + 9_600_000) + ",,,,," + (T0 + 9_500_000)
                + ",,failed:AllReplicasDownException,,,,");
        Files.createDirectories(run.resolve("probes"));
        Files.writeString(run.resolve("probes/c01-t00-rorig.csv"), ProbeTable.HEADER_V1 + "\n" + String.join("\n", rows)
                + "\n");
        long f = T0 + 8_000_000;
        Files.writeString(run.resolve("faults.csv"), LEGACY_FAULTS_HEADER + "\nf1,crash,r1," + f + "," + (f + 60_000) + ","
                + (f + 61_000) + "," + (f + 1_500_000) + "\n");
        return run;
    }

    @Test
    void faultyInvocationsBreakIntoTheirThreePhasesWithHandComputedStatistics(@TempDir Path run) throws Exception {
        FailoverAnalysis.Result f = RunAnalysis.analyze(fixture(run)).failover();
        FailoverAnalysis.PhaseStats detection = f.phases().get(0);
        assertEquals("detection", detection.phase());
        assertEquals(2, detection.count());
        assertEquals(60_000.0, detection.meanUs(), 1e-9); // (50 + 70) / 2 ms
        assertEquals(50_000, detection.medianUs()); // nearest rank 1 of 2
        assertEquals(70_000, detection.maxUs());
        assertEquals(2_000.0, f.phases().get(1).meanUs(), 1e-9); // fail-over (1 + 3) / 2 ms
        assertEquals(8_000.0, f.phases().get(2).meanUs(), 1e-9); // retry (9 + 7) / 2 ms
        assertEquals(70_000.0, f.phases().get(3).meanUs(), 1e-9); // totals 60 and 80 ms
        assertEquals(60_000L, f.detection().get(0).medianUs()); // the Fault Detector's 60 ms from faults.csv
        assertEquals(8, f.faultFree().count());
        assertEquals(10_000.0, f.faultFree().mean(), 1e-9);
        assertEquals(2, f.faulty().count());
        assertNull(f.overlapping());
        // Jitter: the std of the two latencies that overlapped f1 (60 and 80 ms) = sqrt(200) ms.
        assertEquals(Math.sqrt(200) * 1000, f.jitterMinUs(), 1e-6);
        // Finding VII: median recovery 60 ms (rank 1 of 2) against a fault-free max of 10 ms.
        assertEquals(60_000L, f.recoveryVsOutliers().medianRecoveryUs());
        assertEquals(10_000L, f.recoveryVsOutliers().maxFaultFreeUs());
        assertEquals(0, f.recoveryVsOutliers().faultFreeAboveMedianRecovery());
    }

    @Test
    void performabilityIsMeasuredAgainstTheSameRunsFaultFreeBaseline(@TempDir Path run) throws Exception {
        FailoverAnalysis.Performability p = RunAnalysis.analyze(fixture(run)).failover().run();
        assertEquals(11, p.requests());
        assertEquals(1, p.failed());
        // Punctuality: fault-free mean 10 ms ÷ mean of all 10 completed ((8·10 + 60 + 80) / 10 = 22 ms).
        assertEquals(10.0 / 22.0, p.punctuality(), 1e-12);
        // P(> 0.1 s): only the failed request (1 of 11); nothing exceeded 1 s or 2 s except it.
        assertEquals(1.0 / 11, p.pOver100ms(), 1e-12);
        assertEquals(1.0 / 11, p.pOver2s(), 1e-12);
        // Demerits: 8 for the failure + (60 − 10 + 80 − 10) ms = 0.12 s above the ideal × 1.
        assertEquals(8.12, p.demerits(), 1e-9);
        // Goodput: span T0 .. T0 + 9.6 s has 9 whole slices; slices 0-7 are fault-free with 1 completion each;
        // slice 8 (touched by f1) has 2. Observed 10/9 per s over ideal 1 per s.
        assertEquals(10.0 / 9.0, p.goodput(), 1e-12);
    }

    @Test
    void demeritWeightsCanBeChangedAndBadWeightsAreOneLineErrors(@TempDir Path run) throws Exception {
        FailoverAnalysis.Demerits w = FailoverAnalysis.Demerits.parse("failed=1,excess_s=10");
        assertEquals(new FailoverAnalysis.Demerits(1, 2, 1, 10), w);
        assertEquals(1 + 1.2, RunAnalysis.analyze(fixture(run), w).failover().run().demerits(), 1e-9);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> FailoverAnalysis.Demerits.parse("late=3"))
                .getMessage().contains("not one of failed=N"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> FailoverAnalysis.Demerits.parse("failed=-1"))
                .getMessage().contains("non-negative"));
    }

    @Test
    void summaryJsonCarriesTheFailoverSectionAndTheTimelineAroundTheFault(@TempDir Path run) throws Exception {
        RunAnalysis.write(fixture(run), RunAnalysis.analyze(run));
        JsonNode f = new ObjectMapper().readTree(run.resolve("report/summary.json").toFile()).path("failover");
        assertEquals("f1", f.path("faults").get(0).path("fault_id").asText());
        assertEquals(60_000, f.path("faults").get(0).path("detection_us").asLong());
        assertEquals(2, f.path("faults").get(0).path("faulty_invocations").asInt());
        assertEquals(4, f.path("phases").size());
        JsonNode timeline = f.path("timelines").get(0);
        assertEquals("c01-t00-rorig", timeline.path("config").asText());
        assertEquals(1.5, timeline.path("restored_s").asDouble(), 1e-9);
        // The slice starting at the injection holds both faulty invocations: median 60 ms, max 80 ms.
        JsonNode atFault = null;
        for (JsonNode s : timeline.path("slices")) {
            if (s.path("second").asInt() == 0) {
                atFault = s;
            }
        }
        assertEquals(60.0, atFault.path("p50_ms").asDouble(), 1e-9);
        assertEquals(80.0, atFault.path("max_ms").asDouble(), 1e-9);
        assertTrue(Files.size(run.resolve("report/index.html")) > 100_000, "Chart.js is inlined");
    }

    /** A v3 row: answered by {@code replica} with {@code outcome}, sent to {@code sentTo} replicas. */
    private static String v3(int seq, long send, long latency, String replica, String outcome, String fault,
            String phases, int sentTo) {
        return "a," + seq + ",postAuction,," + send + "," + (send + latency) + "," + (send + 10) + "," + (send + 20)
                + "," + (send + 30) + "," + (send + latency - 10) + "," + send + "," + replica + "," + outcome + ","
                + fault + "," + phases + "," + send + ",measure,1," + sentTo;
    }

    @Test
    void aHedgeCountsAsAFaultyInvocationOnlyDuringAFaultAndAFailOverWithoutOneIsAFalseSuspicion(@TempDir Path run)
            throws Exception {
        List<String> rows = new ArrayList<>();
        long f = T0 + 20_000_000;
        // 100 requests on r1 at 4 ms before the fault, one hedged (sent to 2, answered by r2) with no fault on,
        // one failed over with no fault on (a false suspicion)
        for (int i = 0; i < 100; i++) {
            rows.add(v3(i, T0 + i * 100_000L, 4_000, "r1", "ok", "", ",,", 1));
        }
        rows.add(v3(100, T0 + 10_000_000, 6_000, "r2", "hedged", "", "5000,0,1000", 2));
        rows.add(v3(101, T0 + 11_000_000, 30_000, "r2", "retried", "", "25000,1000,4000", 2));
        // the fault: one hedged answer inside its window, then 100 requests on r2 at 10 ms (a cold new primary)
        rows.add(v3(102, f + 1_000, 9_000, "r2", "hedged", "f1", "5000,0,4000", 2));
        for (int i = 0; i < 100; i++) {
            rows.add(v3(103 + i, f + 100_000 + i * 100_000L, 10_000, "r2", "ok", "", ",,", 1));
        }
        Files.createDirectories(run.resolve("probes"));
        Files.writeString(run.resolve("probes/c01-t00-rorig.csv"), ProbeTable.HEADER_V3 + "\n"
                + String.join("\n", rows) + "\n");
        Files.writeString(run.resolve("faults.csv"), LEGACY_FAULTS_HEADER + "\nf1,crash,r1," + f + "," + (f + 20_000)
                + "," + (f + 21_000) + "," + (f + 500_000) + "\n");

        FailoverAnalysis.Result r = RunAnalysis.analyze(run).failover();
        assertEquals(2, r.faulty().count(), "the failed-over request and the hedge during f1; not the hedge before");
        assertEquals(1, r.faults().get(0).faultyInvocations());
        FailoverAnalysis.Redundancy red = r.redundancy();
        assertEquals(203, red.requests());
        assertEquals(3, red.extraRequests());
        assertEquals(2, red.hedgedAnswers());
        assertEquals(1, red.falseSuspicions());
        assertEquals(Map.of("r1", 100L, "r2", 103L), red.answeredBy());
        FailoverAnalysis.Handover h = r.faults().get(0).handover();
        assertEquals("r1", h.oldReplica());
        assertEquals("r2", h.newReplica());
        assertEquals(100, h.oldCount());
        assertEquals(100, h.newCount());
        assertEquals(2.5, h.ratio(), 1e-9); // 10 ms against 4 ms
        assertNull(h.backToSpeedS(), "10 ms throughout: never within 1.2x of 4 ms");
        assertEquals("not within 30 s", h.backToSpeed());
    }

    @Test
    void theNewPrimaryIsBackToSpeedAtTheEndOfItsFirstOneSecondWindowWithAMedianWithin1Point2TimesTheOldOnes() {
        // the old primary's median 4 ms; the new one's windows: 0-1 s at 12 ms, 1-2 s at 5 ms (x1.25), 2-3 s at
        // 4.8 ms (x1.2: within), 3-4 s at 4 ms
        long[] send = new long[40];
        long[] latency = new long[40];
        long[] perWindow = {12_000, 5_000, 4_800, 4_000};
        for (int i = 0; i < 40; i++) {
            send[i] = 7_000_000 + i * 100_000L;
            latency[i] = perWindow[i / 10];
        }
        assertEquals(3, Handovers.backToSpeedS(send, latency, 4_000));
        assertEquals(1, Handovers.backToSpeedS(send, latency, 10_000), "the first second was within");
        assertNull(Handovers.backToSpeedS(send, latency, 3_000), "no window within 1.2x of 3 ms");
        assertNull(Handovers.backToSpeedS(new long[0], new long[0], 4_000), "no requests");
        // a window with no requests is skipped, not counted as fast
        long[] gap = {0, 2_500_000};
        long[] gapLatency = {20_000, 4_000};
        assertEquals(3, Handovers.backToSpeedS(gap, gapLatency, 4_000));
    }

    @Test
    void filesWithoutTheSentToColumnReadAsOneReplicaPerCompletedRequest(@TempDir Path run) throws Exception {
        Files.createDirectories(run.resolve("probes"));
        Files.writeString(run.resolve("probes/c01-t00-rorig.csv"), ProbeTable.HEADER_V2 + "\n"
                + ok(1, T0, 1_000) + "," + T0 + ",measure,1\n");
        FailoverAnalysis.Redundancy red = RunAnalysis.analyze(run).failover().redundancy();
        assertEquals(1, red.requests());
        assertEquals(0, red.extraRequests());
    }
}
