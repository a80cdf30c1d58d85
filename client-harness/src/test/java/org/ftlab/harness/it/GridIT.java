package org.ftlab.harness.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import jdk.jfr.consumer.RecordingFile;
import org.ftlab.auction.api.MicroClock;
import org.ftlab.harness.bench.AttributionBench;
import org.ftlab.harness.cli.FtlabCommand;
import org.ftlab.harness.lab.ManagedLab;
import org.ftlab.harness.lab.ManagerClient;
import org.ftlab.harness.probe.DatabaseWorkRecord;
import org.ftlab.harness.probe.FaultRecord;
import org.ftlab.harness.probe.FaultsCsv;
import org.ftlab.harness.probe.ProbeFile;
import org.ftlab.harness.probe.ProbeTable;
import org.ftlab.rm.api.EventDump;
import org.ftlab.rm.api.FailureRecord;
import org.ftlab.rm.api.ManagerEndpoint;
import org.ftlab.rm.api.ManagerStatus;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance.Lifecycle;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code ftlab grid} end to end on a tiny grid: files, rows, timestamps, think time, abort and resume, faults. The runs
 * that need no lab of their own run one after another on the test run's {@link RunningLab} ({@code --lab}).
 *
 * <p>Each scenario is a nested class: it runs its grid once, before its tests, and each of its tests checks one
 * behaviour of that run, so a failure names the behaviour. The nested classes share the outer class's running lab.
 */
@ExtendWith(RunningLab.class)
class GridIT {
    private static final Path HOME = Path.of(System.getProperty("ftlab.home", "..")).toAbsolutePath().normalize();
    private static final Set<String> TINY = Set.of("c01-t00-rorig", "c01-t00-r256", "c01-t20-rorig", "c01-t20-r256",
            "c02-t00-rorig", "c02-t00-r256", "c02-t20-rorig", "c02-t20-r256");

    private static int ftlab(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = FtlabCommand.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        System.out.println(out);
        System.err.println(err);
        return code;
    }

