package org.ftlab.harness.attribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.ftlab.harness.probe.ProbeFile;
import org.ftlab.harness.probe.ProbeTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The join of slow requests to recorded stalls, and the rule that names a cause, on hand-built fixtures. */
class AttributionTest {
    private static final long T0 = 1_700_000_000_000_000L;
    /** Every request takes 1 ms but those the fixtures slow down. */
    private static final long FAST = 1_000;
    /** The database connection of every transaction but those a fixture names. */
    private static final long CONNECTION = 12;

    @TempDir
    Path dir;

    /**
     * A block of 200 requests of one client served by r1 (or {@code servedBy}), 10 ms apart; {@code slow} maps a seq
     * to its latency, spent in the transaction's statements (its commit takes 100 µs).
     */
    private ProbeFile block(Map<Integer, Long> slow, Map<Integer, String> servedBy) throws Exception {
        return block(slow, servedBy, Map.of(), Map.of());
    }

    /** As above; {@code serverWaits} and {@code clientWaits}: a seq's threads' waits for a CPU, µs. */
    private ProbeFile block(Map<Integer, Long> slow, Map<Integer, String> servedBy, Map<Integer, Long> serverWaits,
            Map<Integer, Long> clientWaits) throws Exception {
        return block(slow, servedBy, serverWaits, clientWaits, Map.of());
    }

    /** As above; {@code dbWaits}: the database thread's wait for a CPU during a seq's transaction, µs. */
    private ProbeFile block(Map<Integer, Long> slow, Map<Integer, String> servedBy, Map<Integer, Long> serverWaits,
            Map<Integer, Long> clientWaits, Map<Integer, Long> dbWaits) throws Exception {
        return block(slow, servedBy, serverWaits, clientWaits, dbWaits, Map.of());
    }

    /** As above; {@code connections}: the database connection of a seq's transaction (default {@value #CONNECTION}). */
    private ProbeFile block(Map<Integer, Long> slow, Map<Integer, String> servedBy, Map<Integer, Long> serverWaits,
            Map<Integer, Long> clientWaits, Map<Integer, Long> dbWaits, Map<Integer, Long> connections)
            throws Exception {
        StringBuilder csv = new StringBuilder(ProbeTable.HEADER_V5).append('\n');
        for (int seq = 0; seq < 200; seq++) {
            long send = sendOf(seq);
            long latency = slow.getOrDefault(seq, FAST);
            // "r2*": answered by r2 after being sent to two replicas (failed over, hedged)
            String served = servedBy.getOrDefault(seq, "r1");
            String replica = served.replace("*", "");
            int sentTo = served.endsWith("*") ? 2 : 1;
            csv.append("c1,").append(seq).append(",postAuction,,").append(send).append(',').append(send + latency)
                    .append(',').append(send + 100).append(',').append(send + 200).append(',')
                    .append(send + latency - 300).append(',').append(send + latency - 100).append(',').append(send)
                    .append(',').append(replica).append(",ok,,,,,").append(send).append(",measure,1,").append(sentTo).append(',')
                    .append(send + latency - 400).append(",77,200,").append(serverWaits.getOrDefault(seq, 0L))
                    .append(',').append(clientWaits.getOrDefault(seq, 0L)).append(",100,")
                    .append(dbWaits.getOrDefault(seq, 0L)).append(',')
                    .append(connections.getOrDefault(seq, CONNECTION)).append('\n');
        }
        Path file = dir.resolve("c01-t00-rorig.csv");
        Files.writeString(file, csv);
        return ProbeFile.read(file);
    }

    private static long sendOf(int seq) {
        return T0 + seq * 10_000L;
    }

    private static RunEvents events(Stall... stalls) {
        Map<String, List<Stall>> byProcess = new TreeMap<>();
        for (Stall s : stalls) {
            byProcess.computeIfAbsent(s.process(), p -> new ArrayList<>()).add(s);
        }
        byProcess.values().forEach(l -> l.sort(Comparator.comparingLong(Stall::startUs)));
        return new RunEvents(true, byProcess, List.of());
    }

    private static Attribution.Result attribute(ProbeFile pf, RunEvents events) {
        Attribution a = new Attribution(events);
        a.accept(pf);
        return a.finish(List.of());
    }

    private static Attribution.Outlier outlier(Attribution.Result r, long seq) {
        return r.outliers().stream().filter(o -> o.seq() == seq).findFirst().orElseThrow();
    }

    @Test
    void aGcPauseInTheServingReplicaThatCoversMostOfARequestIsItsCause() throws Exception {
        ProbeFile pf = block(Map.of(50, 8_000L, 120, 6_000L), Map.of());
        Stall gc = new Stall("r1", Stall.Cause.GC_PAUSE, sendOf(50) + 500, sendOf(50) + 7_500, "G1Full (System.gc())");
        Attribution.Result r = attribute(pf, events(gc));
        assertEquals(2, r.outliers().size(), "top 1% of 200 requests");
        Attribution.Outlier o = outlier(r, 50);
        assertEquals("gc-pause(r1)", o.cause());
        assertEquals(7_000, o.explainedUs());
        assertTrue(o.blockMax());
        assertEquals(7_000 / 8_000.0, o.share(), 1e-9);
        assertEquals("G1Full (System.gc())", o.evidence().get(0).detail());
        assertEquals("unexplained", outlier(r, 120).cause(), "no stall overlapped the other slow request");
        assertEquals(Map.of("gc-pause(r1)", 1, "unexplained", 1), r.causes());
        assertEquals(Map.of("statements", 1), r.unexplainedBySpan(), "the unexplained one's time went to its statements");
    }

    @Test
    void aRowLockWaitOfTheRequestsOwnDatabaseConnectionIsItsCauseAndAnotherConnectionsIsNot() throws Exception {
        // seq 50 ran on connection 12, seq 120 on connection 30: both waited the same 6 ms, but the database recorded
        // a lock wait of connection 12 only, overlapping both requests in time
        ProbeFile pf = block(Map.of(50, 8_000L, 120, 8_000L), Map.of(), Map.of(), Map.of(), Map.of(),
                Map.of(120, 30L));
        Stall wait50 = new Stall("db", Stall.Cause.ROW_LOCK_WAIT, sendOf(50) + 1_000, sendOf(50) + 7_000,
                "connection 12 waited for a row lock", 12);
        Stall wait120 = new Stall("db", Stall.Cause.ROW_LOCK_WAIT, sendOf(120) + 1_000, sendOf(120) + 7_000,
                "connection 12 waited for a row lock", 12);
        Attribution.Result r = attribute(pf, events(wait50, wait120));
        Attribution.Outlier o = outlier(r, 50);
        assertEquals("db-lock-wait(db)", o.cause());
        assertEquals(6_000, o.explainedUs());
        assertEquals("connection 12 waited for a row lock", o.evidence().get(0).detail());
        assertEquals("unexplained", outlier(r, 120).cause(), "another connection's wait holds up nobody else");
    }

    /**
     * A block of 200 requests over the HTTP door, whose replies say when the replica's I/O thread had read each
     * request ({@code server_arrive_us}), 10 ms apart, served by r1 in 1 ms; {@code slow} maps a seq to its latency,
     * the I/O thread's reading and the bean's start, µs after its send.
     */
    private ProbeFile httpBlock(Map<Integer, long[]> slow) throws Exception {
        StringBuilder csv = new StringBuilder(ProbeTable.HEADER).append('\n');
        for (int seq = 0; seq < 200; seq++) {
            long send = sendOf(seq);
            long[] t = slow.getOrDefault(seq, new long[] {FAST, 50, 100});
            long latency = t[0];
            csv.append("c1,").append(seq).append(",postAuction,,").append(send).append(',').append(send + latency)
                    .append(',').append(send + t[2]).append(',').append(send + t[2] + 100).append(',')
                    .append(send + latency - 300).append(',').append(send + latency - 100).append(',').append(send)
                    .append(",r1,ok,,,,,").append(send).append(",measure,1,1,").append(send + latency - 400)
                    .append(",77,200,0,0,100,0,").append(CONNECTION).append(",,").append(send + t[1]).append('\n');
        }
        Path file = dir.resolve("c01-t00-rorig.csv");
        Files.writeString(file, csv);
        return ProbeFile.read(file);
    }