    /** A probe file's rows by column name (every row as wide as the header). */
    static List<Map<String, String>> rows(Path csv) throws Exception {
        List<String> lines = Files.readAllLines(csv);
        assertEquals(ProbeTable.HEADER, lines.get(0));
        String[] header = lines.get(0).split(",", -1);
        List<Map<String, String>> rows = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] cells = line.split(",", -1);
            assertEquals(header.length, cells.length, line);
            Map<String, String> row = new HashMap<>();
            for (int i = 0; i < header.length; i++) {
                row.put(header[i], cells[i]);
            }
            rows.add(row);
        }
        return rows;
    }

    private static long us(Map<String, String> row, String column) {
        return Long.parseLong(row.get(column));
    }

    private static Set<String> probeFiles(Path runDir) throws Exception {
        try (Stream<Path> files = Files.list(runDir.resolve("probes"))) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".csv"))
                    .collect(Collectors.toCollection(TreeSet::new));
        }
    }

    private static JsonNode manifest(Path runDir) throws Exception {
        return new ObjectMapper().readTree(runDir.resolve("manifest.json").toFile());
    }

    private static void assertAnalyzed(int analyzeExit) {
        assertEquals(0, analyzeExit, "ftlab analyze exits 0");
    }

    /** The analysis's summary of a run, once {@code ftlab analyze} ran on it without error. */
    private static JsonNode summary(Path runDir, int analyzeExit) throws Exception {
        assertAnalyzed(analyzeExit);
        return new ObjectMapper().readTree(runDir.resolve("report/summary.json").toFile());
    }

    /**
     * One tiny grid, replicated (2 × the 8 configurations) in the seeds' random order: every block's probe file is
     * whole and honours think time and reply size, the order run is the one recorded, and the analysis gives the
     * factorial ANOVA.
     */
    @Nested
    @TestInstance(Lifecycle.PER_CLASS)
    class ATinyReplicatedGridInRandomOrder {
        /** The blocks in grid order: every configuration of replicate 1, then of replicate 2. */
        private final List<String> sequential = new ArrayList<>();
        private Path runDir;
        private JsonNode manifest;
        private int analyzed;

        @BeforeAll
        void runTheGridAndAnalyzeIt() throws Exception {
            for (int rep = 1; rep <= 2; rep++) {
                for (String id : new TreeSet<>(TINY)) {
                    sequential.add(id + "-rep" + rep);
                }
            }
            runDir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "grid-");
            assertEquals(0, ftlab("grid", "--clients", "1,2", "--think", "0,20", "--reply", "orig,256", "--posts",
                    "6", "--views", "6", "--warmup", "3", "--lab-warmup", "20", "--repeat", "2", "--order", "random",
                    "--seed", "7", "--lab", RunningLab.dir().toString(), "--out", runDir.toString()));
            manifest = manifest(runDir);
            analyzed = ftlab("analyze", runDir.toString());
        }

        private List<Map<String, String>> rowsOf(String block) throws Exception {
            return rows(runDir.resolve("probes/" + block + ".csv"));
        }

        private int clients(String block) {
            return block.startsWith("c02") ? 2 : 1;
        }

        /** A block's measured rows, by client, in the order each client sent them. */
        private Map<String, List<Map<String, String>>> measuredByClient(String block) throws Exception {
            return rowsOf(block).stream().filter(r -> r.get("phase").equals("measure"))
                    .collect(Collectors.groupingBy(r -> r.get("client")));
        }

        private List<String> schedule() {
            List<String> schedule = new ArrayList<>();
            manifest.path("grid").path("schedule").forEach(n -> schedule.add(n.asText()));
            return schedule;
        }

        @Test
        void everyBlockOfEveryReplicateWritesItsProbeFile() throws Exception {
            assertEquals(sequential.stream().map(b -> b + ".csv").collect(Collectors.toCollection(TreeSet::new)),
                    probeFiles(runDir));
        }

        @Test
        void eachClientSendsThreeWarmUpRequestsThenTwelveMeasuredOnesHalfPostsHalfViews() throws Exception {
            for (String block : sequential) {
                List<Map<String, String>> all = rowsOf(block);
                int clients = clients(block);
                // each client: 3 warm-up requests first, then 12 measured ones
                assertEquals(clients * 3, all.stream().filter(r -> r.get("phase").equals("warmup")).count(), block);
                assertEquals(clients * 12, all.stream().filter(r -> r.get("phase").equals("measure")).count(), block);
                Map<String, List<Map<String, String>>> byClient = measuredByClient(block);
                assertEquals(clients, byClient.size(), block);
                for (List<Map<String, String>> mine : byClient.values()) {
                    assertEquals(6, mine.stream().filter(r -> r.get("method").equals("postAuction")).count());
                    assertEquals(6, mine.stream().filter(r -> r.get("method").equals("viewAuction")).count());
                }
            }
        }

        @Test
        void theOnlyOtherRowsAreHoldRowsAndASingleClientHasNone() throws Exception {
            for (String block : sequential) {
                List<Map<String, String>> all = rowsOf(block);
                // with 2 clients, hold rows keep the load while the other client finishes a method (closed loop),
                // never with 1
                assertTrue(all.stream().allMatch(r -> List.of("warmup", "measure", "hold").contains(r.get("phase"))),
                        block);
                if (clients(block) == 1) {
                    assertEquals(15, all.size(), block);
                }
            }
        }

        @Test
        void everyRequestIsSentClosedLoopAndNamesItsReplicate() throws Exception {
            for (String block : sequential) {
                String rep = block.substring(block.length() - 1);
                assertTrue(rowsOf(block).stream().allMatch(r -> r.get("replicate").equals(rep)
                        && r.get("intended_us").equals(r.get("client_send_us"))),
                        block + ": closed loop, its replicate");
            }
        }

        @Test
        void withoutAFaultEveryRequestIsAnsweredByTheReplicaFirstAsked() throws Exception {
            for (String block : sequential) {
                for (List<Map<String, String>> mine : measuredByClient(block).values()) {
                    for (Map<String, String> r : mine) {
                        // No fault in this grid: every request is answered by the first replica asked, or (on a
                        // stalled machine, an attempt outlasting the client's invocation timeout) by the same primary
                        // again, after the manager declined the client's suspicion. Never by another replica.
                        assertTrue(r.get("outcome").equals("ok") || r.get("outcome").equals("retried")
                                && r.get("fault_id").isEmpty() && r.get("failover_us").length() > 0
                                && r.get("replica").equals(mine.get(0).get("replica")), block + " " + r);
                    }
                }
            }
        }

        @Test
        void everyReplyHasTheSizeItsBlockAsksFor() throws Exception {
            for (String block : sequential) {
                for (List<Map<String, String>> mine : measuredByClient(block).values()) {
                    for (Map<String, String> r : mine) {
                        assertEquals(block.contains("-r256-") ? "256" : "", r.get("reply_bytes"));
                    }
                }
            }
        }

        @Test
        void theServersProbesNestInsideTheClientsRoundTrip() throws Exception {
            for (String block : sequential) {
                for (List<Map<String, String>> mine : measuredByClient(block).values()) {
                    for (Map<String, String> r : mine) {
                        // One host, one clock: the probes nest inside the client's round trip.
                        assertTrue(us(r, "client_send_us") <= us(r, "server_recv_us"), r.toString());
                        assertTrue(us(r, "server_recv_us") <= us(r, "db_start_us"), r.toString());
                        assertTrue(us(r, "db_start_us") <= us(r, "db_end_us"), r.toString());
                        assertTrue(us(r, "db_end_us") <= us(r, "server_send_us"), r.toString());
                        assertTrue(us(r, "server_send_us") <= us(r, "client_recv_us"), r.toString());
                    }
                }
            }
        }

        @Test
        void aClientThinksTwentyMillisecondsBetweenRequestsInABlockWithThinkTime() throws Exception {
            for (String block : sequential) {
                for (List<Map<String, String>> mine : measuredByClient(block).values()) {
                    for (int i = 1; i < mine.size(); i++) {
                        if (block.contains("-t20-")) {
                            long gapMicros = us(mine.get(i), "client_send_us") - us(mine.get(i - 1), "client_recv_us");
                            assertTrue(gapMicros >= 20_000, block + ": think gap " + gapMicros + " µs < 20 ms");
                        }
                    }
                }
            }
        }

        @Test
        void theRunCompletes() {
            assertEquals("complete", manifest.path("status").asText());
        }

        @Test
        void theAuditPasses() {
            assertTrue(manifest.path("audit").path("passed").asBoolean());
        }

        @Test
        void theAuditChecksEveryStoredPostTheLabWarmUpsToo() throws Exception {
            long postsStored = 0;
            for (String block : sequential) {
                postsStored += rowsOf(block).stream().filter(r -> r.get("method").equals("postAuction")
                        && !r.get("outcome").startsWith("failed")).count();
            }
            // Every post is audited: measured, warm-up and hold posts of the blocks, and the lab warm-up's (2 clients
            // × 20 requests, half of them posts).
            assertEquals(postsStored + 20, manifest.path("audit").path("posts_checked").asInt());
        }

        @Test
        void theLabWarmUpSendsTwentyRequestsPerClient() throws Exception {
            assertEquals(40, rows(runDir.resolve("probes/warmup/lab-seg1.csv")).size());
            assertEquals(20, manifest.path("lab_warmup").get(0).path("requests_per_client").asInt());
        }

        @Test
        void theManifestRecordsTheSeedTheOrderAndTheRepeats() {
            JsonNode grid = manifest.path("grid");
            assertEquals(7, grid.path("seed").asLong());
            assertEquals("random", grid.path("order").asText());
            assertEquals(2, grid.path("repeat").asInt());
        }

        @Test
        void theBlocksRunInTheOrderTheManifestRecords() {
            List<String> schedule = schedule();
            List<String> done = new ArrayList<>();
            manifest.path("configs_done").forEach(n -> done.add(n.asText()));
            assertEquals(16, schedule.size());
            assertEquals(schedule, done, "the blocks ran in the recorded order");
            assertEquals(new TreeSet<>(sequential), new TreeSet<>(schedule));
        }

        @Test
        void theRandomOrderIsNotTheGridOrder() {
            assertFalse(schedule().equals(sequential), "random order is not grid order");
        }

        @Test
        void theAnalysisGivesTheFactorialAnova() throws Exception {
            assertTrue(summary(runDir, analyzed).path("anova_factorial").size() > 0,
                    "factorial ANOVA with replicates");
        }

        @Test
        void theAnalysisNamesTheRunsSeed() throws Exception {
            assertEquals(7, summary(runDir, analyzed).path("run").path("seed").asLong());
        }

        @Test
        void theAnalysisWritesEveryBlocksHistogramLog() throws Exception {
            assertAnalyzed(analyzed);
            for (String block : schedule()) {
                assertTrue(Files.exists(runDir.resolve("report/histograms/" + block + ".hlog")), block);
            }
        }
    }

    /**
     * Strategy and degree as factors on the shared lab (2 replicas): every (strategy, degree) level is a block of its
     * own with its own clients, a degree-1 block's view has the primary alone (active replication sends to it only),
     * the analysis tests both factors, and the lab gets its degree back. A degree above the lab's is one line.
     */
    @Nested
    @TestInstance(Lifecycle.PER_CLASS)
    class StrategyAndDegreeAsFactorsOfOneRunOnOneLab {
        private final Set<String> expected = new TreeSet<>();
        private Path runDir;
        private JsonNode manifest;
        /** The lab's status right after the run. */
        private ManagerStatus status;
        private int analyzed;

        @BeforeAll
        void runTheGridOnTheSharedLabAndAnalyzeIt() throws Exception {
            for (String c : List.of("c01", "c02")) {
                for (String s : List.of("preconnected", "active")) {
                    for (int n = 1; n <= 2; n++) {
                        for (int rep = 1; rep <= 2; rep++) {
                            expected.add(c + "-t00-rorig-s" + s + "-n" + n + "-rep" + rep + ".csv");
                        }
                    }
                }
            }
            runDir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "grid-infra-");
            assertEquals(0, ftlab("grid", "--clients", "1,2", "--think", "0", "--reply", "orig", "--posts", "4",
                    "--views", "4", "--warmup", "2", "--lab-warmup", "10", "--repeat", "2", "--seed", "3",
                    "--strategy", "preconnected,active", "--replicas", "1,2", "--lab", RunningLab.dir().toString(),
                    "--out", runDir.toString()));
            manifest = manifest(runDir);
            status = ManagerClient.forRun(RunningLab.dir()).status();
            analyzed = ftlab("analyze", runDir.toString());
        }

        private String strategyOf(String file) {
            return file.contains("-sactive-") ? "active" : "preconnected";
        }

        @Test
        void everyStrategyDegreeAndReplicateIsABlockOfItsOwn() throws Exception {
            assertEquals(expected, probeFiles(runDir));
        }

        @Test
        void withoutAFaultEveryRequestIsAnsweredOrRetried() throws Exception {
            for (String file : expected) {
                // no fault: answered (by the first replica, or another active one), or retried on a stalled machine
                assertTrue(rows(runDir.resolve("probes/" + file)).stream().allMatch(r -> r.get("fault_id").isEmpty()
                        && List.of("ok", "hedged", "retried").contains(r.get("outcome"))), file);
            }
        }

        @Test
        void aDegreeOneBlocksViewHasThePrimaryAloneEvenUnderActiveReplication() throws Exception {
            for (String file : expected) {
                if (file.contains("-n1-")) {
                    // the view has the primary alone: even active replication sends each request to one replica
                    assertTrue(rows(runDir.resolve("probes/" + file)).stream().allMatch(r -> r.get("sent_to")
                            .equals("1") || r.get("outcome").equals("retried")), file + ": one replica");
                }
            }
        }

        @Test
        void activeReplicationOfDegreeTwoSendsToBothReplicas() throws Exception {
            for (String file : expected) {
                if (!file.contains("-n1-") && strategyOf(file).equals("active")) {
                    assertTrue(rows(runDir.resolve("probes/" + file)).stream().anyMatch(r -> r.get("sent_to")
                            .equals("2")), file + ": to both replicas");
                }
            }
        }

        @Test
        void eachStrategyHasClientsOfItsOwn() throws Exception {
            Map<String, Set<String>> clientsByStrategy = new HashMap<>();
            for (String file : expected) {
                rows(runDir.resolve("probes/" + file)).forEach(r -> clientsByStrategy
                        .computeIfAbsent(strategyOf(file), k -> new TreeSet<>()).add(r.get("client")));
            }
            assertEquals(2, clientsByStrategy.get("active").size());
            assertEquals(2, clientsByStrategy.get("preconnected").size());
            assertTrue(Collections.disjoint(clientsByStrategy.get("active"), clientsByStrategy.get("preconnected")),
                    "each strategy's clients are its own");
        }

        @Test
        void theRunCompletes() {
            assertEquals("complete", manifest.path("status").asText());
        }

        @Test
        void theAuditPasses() {
            assertTrue(manifest.path("audit").path("passed").asBoolean());
        }

        @Test
        void theManifestRecordsTheLevelsOfBothFactors() {
            assertEquals("[\"preconnected\",\"active\"]", manifest.path("grid").path("strategy").toString());
            assertEquals("[1,2]", manifest.path("grid").path("replicas").toString());
        }

        @Test
        void theLabGetsItsDegreeBack() {
            assertEquals(2, status.targetDegree(), "the lab has its degree back");
            assertEquals(2, status.degree());
        }

        @Test
        void theAnalysisTestsBothFactorsAndTheirInteraction() throws Exception {
            Set<String> effects = new TreeSet<>();
            summary(runDir, analyzed).path("anova_factorial").forEach(e -> effects.add(e.path("effect").asText()));
            assertTrue(effects.containsAll(List.of("strategy", "replicas", "strategy:replicas")), effects.toString());
        }

        @Test
        void everySummaryRowNamesItsLevels() throws Exception {
            assertAnalyzed(analyzed);
            assertTrue(Files.readString(runDir.resolve("report/summary.csv")).lines().skip(1)
                    .allMatch(l -> l.endsWith(",preconnected,1,") || l.endsWith(",preconnected,2,")
                            || l.endsWith(",active,1,") || l.endsWith(",active,2,")), "every row names its levels");
        }

        @Test
        void aDegreeAboveTheLabsIsRefusedInOneLine() {
            StringWriter err = new StringWriter();
            Path out = runDir.resolveSibling(runDir.getFileName() + "-3");
            assertNotEquals(0, FtlabCommand.execute(new String[] {"grid", "--replicas", "2,3", "--lab",
                    RunningLab.dir().toString(), "--out", out.toString()},
                    new PrintWriter(new StringWriter(), true), new PrintWriter(err, true)));
            assertTrue(err.toString().contains("the lab in --lab has 2 replicas, so no block can have 3"),
                    err.toString());
            assertEquals(1, err.toString().strip().lines().count(), err.toString());
        }
    }

    /** Open-loop clients through a hang of the primary: they keep their schedule, and nothing is lost or duplicated. */
    @Nested
    @TestInstance(Lifecycle.PER_CLASS)
    class OpenLoopClientsThroughAHang {
        private Path runDir;
        private JsonNode manifest;
        private int analyzed;

        @BeforeAll
        void runTheOpenLoopGridThroughAHangAndAnalyzeIt() throws Exception {
            runDir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "grid-open-");
            assertEquals(0, ftlab("grid", "--clients", "2", "--arrival", "poisson", "--rate", "50", "--reply",
                    "orig", "--posts", "200", "--views", "0", "--warmup", "10", "--lab-warmup", "0", "--faults",
                    "hang", "--faults-per-config", "1", "--lab", RunningLab.dir().toString(), "--out",
                    runDir.toString()));
            manifest = manifest(runDir);
            analyzed = ftlab("analyze", runDir.toString());
        }

        private List<Map<String, String>> requests() throws Exception {
            return rows(runDir.resolve("probes/c02-rate50-rorig.csv"));
        }

        private String[] fault() throws Exception {
            return Files.readAllLines(runDir.resolve("faults.csv")).get(1).split(",", -1);
        }

        @Test
        void eachClientSendsEveryRequestOfItsSchedule() throws Exception {
            assertEquals(2 * 210, requests().size());
        }

        @Test
        void everyRequestCompletes() throws Exception {
            assertTrue(requests().stream().allMatch(r -> r.get("outcome").equals("ok")
                    || r.get("outcome").equals("retried")), "every request completed");
        }

        @Test
        void theInjectedFaultIsAHang() throws Exception {
            assertEquals("hang", fault()[1]);
        }

        @Test
        void requestsMeetTheHang() throws Exception {
            assertTrue(requests().stream().anyMatch(r -> r.get("outcome").equals("retried")), "requests met the hang");
        }

        @Test
        void noRequestIsSentBeforeItsTime() throws Exception {
            // No request was sent before its time, and each client's schedule is in order.
            for (Map<String, String> r : requests()) {
                assertTrue(us(r, "intended_us") <= us(r, "client_send_us"), r.toString());
            }
        }

        @Test
        void requestsScheduledDuringTheHangAreSentOnTimeAndEachWaitsForItsDetection() throws Exception {
            String[] fault = fault();
            long injected = Long.parseLong(fault[4]);
            long detected = Long.parseLong(fault[5]);
            // Requests the schedule put between the hang and its detection were sent on time to the stopped primary:
            // none could be answered before the hang was detected, so each shows that whole wait.
            List<Map<String, String>> duringHang = requests().stream().filter(r -> us(r, "intended_us") >= injected
                    && us(r, "intended_us") < detected && r.get("outcome").equals("retried")).toList();
            assertFalse(duringHang.isEmpty(), "requests were scheduled during the hang");
            for (Map<String, String> r : duringHang) {
                assertTrue(us(r, "client_recv_us") >= detected, r.toString());
            }
        }

        @Test
        void theManifestRecordsPoissonArrivals() {
            assertEquals("poisson", manifest.path("grid").path("arrival").asText());
        }

        @Test
        void theAuditPasses() {
            assertTrue(manifest.path("audit").path("passed").asBoolean(), manifest.path("audit").toString());
        }

        @Test
        void theAuditChecksEveryPost() {
            assertEquals(2 * 210, manifest.path("audit").path("posts_checked").asInt());
        }

        /** The summary's row of all methods together. */
        private JsonNode allMethods() throws Exception {
            JsonNode all = null;
            for (JsonNode c : summary(runDir, analyzed).path("configs")) {
                if (c.path("method").asText().equals("all")) {
                    all = c;
                }
            }
            return all;
        }

        @Test
        void latencyCountsFromTheIntendedSendTime() throws Exception {
            long maxWait = requests().stream().filter(r -> r.get("phase").equals("measure"))
                    .mapToLong(r -> us(r, "client_recv_us") - us(r, "intended_us")).max().orElseThrow();
            assertEquals(maxWait, allMethods().path("max_us").asLong(), "latency counts from the intended send time");
        }

        @Test
        void anOpenLoopRunIsNeverCorrected() throws Exception {
            assertTrue(allMethods().path("p99_corrected_us").isNull(), "an open-loop run is never corrected");
        }

        @Test
        void theAnalysisGivesTheServiceTimesP99() throws Exception {
            assertTrue(allMethods().has("service_p99_us"));
        }
    }

    /**
     * A grid on a lab of its own, stopped by SIGTERM once two configurations finished (every
     * process of the lab stops with it), then resumed on the running lab.
     * The abort and the resume happen once, before the tests; what the aborted run left is recorded before the resume
     * rewrites it, and each test checks one outcome of the sequence.
     */
    @Nested
    @TestInstance(Lifecycle.PER_CLASS)
    class AnAbortedRunResumed {
        private Path runDir;
        private int abortedExit;
        private boolean managerEndpointLeftAfterAbort;
        /** What {@link FtlabCommandIT#assertNoProcessUses} found right after the abort, if it failed. */
        private AssertionError processesLeftAfterAbort;
        private JsonNode aborted;
        private Set<String> keptAfterAbort;
        /** The partial files the aborted manifest lists that were on disk after the abort. */
        private final Set<String> partialsOnDiskAfterAbort = new TreeSet<>();
        private int resumedExit;
        private JsonNode resumed;

        @BeforeAll
        void abortTheGridThenResumeItOnTheRunningLab() throws Exception {
            runDir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "grid-abort-");
            Process grid = new ProcessBuilder(HOME.resolve("scripts/ftlab").toString(), "grid", "--clients", "1,2",
                    "--think", "0,20", "--reply", "orig,256", "--posts", "40", "--views", "40", "--lab-warmup", "0",
                    "--order", "sequential", "--spares", "0", "--out", runDir.toString())
                    .redirectErrorStream(true)
                    .redirectOutput(runDir.resolveSibling(runDir.getFileName() + ".log").toFile()).start();
            try {
                long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
                while (System.nanoTime() < deadline && (!Files.isDirectory(runDir.resolve("probes"))
                        || probeFiles(runDir).size() < 2)) {
                    Thread.sleep(100);
                }
                assertTrue(probeFiles(runDir).size() >= 2, "two configurations finished");
                new ProcessBuilder("kill", "-TERM", Long.toString(grid.pid())).start().waitFor();
                abortedExit = grid.waitFor();
            } finally {
                grid.destroyForcibly();
            }
            managerEndpointLeftAfterAbort = Files.exists(runDir.resolve(ManagerEndpoint.FILE));
            try {
                FtlabCommandIT.assertNoProcessUses(runDir);
            } catch (AssertionError left) {
                processesLeftAfterAbort = left;
            }
            aborted = manifest(runDir);
            keptAfterAbort = probeFiles(runDir);
            for (JsonNode partial : aborted.path("partial")) {
                if (Files.exists(runDir.resolve(partial.asText()))) {
                    partialsOnDiskAfterAbort.add(partial.asText());
                }
            }

            // resumed on the running lab: a lab of the same shape (2 replicas, the default knobs) as the first
            // segment's
            resumedExit = ftlab("grid", "--out", runDir.toString(), "--lab", RunningLab.dir().toString());
            resumed = manifest(runDir);
        }

        @Test
        void aGridStoppedBySigtermDoesNotExitAsACompleteOne() {
            assertNotEquals(0, abortedExit, "a grid stopped by SIGTERM does not exit as a complete one");
        }

        @Test
        void theAbortedRunsManagerGoesThroughItsStop() {
            assertFalse(managerEndpointLeftAfterAbort, "the manager went through its stop");
        }

        @Test
        void theAbortLeavesNoProcessUsingTheRunDirectory() {
            if (processesLeftAfterAbort != null) {
                throw processesLeftAfterAbort;
            }
        }

        @Test
        void theAbortedRunIsRecordedAsAborted() {
            assertEquals("aborted", aborted.path("status").asText());
        }

        @Test
        void theAbortStopsTheRunBeforeItsEnd() {
            assertTrue(keptAfterAbort.size() < 8, "aborted before the end: " + keptAfterAbort);
        }

        @Test
        void theAbortLeavesNoHalfWrittenFile() {
            assertFalse(keptAfterAbort.stream().anyMatch(f -> f.endsWith(".tmp")), "no half-written file: "
                    + keptAfterAbort);
        }

        @Test
        void theAbortedRunKeepsAProbeFileForEveryConfigurationItFinished() {
            assertEquals(keptAfterAbort.size(), aborted.path("configs_done").size());
        }

        @Test
        void theInterruptedBlocksCompletedRequestsAreKeptApart() {
            // The interrupted block's completed requests are kept apart, so the audit accounts for every stored post.
            for (JsonNode partial : aborted.path("partial")) {
                assertTrue(partialsOnDiskAfterAbort.contains(partial.asText()), partial.asText());
                assertFalse(keptAfterAbort.contains(Path.of(partial.asText()).getFileName().toString()));
            }
        }

        @Test
        void theAbortedRunPassesTheAudit() {
            assertTrue(aborted.path("audit").path("passed").asBoolean(), aborted.path("audit").toString());
        }

        @Test
        void resumingOnTheRunningLabSucceeds() {
            assertEquals(0, resumedExit);
        }

        @Test
        void theResumedRunCompletesTheSameSetOfConfigurations() throws Exception {
            assertEquals(TINY.stream().map(id -> id + ".csv").collect(Collectors.toCollection(TreeSet::new)),
                    probeFiles(runDir));
            assertEquals(8, resumed.path("configs_done").size());
        }

        @Test
        void theResumedRunIsComplete() {
            assertEquals("complete", resumed.path("status").asText());
        }

        @Test
        void theResumedRunHasTwoSegments() {
            assertEquals(2, resumed.path("segments").size());
        }

        @Test
        void theAbortedAndResumedRunsHistoryIsOneLinearizableHistory() {
            InProcessFtlab.Result check = InProcessFtlab.run("check", runDir.toString());
            assertEquals(0, check.code(), check.out() + check.err());
            assertTrue(check.out().contains("posted auctions (auction)): VALID"), check.out());
        }
    }

    /**
     * The bids workload: clients race on shared hot auctions through a crash of the primary, and the checker holds the
     * database's bids, leaders and prices to every reply the clients completed (its failures: BidsCheckerTest).
     */
    @Nested
    @TestInstance(Lifecycle.PER_CLASS)
    class ARaceOnSharedHotAuctionsThroughACrash {
        private Path runDir;
        private JsonNode manifest;

        @BeforeAll
        void runTheBidsWorkloadThroughACrash() throws Exception {
            runDir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "grid-bids-");
            assertEquals(0, ftlab("grid", "--bids", "150", "--hot-auctions", "2", "--clients", "3", "--think", "0",
                    "--warmup", "0", "--lab-warmup", "0", "--faults", "crash", "--faults-per-config", "1",
                    "--lab", RunningLab.dir().toString(), "--out", runDir.toString()));
            manifest = manifest(runDir);
        }

        private List<Map<String, String>> requests() throws Exception {
            return rows(runDir.resolve("probes/c03-t00-rorig.csv"));
        }

        /**
         * The injected faults' rows of faults.csv: a failure the lab detected by itself (a spare suspected on a
         * loaded machine) is a row without a kind, and not one of them.
         */
        private List<String> faults() throws Exception {
            return Files.readAllLines(runDir.resolve("faults.csv")).stream().skip(1)
                    .filter(line -> !line.split(",", -1)[1].isEmpty()).toList();
        }

        @Test
        void theManifestRecordsTheBidsWorkloadAndItsHotAuctions() {
            assertEquals("bids", manifest.path("workload").asText());
            assertEquals(2, manifest.path("workload_parameters").path("hot_auctions").asInt());
        }

        @Test
        void theAuditPasses() {
            assertTrue(manifest.path("audit").path("passed").asBoolean(), manifest.path("audit").toString());
        }

        @Test
        void onlyBidsAreSent() throws Exception {
            assertTrue(requests().stream().allMatch(r -> r.get("method").equals("offerBid")), "only bids are sent");
        }

        @Test
        void everyClientSendsItsHundredAndFiftyMeasuredBids() throws Exception {
            assertEquals(450, requests().stream().filter(r -> r.get("phase").equals("measure")).count());
        }

        @Test
        void theAuditChecksEveryCompletedBidHeldOnesToo() throws Exception {
            assertEquals(requests().size(), manifest.path("audit").path("posts_checked").asInt(),
                    "every completed bid, held ones too, is checked");
        }

        @Test
        void theRaceIsLinearizableThroughTheCrash() {
            InProcessFtlab.Result check = InProcessFtlab.run("check", runDir.toString());
            assertEquals(0, check.code(), check.out() + check.err());
            assertTrue(check.out().contains("auction race (bids)): VALID"), check.out());
        }

        @Test
        void theCrashIsInjected() throws Exception {
            List<String> faults = faults();
            assertEquals(1, faults.size(), "the crash was injected: " + faults);
        }

        @Test
        void bidsMeetTheCrash() throws Exception {
            String faultId = faults().get(0).split(",", -1)[0];
            assertTrue(requests().stream().anyMatch(r -> r.get("fault_id").equals(faultId)), "bids met the crash");
        }

        @Test
        void theDatabaseWorkOfEveryRequestIsRecorded() throws Exception {
            assertEquals(requests().size(), DatabaseWorkRecord.readFrom(runDir).requests());
        }

        @Test
        void aBidIsATransactionOfSeveralStatementsOnTheStatelessTier() throws Exception {
            DatabaseWorkRecord db = DatabaseWorkRecord.readFrom(runDir);
            assertTrue(db.statementsPerRequest() > 1 && db.perRequest("Com_commit") > 0,
                    "a bid is a transaction of several statements on the stateless tier: " + db);
        }
    }

    /**
     * A crash of the primary on the running lab: the fault is logged and repaired, the requests it met are joined to
     * it, the audit passes, the run keeps the detector's and the crashed replica's records, and the lab keeps running.
     */
    @Nested
    @TestInstance(Lifecycle.PER_CLASS)
    class ACrashOfThePrimaryOnTheRunningLab {
        private Path runDir;
        private JsonNode manifest;
        /** The lab's status right after the run. */
        private ManagerStatus status;

        @BeforeAll
        void runTheGridThroughACrash() throws Exception {
            runDir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "grid-crash-");
            assertEquals(0, ftlab("grid", "--clients", "2", "--think", "0", "--reply", "orig", "--posts", "150",
                    "--views", "50", "--warmup", "0", "--lab-warmup", "0", "--faults", "crash", "--faults-per-config",
                    "1", "--observe", "on", "--lab", RunningLab.dir().toString(), "--out", runDir.toString()));
            manifest = manifest(runDir);
            status = ManagerClient.forRun(RunningLab.dir()).status();
        }

        private List<String> faultLines() throws Exception {
            return Files.readAllLines(runDir.resolve("faults.csv"));
        }

        private String[] fault() throws Exception {
            return faultLines().get(1).split(",", -1);
        }

        private List<Map<String, String>> requests() throws Exception {
            return rows(runDir.resolve("probes/c02-t00-rorig.csv"));
        }

        @Test
        void theFaultIsLoggedInFaultsCsv() throws Exception {
            List<String> faults = faultLines();
            assertEquals(FaultsCsv.HEADER, faults.get(0));
            assertEquals(2, faults.size(), faults.toString());
            String[] fault = fault();
            assertEquals("crash", fault[1]);
            assertEquals("primary", fault[2]);
        }

        @Test
        void theFaultIsInjectedBeforeItIsDetected() throws Exception {
            String[] fault = fault();
            assertTrue(Long.parseLong(fault[4]) <= Long.parseLong(fault[5]), "injected before detected");
        }

        @Test
        void theCrashMeetsTheSpareTheFaultRunBootedFirst() throws Exception {
            assertEquals("1", fault()[8], "a fault run starts with its spare booted, so the crash met one");
        }

        @Test
        void theManagerReplacesTheCrashedReplica() throws Exception {
            assertEquals("replaced", fault()[10], "a crash is repaired by the manager");
        }

        @Test
        void oneReplicaFails() throws Exception {
            assertEquals("1", fault()[14], "one replica failed");
        }

        @Test
        void theFaultNamesTheBackupPromotedInThePrimarysPlace() throws Exception {
            String[] fault = fault();
            // the backup promoted in its place
            assertFalse(fault[15].isEmpty() || fault[15].equals(fault[3]), "the promoted replica: "
                    + faultLines().get(1));
        }

        @Test
        void theFaultGivesThePromotedReplicasShareOfTheRequestPathAtTheTopTier() throws Exception {
            String[] fault = fault();
            // how much of the request path the promoted replica had compiled at the top tier (where a primary had
            // compiled any of it by then: the test lab's warm-up is short)
            assertTrue(fault[16].isEmpty()
                    || Double.parseDouble(fault[16]) >= 0 && Double.parseDouble(fault[16]) <= 1,
                    "its share of the request path at the top tier: " + faultLines().get(1));
        }

        @Test
        void everyClientSendsItsMeasuredRequests() throws Exception {
            assertEquals(400, requests().stream().filter(r -> r.get("phase").equals("measure")).count());
        }

        @Test
        void withoutAWarmUpThereAreMeasuredAndHoldRowsOnly() throws Exception {
            assertTrue(requests().stream().allMatch(r -> r.get("phase").equals("measure")
                    || r.get("phase").equals("hold")), "no warm-up asked for: measured and hold rows only");
        }

        @Test
        void everyRequestCompletes() throws Exception {
            assertTrue(requests().stream().allMatch(r -> r.get("outcome").equals("ok")
                    || r.get("outcome").equals("retried")), "every request completed");
        }

        @Test
        void everyFaultyRequestIsJoinedToItsFault() throws Exception {
            String faultId = fault()[0];
            assertTrue(requests().stream().anyMatch(r -> r.get("fault_id").equals(faultId)),
                    "requests joined to the fault");
        }

        @Test
        void aRetriedRequestRecordsItsDetectionFailoverAndRetry() throws Exception {
            requests().stream().filter(r -> r.get("phase").equals("measure") && r.get("outcome").equals("retried"))
                    .forEach(r -> {
                        assertFalse(r.get("detect_us").isEmpty());
                        assertFalse(r.get("failover_us").isEmpty());
                        assertFalse(r.get("retry_us").isEmpty());
                    });
        }

        @Test
        void theManifestNamesTheFaultKind() {
            assertEquals("crash", manifest.path("faults").path("kinds").get(0).asText());
        }

        @Test
        void theScheduleTheRunRanIsKeptWithIt() throws Exception {
            assertTrue(Files.readString(runDir.resolve("faults.schedule")).contains("crash"),
                    "the schedule the run ran is kept with it");
        }

        @Test
        void theAuditPasses() {
            assertTrue(manifest.path("audit").path("passed").asBoolean(), manifest.path("audit").toString());
        }

        @Test
        void theAuditChecksEveryPostHeldOnesToo() throws Exception {
            // 150 measured posts per client, and the hold posts of the client that finished first
            assertEquals(requests().stream().filter(r -> r.get("method").equals("postAuction")).count(),
                    manifest.path("audit").path("posts_checked").asInt());
            assertTrue(manifest.path("audit").path("posts_checked").asInt() >= 300);
        }

        @Test
        void theRunNamesTheRunningLabAsItsTopology() {
            // on a running lab: the run keeps its part of the detector's log, and leaves the lab running for the next
            assertTrue(manifest.path("topology").get(0).asText().contains("the running lab in " + RunningLab.dir()),
                    manifest.path("topology").toString());
        }

        @Test
        void theDetectorLogsTheCrash() throws Exception {
            String[] fault = fault();
            String crashed = fault[3];
            Predicate<String> crashLine = l -> l.contains("failure replica=" + crashed + " ")
                    && l.contains("kind=crash");
            FailureRecord failure = status.failures().stream().filter(f -> f.faultId().equals(fault[0])).findFirst()
                    .orElseThrow();
            if (failure.source() == FailureRecord.Source.FAULT_DETECTOR) {
                assertTrue(Files.readString(runDir.resolve("fd/detector.log")).lines().anyMatch(crashLine),
                        "the run's detector log has the crash of " + crashed);
            } else {
                // A client whose request met the dead primary reported it first (a loaded machine can delay the
                // detector's suspicion), and the run may end before the detector logs it: the lab's log gets it later.
                long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (Files.readString(RunningLab.dir().resolve("fd/detector.log")).lines().noneMatch(crashLine)
                        && System.nanoTime() < until) {
                    Thread.sleep(200);
                }
                assertTrue(Files.readString(RunningLab.dir().resolve("fd/detector.log")).lines().anyMatch(crashLine),
                        "the detector found the crash of " + crashed + " after the client that reported it");
            }
        }

        @Test
        void theCrashedReplicasEventsAreKeptWithTheRun() throws Exception {
            String crashed = fault()[3];
            // what the crashed primary recorded until its SIGKILL is kept with the run, beside the living processes'
            // events
            JsonNode segment = manifest.path("segments").get(0);
            JsonNode events = segment.path("events");
            if (!events.has(crashed)) {
                // a JVM writes what it recorded about once a second: a crash that soon after the run's start took
                // it along, and the run says so
                List<String> failed = new ArrayList<>();
                segment.path("events_failed").forEach(line -> failed.add(line.asText()));
                assertTrue(failed.contains(crashed + ": gone; it died before writing to disk anything it recorded "
                        + "since then"), "the crashed replica's events are in the manifest, or why not: " + segment);
                return;
            }
            try (RecordingFile in = new RecordingFile(runDir.resolve(events.path(crashed).asText()))) {
                assertTrue(in.hasMoreEvents(), "and hold events");
            }
        }

        @Test
        void theLabStillAnswersAfterTheRun() throws Exception {
            assertTrue(ManagerClient.forRun(RunningLab.dir()).status().targetDegree() == 2, "the lab still answers");
        }
    }

    /**
     * A full collection forced in the primary, a lock held in the database and the database's commits blocked (a
     * backup's last stage) under load: the analysis names each as the cause of the requests it delayed, with evidence,
     * and judges each injected stall against what was named.
     */
    @Nested
    @TestInstance(Lifecycle.PER_CLASS)
    class AForcedCollectionAHeldLockAndBlockedCommitsUnderLoad {
        private Path runDir;
        private JsonNode manifest;
        private JsonNode events;
        private int analyzed;

        @BeforeAll
        void runTheGridWithTheThreeStallsAndAnalyzeIt() throws Exception {
            runDir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "grid-gc-");
            Path schedule = runDir.resolveSibling(runDir.getFileName() + ".faults");
            Files.writeString(schedule, "c1@25%  gc  primary\nc1@55%  db-lock  db  200ms\n"
                    + "c1@85%  db-backup  db  200ms\n");
            assertEquals(0, ftlab("grid", "--clients", "2", "--think", "0", "--reply", "orig", "--posts", "400",
                    "--views", "0", "--warmup", "10", "--lab-warmup", "20", "--faults-file", schedule.toString(),
                    "--observe", "on", "--lab", RunningLab.dir().toString(), "--out", runDir.toString()));
            manifest = manifest(runDir);
            events = manifest.path("segments").get(0).path("events");
            analyzed = ftlab("analyze", runDir.toString());
        }

        /** The forced collection, as faults.csv logs it. */
        private FaultRecord gc() throws Exception {
            return FaultsCsv.readAll(runDir).get(0);
        }

        private List<JsonNode> outliers() throws Exception {
            List<JsonNode> outliers = new ArrayList<>();
            summary(runDir, analyzed).path("outliers").forEach(outliers::add);
            return outliers;
        }

        /** The outliers named as delayed by the forced collection in the primary. */
        private List<JsonNode> forced() throws Exception {
            String primary = gc().replica();
            return outliers().stream().filter(o -> o.path("cause").asText().equals("gc-pause(" + primary + ")")
                    && o.path("evidence").get(0).path("detail").asText().contains("Diagnostic Command")).toList();
        }

        private List<JsonNode> locked() throws Exception {
            return outliers().stream().filter(o -> o.path("cause").asText().equals("db-lock-wait(db)")).toList();
        }

        private List<JsonNode> blockedAtCommit() throws Exception {
            return outliers().stream().filter(o -> o.path("cause").asText().equals("db-mdl-wait(db)")).toList();
        }

        private JsonNode injectedStalls() throws Exception {
            return summary(runDir, analyzed).path("injected_stalls");
        }

        @Test
        void theEventsOfTheHarnessTheManagerTheDetectorAndThePrimaryAreKept() throws Exception {
            for (String process : List.of("harness", "rm", "fd")) {
                assertTrue(Files.isRegularFile(runDir.resolve(events.path(process).asText())),
                        process + "'s events are kept: " + events);
            }
            assertTrue(Files.isRegularFile(runDir.resolve(events.path(gc().replica()).asText())),
                    "the primary's events");
        }

        @Test
        void everyProcessWritesItsEvents() {
            assertEquals(0, manifest.path("segments").get(0).path("events_failed").size(), manifest.toString());
        }

        @Test
        void theAuditPasses() {
            assertTrue(manifest.path("audit").path("passed").asBoolean(), manifest.path("audit").toString());
        }

        @Test
        void theThreeStallsAreLoggedAsFaults() throws Exception {
            List<FaultRecord> faults = FaultsCsv.readAll(runDir);
            assertEquals(3, faults.size(), faults.toString());
        }

        @Test
        void theAnalysisReadsTheRecordedEventsWithoutAProblem() throws Exception {
            JsonNode summary = summary(runDir, analyzed);
            assertTrue(summary.path("events").path("recorded").asBoolean());
            assertEquals(0, summary.path("events").path("problems").size(), summary.path("events").toString());
        }

        @Test
        void theOutliersAreTheTopOnePercentOfRequests() throws Exception {
            assertEquals(8, outliers().size(), "the top 1% of 800 requests");
        }

        @Test
        void everyOutlierHasAVerdict() throws Exception {
            assertTrue(outliers().stream().allMatch(o -> !o.path("cause").asText().isEmpty()),
                    "every one has a verdict");
        }

        @Test
        void aRequestTheForcedCollectionDelayedIsNamed() throws Exception {
            assertFalse(forced().isEmpty(), "a request the forced collection delayed is named: " + outliers());
        }

        @Test
        void theForcedCollectionsEvidenceOverlapsEachRequestItIsNamedFor() throws Exception {
            for (JsonNode o : forced()) {
                long send = o.path("send_epoch_us").asLong();
                long recv = send + o.path("latency_us").asLong();
                JsonNode pause = o.path("evidence").get(0);
                long pauseStart = pause.path("start_epoch_us").asLong();
                assertTrue(pauseStart < recv && pauseStart + pause.path("duration_us").asLong() > send,
                        "its evidence overlaps it: " + o);
            }
        }

        @Test
        void theForcedCollectionsEvidenceIsTheInjectedCollection() throws Exception {
            FaultRecord gc = gc();
            for (JsonNode o : forced()) {
                // the forced collection lies between the moment its making began and the moment it was over
                long pauseStart = o.path("evidence").get(0).path("start_epoch_us").asLong();
                assertTrue(gc.injectedUs() <= pauseStart && pauseStart <= gc.repairedUs(),
                        "and is the injected one: " + o + " " + gc);
            }
        }

        @Test
        void theForcedCollectionExplainsAtLeastHalfOfTheExcessOfEachRequestItIsNamedFor() throws Exception {
            for (JsonNode o : forced()) {
                assertTrue(o.path("explained_us").asLong() * 2 >= o.path("excess_us").asLong(), o.toString());
            }
        }

        @Test
        void aRequestTheHeldLockDelayedIsNamed() throws Exception {
            assertFalse(locked().isEmpty(), "a request the held lock delayed is named: " + outliers());
        }

        @Test
        void theLocksEvidenceIsTheDatabasesRowLockWaitOfTheRequestsOwnConnection() throws Exception {
            // the lock: its waits are the database's, joined to each request by its own connection
            for (JsonNode o : locked()) {
                assertTrue(o.path("evidence").get(0).path("detail").asText().contains("waited for a row lock"),
                        o.toString());
            }
        }

        @Test
        void theRunJudgesEachInjectedStallByTheCauseItShouldBeNamedAs() throws Exception {
            // and the run judges each injected stall against what was named
            JsonNode injected = injectedStalls();
            assertEquals(3, injected.size(), injected.toString());
            assertEquals("gc-pause(" + gc().replica() + ")", injected.get(0).path("expected_cause").asText());
            assertEquals("db-lock-wait(db)", injected.get(1).path("expected_cause").asText());
            assertEquals("db-mdl-wait(db)", injected.get(2).path("expected_cause").asText());
        }

        @Test
        void theInjectedCollectionIsNamed() throws Exception {
            JsonNode injected = injectedStalls();
            assertTrue(injected.get(0).path("named").asInt() > 0, "the collection is named: " + injected);
        }

        @Test
        void theInjectedLockIsFound() throws Exception {
            JsonNode injected = injectedStalls();
            assertTrue(injected.get(1).path("found").asBoolean(), "the lock is found: " + injected);
        }

        @Test
        void aRequestTheBlockedCommitsDelayedIsNamed() throws Exception {
            assertFalse(blockedAtCommit().isEmpty(), "a request the blocked commits delayed is named: " + outliers());
        }

        @Test
        void theBlockedCommitsEvidenceIsTheDatabasesMetadataLockWaitOfTheRequestsOwnConnectionAtItsCommit()
                throws Exception {
            for (JsonNode o : blockedAtCommit()) {
                String detail = o.path("evidence").get(0).path("detail").asText();
                assertTrue(detail.contains("waiting for backup lock") && detail.toLowerCase(Locale.ROOT)
                        .contains("commit"), o.toString());
            }
        }

        @Test
        void theBlockedCommitsAreFound() throws Exception {
            JsonNode injected = injectedStalls();
            assertTrue(injected.get(2).path("found").asBoolean(), "the blocked commits are found: " + injected);
        }

        @Test
        void theReportDrawsTheSlowestBlocksBreakdownAndTimelineWithEveryOtherPlot() throws Exception {
            assertAnalyzed(analyzed);
            // the report draws the slowest block's per-request breakdown and timeline, with every other plot
            HtmlReportIT.Browser page = HtmlReportIT.open(runDir.resolve("report/index.html"), runDir);
            assertTrue(page.dom().contains("id=\"outlier-spans\"") && page.dom().contains("id=\"slow-timeline\""));
            assertEquals(HtmlReportIT.attribute(page.dom(), "data-plots-expected"),
                    HtmlReportIT.attribute(page.dom(), "data-plots-rendered"), page.dom());
        }
    }

    /**
     * The observation-cost bench on the running lab: observation switched off for alternate blocks reads no scheduler
     * counters then, and the lab records events again after.
     */
    @Nested
    @TestInstance(Lifecycle.PER_CLASS)
    class ObservationSwitchedOffForAlternateBlocks {
        private Path benchDir;
        private final StringWriter progress = new StringWriter();
        private AttributionBench.ObservationCost cost;
        /** The events the lab's JVMs wrote when asked right after the bench. */
        private EventDump.Files written;

        @BeforeAll
        void runTheObservationCostBenchThenDumpTheLabsEvents() throws Exception {
            benchDir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "observe-cost-");
            try (ManagedLab lab = ManagedLab.attach(RunningLab.dir())) {
                cost = new AttributionBench(lab, benchDir, new PrintWriter(progress)).cost(1, 100);
                // the lab observes again: every recording JVM writes its events
                written = lab.manager().dumpEvents(benchDir.resolve("events"), "-after",
                        MicroClock.nowEpochMicros() - 60_000_000L);
            }
        }

        private Path csv(int rep) throws Exception {
            try (Stream<Path> files = Files.list(benchDir.resolve("observation-cost/probes"))) {
                String suffix = "-rep" + rep + ".csv";
                return files.filter(f -> f.getFileName().toString().endsWith(suffix)).findFirst().orElseThrow();
            }
        }

        @Test
        void theFirstReplicateIsObservedAndTheSecondIsNot() {
            assertEquals(List.of(true, false), cost.blocks().stream().sorted(
                    Comparator.comparingInt(AttributionBench.CostBlock::replicate))
                    .map(AttributionBench.CostBlock::observed).toList(), progress.toString());
        }

        @Test
        void bothBlocksHaveMeasuredRows() throws Exception {
            for (int rep = 1; rep <= 2; rep++) {
                Path csv = csv(rep);
                assertTrue(ProbeFile.read(csv).size > 0, "measured rows: " + csv);
            }
        }

        @Test
        void anObservedBlockReadsTheClientsAndTheReplicasSchedulerCounters() throws Exception {
            ProbeFile block = ProbeFile.read(csv(1));
            long clientRead = Arrays.stream(block.clientRunQueueUs).filter(v -> v >= 0).count();
            long serverRead = Arrays.stream(block.serverRunQueueUs).filter(v -> v >= 0).count();
            assertEquals(block.size, clientRead, "an observed block reads the client's counters");
            assertTrue(serverRead > 0, "and the replica's");
        }

        @Test
        void anUnobservedBlockReadsNoSchedulerCounters() throws Exception {
            ProbeFile block = ProbeFile.read(csv(2));
            long clientRead = Arrays.stream(block.clientRunQueueUs).filter(v -> v >= 0).count();
            long serverRead = Arrays.stream(block.serverRunQueueUs).filter(v -> v >= 0).count();
            assertEquals(0, clientRead, "an unobserved block reads no client's counters");
            assertEquals(0, serverRead, "nor the replica's");
        }

        @Test
        void everyRecordingProcessWritesItsEventsAgainAfter() {
            assertTrue(written.failed().isEmpty(), written.failures().toString());
            assertTrue(written.written().keySet().containsAll(List.of("rm", "fd")), written.toString());
            assertTrue(written.written().keySet().stream().anyMatch(p -> p.matches("r\\d+")), written.toString());
        }
    }
}