    @Test
    void aRequestThatWaitedForAWorkerAfterTheReplicasIOThreadReadItIsAPoolWait() throws Exception {
        // seq 50 (8 ms): read by r1's I/O thread 0.1 ms after its send, started by the bean 6.5 ms after
        ProbeFile pf = httpBlock(Map.of(50, new long[] {8_000, 100, 6_500}));
        Attribution.Outlier o = outlier(attribute(pf, events()), 50);
        assertEquals("pool-wait(r1)", o.cause());
        assertEquals(6_400, o.explainedUs());
        assertEquals(6_400, o.spans().get("pool-wait"));
        assertEquals(100, o.spans().get("request-leg"), "the way in, to the I/O thread");
        assertEquals("pool-wait", o.span());
        assertEquals(sendOf(50) + 100, o.evidence().get(0).startEpochUs(), "it began when the I/O thread read it");
    }

    @Test
    void aRequestWhoseWayInToTheReplicasIOThreadTookMostOfItsExcessWaitedInTheSocketQueue() throws Exception {
        // seq 60 (8 ms): the I/O thread had read it 6 ms after its send; the bean started 0.1 ms later
        ProbeFile pf = httpBlock(Map.of(60, new long[] {8_000, 6_000, 6_100}));
        Attribution.Outlier o = outlier(attribute(pf, events()), 60);
        assertEquals("socket-queue(r1)", o.cause());
        assertEquals(6_000, o.explainedUs());
        assertEquals(100, o.spans().get("pool-wait"));
        assertEquals(sendOf(60), o.evidence().get(0).startEpochUs(), "from the client's send");
    }

    @Test
    void aRecordedStallDuringTheWaitForAWorkerIsTheCauseNotTheWaitItself() throws Exception {
        // the replica's collection stopped every thread while seq 70 waited for a worker: the collection is named
        ProbeFile pf = httpBlock(Map.of(70, new long[] {8_000, 100, 6_500}));
        Stall gc = new Stall("r1", Stall.Cause.GC_PAUSE, sendOf(70) + 200, sendOf(70) + 6_400, "G1Full");
        assertEquals("gc-pause(r1)", outlier(attribute(pf, events(gc)), 70).cause());
    }

    @Test
    void aWaitOnTheWayInThatIsLessThanHalfTheExcessNamesNothing() throws Exception {
        // 3 ms for a worker and 0.1 ms to the I/O thread, of a 7 ms excess (the rest in the statements)
        ProbeFile pf = httpBlock(Map.of(80, new long[] {8_000, 100, 3_100}));
        Attribution.Outlier o = outlier(attribute(pf, events()), 80);
        assertEquals("unexplained", o.cause());
        assertEquals(3_000, o.spans().get("pool-wait"));
    }

    @Test
    void theEjbDoorSaysNothingOfTheArrivalSoItsWayInIsOneSpan() throws Exception {
        Attribution.Outlier o = outlier(attribute(block(Map.of(50, 8_000L), Map.of()), events()), 50);
        assertFalse(o.spans().containsKey("pool-wait"), o.spans().toString());
        assertEquals(100, o.spans().get("request-leg"), "the client to the bean");
    }

    /** A wait of the database's for a metadata lock (a commit blocked by a backup), of connection {@code connection}. */
    private static Stall commitBlocked(long startUs, long endUs, long connection) {
        return new Stall("db", Stall.Cause.METADATA_LOCK_WAIT, startUs, endUs,
                "connection " + connection + " waiting for backup lock (commit)", connection);
    }

    @Test
    void aCommitBlockedForMostOfARequestsExcessIsItsCauseEvenWhereTheWaitOutlastsIt() throws Exception {
        // seq 50 takes 8 ms (excess 7 ms over the 1 ms median); its connection waited from 3 ms into it until well
        // after it ended: 5 ms of the wait overlap it, more than half its excess
        ProbeFile pf = block(Map.of(50, 8_000L), Map.of());
        Attribution.Outlier o = outlier(attribute(pf, events(commitBlocked(sendOf(50) + 3_000, sendOf(50) + 20_000,
                CONNECTION))), 50);
        assertEquals("db-mdl-wait(db)", o.cause());
        assertEquals(5_000, o.explainedUs(), "only the overlap counts");
        assertEquals(5_000, o.evidence().get(0).overlapUs());
        assertEquals("connection 12 waiting for backup lock (commit)", o.evidence().get(0).detail());
    }

    @Test
    void aDatabaseWaitThatOverlapsTooLittleOfARequestIsShownButNotItsCause() throws Exception {
        // 2 ms of the wait overlap seq 50's 7 ms excess: less than half
        ProbeFile pf = block(Map.of(50, 8_000L), Map.of());
        Attribution.Outlier o = outlier(attribute(pf, events(commitBlocked(sendOf(50) + 6_000, sendOf(50) + 9_000,
                CONNECTION))), 50);
        assertEquals("unexplained", o.cause());
        assertEquals(2_000, o.explainedUs(), "the best label's overlap, too little");
        assertEquals("db-mdl-wait", o.evidence().get(0).cause(), "its evidence is given beside");
    }

    @Test
    void aDatabaseWaitThatEndedBeforeARequestWasSentOrBeganAfterItsReplyHoldsItUpNot() throws Exception {
        ProbeFile pf = block(Map.of(50, 8_000L), Map.of());
        Attribution.Outlier o = outlier(attribute(pf, events(
                commitBlocked(sendOf(50) - 9_000, sendOf(50) - 100, CONNECTION),
                commitBlocked(sendOf(50) + 8_001, sendOf(50) + 9_000, CONNECTION))), 50);
        assertEquals("unexplained", o.cause());
        assertEquals(0, o.explainedUs());
        assertTrue(o.evidence().isEmpty(), "nothing overlapped it: " + o.evidence());
    }

    @Test
    void twoWaitsOfTheRequestsConnectionAddUpAndWaitsThatOverlapEachOtherCountOnce() throws Exception {
        // seq 50: a statement waited 2.5 ms, then the commit 3 ms (neither alone is half of the 7 ms excess);
        // seq 120: two sampled waits that overlap each other cover 1–6 ms of it, 5 ms (not 4 + 3)
        ProbeFile pf = block(Map.of(50, 8_000L, 120, 8_000L), Map.of());
        Attribution.Result r = attribute(pf, events(
                commitBlocked(sendOf(50) + 1_000, sendOf(50) + 3_500, CONNECTION),
                commitBlocked(sendOf(50) + 4_000, sendOf(50) + 7_000, CONNECTION),
                commitBlocked(sendOf(120) + 1_000, sendOf(120) + 5_000, CONNECTION),
                commitBlocked(sendOf(120) + 3_000, sendOf(120) + 6_000, CONNECTION)));
        Attribution.Outlier twice = outlier(r, 50);
        assertEquals("db-mdl-wait(db)", twice.cause());
        assertEquals(5_500, twice.explainedUs());
        assertEquals(2, twice.evidence().size(), "both waits are its evidence, the longer overlap first");
        assertEquals(3_000, twice.evidence().get(0).overlapUs());
        assertEquals(5_000, outlier(r, 120).explainedUs());
    }

    @Test
    void aRowLockWaitAndAMetadataLockWaitAreTwoCausesTheLongerOverlapNamesTheRequest() throws Exception {
        ProbeFile pf = block(Map.of(50, 8_000L), Map.of());
        Attribution.Outlier o = outlier(attribute(pf, events(
                new Stall("db", Stall.Cause.ROW_LOCK_WAIT, sendOf(50) + 500, sendOf(50) + 2_500,
                        "connection 12 waited for a row lock", CONNECTION),
                commitBlocked(sendOf(50) + 3_000, sendOf(50) + 7_500, CONNECTION))), 50);
        assertEquals("db-mdl-wait(db)", o.cause(), "4.5 ms of a metadata lock against 2 ms of a row lock");
    }

    @Test
    void aRequestSentToTwoReplicasIsHeldUpByEveryConnectionsLockWaitAndEveryReplicasPause() throws Exception {
        // seq 50 waited on r1's connection 12, timed out, and was answered by r2 on connection 30 (the recorded one)
        ProbeFile pf = block(Map.of(50, 8_000L, 120, 8_000L), Map.of(50, "r2*", 120, "r2*"), Map.of(), Map.of(),
                Map.of(), Map.of(50, 30L, 120, 30L));
        Stall waitOnR1 = new Stall("db", Stall.Cause.ROW_LOCK_WAIT, sendOf(50) + 500, sendOf(50) + 7_000,
                "connection 12 waited for a row lock", 12);
        Stall gcOfR1 = new Stall("r1", Stall.Cause.GC_PAUSE, sendOf(120) + 500, sendOf(120) + 7_000, "G1Full");
        Attribution.Result r = attribute(pf, events(waitOnR1, gcOfR1));
        assertEquals("db-lock-wait(db)", outlier(r, 50).cause());
        assertEquals("gc-pause(r1)", outlier(r, 120).cause(), "the replica it met first is not recorded");
    }

    @Test
    void aRequestWithoutAKnownDatabaseConnectionIsHeldUpByNoLockWait() throws Exception {
        ProbeFile pf = block(Map.of(50, 8_000L), Map.of(), Map.of(), Map.of(), Map.of(), Map.of(50, -1L));
        Stall wait = new Stall("db", Stall.Cause.ROW_LOCK_WAIT, sendOf(50) + 1_000, sendOf(50) + 7_000,
                "connection 12 waited for a row lock", 12);
        assertEquals("unexplained", outlier(attribute(pf, events(wait)), 50).cause());
    }

    @Test
    void oneStallOverlappingTwoRequestsExplainsBoth() throws Exception {
        // requests 50 and 51 are 10 ms apart and last 12 ms: one 15 ms pause spans the end of one, the start of next
        ProbeFile pf = block(Map.of(50, 12_000L, 51, 12_000L), Map.of());
        Stall gc = new Stall("harness", Stall.Cause.GC_PAUSE, sendOf(50) + 1_000, sendOf(51) + 6_000, "G1New");
        Attribution.Result r = attribute(pf, events(gc));
        assertEquals("gc-pause(harness)", outlier(r, 50).cause());
        assertEquals("gc-pause(harness)", outlier(r, 51).cause());
        assertEquals(11_000, outlier(r, 50).explainedUs());
        assertEquals(6_000, outlier(r, 51).explainedUs());
    }

    @Test
    void aStallThatEndedBeforeTheRequestWasSentExplainsNothing() throws Exception {
        ProbeFile pf = block(Map.of(50, 8_000L, 120, 6_000L), Map.of());
        Stall before = new Stall("r1", Stall.Cause.GC_PAUSE, sendOf(50) - 9_000, sendOf(50) - 1, "G1New");
        Attribution.Outlier o = outlier(attribute(pf, events(before)), 50);
        assertEquals("unexplained", o.cause());
        assertEquals(0, o.explainedUs());
        assertTrue(o.evidence().isEmpty());
    }

    @Test
    void nestedAndOverlappingStallsOfOneCauseAreCountedOnce() throws Exception {
        ProbeFile pf = block(Map.of(50, 10_000L, 120, 6_000L), Map.of());
        long s = sendOf(50);
        Stall outer = new Stall("r1", Stall.Cause.SAFEPOINT, s + 1_000, s + 5_000, "safepoint: A");
        Stall inner = new Stall("r1", Stall.Cause.SAFEPOINT, s + 2_000, s + 3_000, "safepoint: B");
        Stall tail = new Stall("r1", Stall.Cause.SAFEPOINT, s + 4_000, s + 6_000, "safepoint: C");
        Attribution.Outlier o = outlier(attribute(pf, events(outer, inner, tail)), 50);
        assertEquals("safepoint(r1)", o.cause());
        assertEquals(5_000, o.explainedUs(), "1..6 ms once, not 4 + 1 + 2");
        assertEquals(3, o.evidence().size());
    }

    @Test
    void aCauseMustAccountForHalfTheExcessOverTheMedianOrTheRequestIsUnexplainedWithItsSpan() throws Exception {
        ProbeFile pf = block(Map.of(50, 9_000L, 120, 6_000L), Map.of());
        long s = sendOf(50);
        // excess = 9 ms − 1 ms median = 8 ms; 3.9 ms is less than half of it
        Stall small = new Stall("r1", Stall.Cause.GC_PAUSE, s + 1_000, s + 4_900, "G1New");
        Attribution.Outlier o = outlier(attribute(pf, events(small)), 50);
        assertEquals(8_000, o.excessUs());
        assertEquals("unexplained", o.cause());
        assertEquals(3_900, o.explainedUs(), "the best label's time is kept beside the verdict");
        assertEquals("statements", o.span(), "the fixture's bean spends the request in its transaction's statements");
        Stall enough = new Stall("r1", Stall.Cause.GC_PAUSE, s + 1_000, s + 5_000, "G1New");
        assertEquals("gc-pause(r1)", outlier(attribute(pf, events(enough)), 50).cause(), "4 ms is half of 8 ms");
    }

    @Test
    void onlyTheServingReplicaAndTheClientsJvmAreBlamedAndTheLargerOfTwoProcessesWins() throws Exception {
        ProbeFile pf = block(Map.of(50, 10_000L, 120, 10_000L), Map.of(120, "r2"));
        long s = sendOf(50);
        Stall r2 = new Stall("r2", Stall.Cause.GC_PAUSE, s, s + 9_000, "G1Full on the backup");
        Stall harness = new Stall("harness", Stall.Cause.SAFEPOINT, s + 1_000, s + 6_000, "safepoint: X");
        Attribution.Result r = attribute(pf, events(r2, harness));
        assertEquals("safepoint(harness)", outlier(r, 50).cause(), "r2 did not serve request 50");
        long s120 = sendOf(120);
        Stall r2late = new Stall("r2", Stall.Cause.GC_PAUSE, s120, s120 + 9_000, "G1Full");
        Stall harnessLate = new Stall("harness", Stall.Cause.SAFEPOINT, s120 + 1_000, s120 + 6_000, "safepoint");
        r = attribute(pf, events(r2late, harnessLate));
        assertEquals("gc-pause(r2)", outlier(r, 120).cause(), "9 ms in r2 beats 5 ms in the harness");
    }

    @Test
    void aRequestWhoseThreadsWaitedForACpuIsNamedForTheLongerWaitWhenNoStallAccountsForMore() throws Exception {
        ProbeFile pf = block(Map.of(50, 10_000L, 120, 10_000L), Map.of(), Map.of(50, 6_000L, 120, 1_000L),
                Map.of(50, 500L, 120, 7_000L));
        Attribution.Result r = attribute(pf, events());
        assertEquals("cpu-runqueue(r1)", outlier(r, 50).cause());
        assertEquals(6_000, outlier(r, 50).explainedUs());
        assertEquals("cpu-runqueue(client)", outlier(r, 120).cause());
        long s = sendOf(50);
        Stall gc = new Stall("r1", Stall.Cause.GC_PAUSE, s + 100, s + 8_100, "G1New");
        assertEquals("gc-pause(r1)", outlier(attribute(pf, events(gc)), 50).cause(), "8 ms of pause beat 6 ms of wait");
        ProbeFile db = block(Map.of(50, 10_000L, 120, 10_000L), Map.of(), Map.of(50, 2_000L), Map.of(),
                Map.of(50, 5_000L));
        assertEquals("cpu-runqueue(db)", outlier(attribute(db, events()), 50).cause(),
                "the database thread of its transaction waited longest");
        // excess 9 ms: neither 3 ms nor 2.5 ms is half of it, together with the client's 0.5 ms they are 6 ms
        ProbeFile both = block(Map.of(50, 10_000L, 120, 10_000L), Map.of(), Map.of(50, 3_000L), Map.of(50, 500L),
                Map.of(50, 2_500L));
        Attribution.Outlier o = outlier(attribute(both, events()), 50);
        assertEquals("cpu-runqueue(r1+db+client)", o.cause(), "the waits of the request's threads add up");
        assertEquals(6_000, o.explainedUs());
        assertEquals(3, o.evidence().size());
    }

    @Test
    void aWaitForACpuDuringAnotherJvmsCollectionIsCreditedToThatCollectionUpToTheirOverlap() throws Exception {
        // request 50 (served by r1) waited 7 ms for a CPU in r1's thread while r2 collected for 8 ms: r2's collection
        ProbeFile pf = block(Map.of(50, 10_000L, 120, 10_000L), Map.of(), Map.of(50, 7_000L, 120, 7_000L),
                Map.of());
        long s = sendOf(50);
        Stall full = new Stall("r2", Stall.Cause.GC_PAUSE, s + 1_000, s + 9_000, "G1Full (Diagnostic Command)");
        long s120 = sendOf(120);
        Stall young = new Stall("r2", Stall.Cause.GC_PAUSE, s120 + 1_000, s120 + 3_000, "G1New");
        Attribution.Result r = attribute(pf, events(full, young));
        Attribution.Outlier o = outlier(r, 50);
        assertEquals("gc-pause(r2)", o.cause(), "the collection's threads held the CPUs the request waited for");
        assertEquals(7_000, o.explainedUs(), "no more than the request's threads waited");
        assertTrue(o.evidence().get(0).detail().contains("waited for a CPU 7000 µs"), o.evidence().toString());
        // 2 ms of collection against 7 ms of waits: most of the wait was for something else
        assertEquals("cpu-runqueue(r1)", outlier(r, 120).cause());
        // a request whose threads did not wait for a CPU owes nothing to another JVM's collection
        ProbeFile noWait = block(Map.of(50, 10_000L, 120, 10_000L), Map.of(), Map.of(), Map.of());
        assertEquals(Attribution.UNEXPLAINED, outlier(attribute(noWait, events(full)), 50).cause());
    }

    /**
     * The host sampled every 10 ms over the whole block: {@code busy} CPUs busy and {@code steal} stolen in the 200 ms
     * around {@code hotUs}, 0.4 busy elsewhere; r1 uses 0.2 CPU and the database 0.1 throughout (50-ms samples), the
     * harness 0.05 (its JFR samples, each for the 100 ms before it).
     */
    private static RunEvents sampled(long hotUs, double busy, double steal) {
        return sampled(hotUs, busy, steal, 0.2);
    }

    /** As {@link #sampled(long, double, double)}, r1 using {@code r1Cpus} throughout. */
    private static RunEvents sampled(long hotUs, double busy, double steal, double r1Cpus) {
        List<JfrStalls.HostSample> host = new ArrayList<>();
        for (long t = T0 - 100_000; t < T0 + 2_200_000; t += 10_000) {
            boolean hot = t >= hotUs - 100_000 && t < hotUs + 100_000;
            host.add(new JfrStalls.HostSample(t, t + 10_000, 2, hot ? busy : 0.4, hot ? steal : 0, 0));
        }
        Map<String, List<JfrStalls.ProcessUse>> usage = new TreeMap<>();
        for (long t = T0 - 100_000; t < T0 + 2_200_000; t += 50_000) {
            long r1Us = Math.round(r1Cpus * 50_000);
            usage.computeIfAbsent("r1", k -> new ArrayList<>()).add(new JfrStalls.ProcessUse("r1", t, t + 50_000,
                    r1Us * 4 / 5, r1Us / 5, 0, 0, 1L << 29));
            usage.computeIfAbsent("db", k -> new ArrayList<>()).add(new JfrStalls.ProcessUse("db", t, t + 50_000,
                    4_000, 1_000, 0, 0, 1L << 28));
        }
        List<JfrStalls.LoadSample> harness = new ArrayList<>();
        for (long t = T0 - 100_000; t < T0 + 2_300_000; t += 100_000) {
            harness.add(new JfrStalls.LoadSample(t, 0.02, 0.005, 0.3, Double.NaN)); // of 2 CPUs: 0.05
        }
        return new RunEvents(true, Map.of(), List.of(), Map.of("harness", harness), host, usage);
    }

    @Test
    void aWaitForACpuThatProcessesOutsideTheLabHeldMostOfIsNamedForThemAndTheHypervisorsStealLikewise()
            throws Exception {
        ProbeFile pf = block(Map.of(50, 10_000L, 120, 10_000L), Map.of(), Map.of(50, 7_000L, 120, 7_000L),
                Map.of());
        Attribution.Result r = attribute(pf, sampled(sendOf(50), 2.0, 0));
        Attribution.Outlier o = outlier(r, 50);
        assertEquals("cpu-outside(host)", o.cause(), "2 CPUs busy, the lab using 0.35 of them");
        assertEquals(7_000, o.explainedUs(), "the waits are what it explains");
        String use = o.evidence().get(o.evidence().size() - 1).detail();
        assertTrue(use.startsWith("CPUs in use meanwhile, of 2: 1.65 outside, 0.20 r1, 0.10 db, 0.05 harness"), use);
        // 0.4 busy, of which the lab used 0.35: its own load, whose threads' waits name them
        assertEquals("cpu-runqueue(r1)", outlier(r, 120).cause());
        assertTrue(outlier(r, 120).evidence().get(1).detail().contains("0.20 r1"), outlier(r, 120).toString());
        Attribution.Result stolen = attribute(pf, sampled(sendOf(50), 0.5, 1.5));
        assertEquals("cpu-steal(host)", outlier(stolen, 50).cause());
        // without the host's samples, the waits are named as before
        assertEquals("cpu-runqueue(r1)", outlier(attribute(pf, events()), 50).cause());
    }

    @Test
    void processesOutsideTheLabUsingAQuarterOfTheHostsCpusAreNamedEvenWhenALabProcessUsedMore() throws Exception {
        ProbeFile pf = block(Map.of(50, 10_000L), Map.of(), Map.of(50, 7_000L), Map.of());
        // 2 CPUs busy, r1 using 1.2 of them, the database 0.1, the harness 0.05: 0.65 outside, over a quarter of 2
        Attribution.Outlier o = outlier(attribute(pf, sampled(sendOf(50), 2.0, 0, 1.2)), 50);
        assertEquals("cpu-outside(host)", o.cause());
        assertTrue(o.evidence().get(o.evidence().size() - 1).detail().contains("1.20 r1, 0.65 outside"),
                o.evidence().toString());
        // 0.35 outside: more than the noise floor, under a quarter of the host and under r1's use: r1's own load
        assertEquals("cpu-runqueue(r1)", outlier(attribute(pf, sampled(sendOf(50), 1.7, 0, 1.2)), 50).cause());
    }

    @Test
    void cpuUseIsTheSamplesOverlappingShareAndNeedsTheHostSampledOverHalfTheInterval() {
        RunEvents ev = sampled(T0 + 1_000_000, 2.0, 0); // hot from 0.9 s to 1.1 s
        Map<String, Double> use = CpuUse.exactly(ev, T0 + 1_000_000, T0 + 1_005_000);
        assertEquals(2.0 - 0.35, use.get(CpuUse.OUTSIDE), 1e-9);
        assertEquals(0.2, use.get("r1"), 1e-9);
        assertEquals(0.05, use.get("harness"), 1e-9);
        assertEquals(CpuUse.OUTSIDE, use.keySet().iterator().next(), "largest first");
        Map<String, Double> spread = CpuUse.exactly(ev, T0 + 1_095_000, T0 + 1_115_000); // 5 ms hot, 15 ms not
        assertEquals((2.0 * 5 + 0.4 * 15) / 20 - 0.35, spread.get(CpuUse.OUTSIDE), 1e-9);
        assertTrue(CpuUse.exactly(ev, T0 + 3_000_000, T0 + 3_100_000).isEmpty(), "no host samples there");
        assertTrue(CpuUse.exactly(ev, T0 + 2_150_000, T0 + 2_350_000).isEmpty(), "sampled over a quarter of it only");
        // a request of a few ms is read over 100 ms around it: one 10-ms tick is not a verdict
        assertEquals(CpuUse.exactly(ev, T0 + 1_052_500, T0 + 1_152_500), CpuUse.over(ev, T0 + 1_100_000,
                T0 + 1_105_000));
        assertEquals((2.0 * 47.5 + 0.4 * 52.5) / 100 - 0.35, CpuUse.over(ev, T0 + 1_100_000, T0 + 1_105_000)
                .get(CpuUse.OUTSIDE), 1e-9);
    }

    @Test
    void probeAndRecordingClocksAlignOnTheEpochMicrosecond() {
        // JFR's instants and the probes are both the host's wall clock, truncated to the µs as MicroClock does
        Instant t = Instant.ofEpochSecond(1_700_000_000L, 123_456_789);
        assertEquals(1_700_000_000_123_456L, JfrStalls.us(t));
        Stall s = new Stall("r1", Stall.Cause.GC_PAUSE, JfrStalls.us(t), JfrStalls.us(t.plusNanos(2_000_000)), "x");
        assertEquals(2_000, s.durationUs());
    }

    @Test
    void aRunWithoutEventsExplainsNothingAndSaysSo() throws Exception {
        ProbeFile pf = block(Map.of(50, 8_000L), Map.of());
        Attribution.Result r = attribute(pf, RunEvents.NONE);
        assertFalse(r.recorded());
        assertTrue(r.outliers().isEmpty());
    }
}
