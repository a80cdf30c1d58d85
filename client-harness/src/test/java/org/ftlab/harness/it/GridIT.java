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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import jdk.jfr.consumer.RecordingFile;
import org.ftlab.auction.api.MicroClock;
import org.ftlab.harness.bench.AttributionBench;
import org.ftlab.harness.cli.FtlabCommand;
import org.ftlab.harness.grid.RunDirectory;
import org.ftlab.harness.lab.ManagedLab;
import org.ftlab.harness.lab.ManagerClient;
import org.ftlab.harness.probe.FaultRecord;
import org.ftlab.harness.probe.FaultsCsv;
import org.ftlab.harness.probe.ProbeFile;
import org.ftlab.harness.probe.ProbeTable;
import org.ftlab.rm.api.EventDump;
import org.ftlab.rm.api.FailureRecord;
import org.ftlab.rm.api.ManagerEndpoint;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code ftlab grid} end to end on a tiny grid: files, rows, timestamps, think time, abort and resume, faults. The runs
 * that need no lab of their own run one after another on the test run's {@link RunningLab} ({@code --lab}).
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

    /**
     * One tiny grid, replicated (2 × the 8 configurations) in the seeds' random order: every block's probe file is
     * whole and honours think time and reply size, the order run is the one recorded, and the analysis gives the
     * factorial ANOVA.
     */
    @Test
    void tinyReplicatedGridWritesEveryBlockWholeInTheRecordedRandomOrderAndGivesTheFactorialAnova() throws Exception {
        Path runDir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "grid-");
        assertEquals(0, ftlab("grid", "--clients", "1,2", "--think", "0,20", "--reply", "orig,256", "--posts", "6",
                "--views", "6", "--warmup", "3", "--lab-warmup", "20", "--repeat", "2", "--order", "random",
                "--seed", "7", "--lab", RunningLab.dir().toString(), "--out", runDir.toString()));

        List<String> sequential = new ArrayList<>();
        for (int rep = 1; rep <= 2; rep++) {
            for (String id : new TreeSet<>(TINY)) {
                sequential.add(id + "-rep" + rep);
            }
        }
        assertEquals(sequential.stream().map(b -> b + ".csv").collect(Collectors.toCollection(TreeSet::new)),
                probeFiles(runDir));
        long postsStored = 0;
        for (String block : sequential) {
            List<Map<String, String>> all = rows(runDir.resolve("probes/" + block + ".csv"));
            int clients = block.startsWith("c02") ? 2 : 1;
            String rep = block.substring(block.length() - 1);
            // each client: 3 warm-up requests first, then 12 measured ones; with 2 clients, hold rows keep the load
            // while the other client finishes a method (closed loop), never with 1
            assertEquals(clients * 3, all.stream().filter(r -> r.get("phase").equals("warmup")).count(), block);
            assertEquals(clients * 12, all.stream().filter(r -> r.get("phase").equals("measure")).count(), block);
            assertTrue(all.stream().allMatch(r -> List.of("warmup", "measure", "hold").contains(r.get("phase"))),
                    block);
            if (clients == 1) {
                assertEquals(15, all.size(), block);
            }
            postsStored += all.stream().filter(r -> r.get("method").equals("postAuction")
                    && !r.get("outcome").startsWith("failed")).count();
            List<Map<String, String>> rows = all.stream().filter(r -> r.get("phase").equals("measure")).toList();
            assertTrue(all.stream().allMatch(r -> r.get("replicate").equals(rep)
                    && r.get("intended_us").equals(r.get("client_send_us"))), block + ": closed loop, its replicate");
            Map<String, List<Map<String, String>>> byClient = rows.stream()
                    .collect(Collectors.groupingBy(r -> r.get("client")));
            assertEquals(clients, byClient.size(), block);
            for (List<Map<String, String>> mine : byClient.values()) {
                assertEquals(6, mine.stream().filter(r -> r.get("method").equals("postAuction")).count());
                assertEquals(6, mine.stream().filter(r -> r.get("method").equals("viewAuction")).count());
                for (int i = 0; i < mine.size(); i++) {
                    Map<String, String> r = mine.get(i);
                    // No fault in this grid: every request is answered by the first replica asked, or (on a
                    // stalled machine, an attempt outlasting the client's invocation timeout) by the same primary
                    // again, after the manager declined the client's suspicion. Never by another replica.
                    assertTrue(r.get("outcome").equals("ok") || r.get("outcome").equals("retried")
                            && r.get("fault_id").isEmpty() && r.get("failover_us").length() > 0
                            && r.get("replica").equals(mine.get(0).get("replica")), block + " " + r);
                    assertEquals(block.contains("-r256-") ? "256" : "", r.get("reply_bytes"));
                    // One host, one clock: the probes nest inside the client's round trip.
                    assertTrue(us(r, "client_send_us") <= us(r, "server_recv_us"), r.toString());
                    assertTrue(us(r, "server_recv_us") <= us(r, "db_start_us"), r.toString());
                    assertTrue(us(r, "db_start_us") <= us(r, "db_end_us"), r.toString());
                    assertTrue(us(r, "db_end_us") <= us(r, "server_send_us"), r.toString());
                    assertTrue(us(r, "server_send_us") <= us(r, "client_recv_us"), r.toString());
                    if (i > 0 && block.contains("-t20-")) {
                        long gapMicros = us(r, "client_send_us") - us(mine.get(i - 1), "client_recv_us");
                        assertTrue(gapMicros >= 20_000, block + ": think gap " + gapMicros + " µs < 20 ms");
                    }
                }
            }
        }
        JsonNode manifest = new ObjectMapper().readTree(runDir.resolve("manifest.json").toFile());
        assertEquals("complete", manifest.path("status").asText());
        assertTrue(manifest.path("audit").path("passed").asBoolean());
        // Every post is audited: measured, warm-up and hold posts of the blocks, and the lab warm-up's (2 clients × 20
        // requests, half of them posts).
        assertEquals(postsStored + 20, manifest.path("audit").path("posts_checked").asInt());
        assertEquals(40, rows(runDir.resolve("probes/warmup/lab-seg1.csv")).size());
        assertEquals(20, manifest.path("lab_warmup").get(0).path("requests_per_client").asInt());

        JsonNode grid = manifest.path("grid");
        assertEquals(7, grid.path("seed").asLong());
        assertEquals("random", grid.path("order").asText());
        assertEquals(2, grid.path("repeat").asInt());
        List<String> schedule = new ArrayList<>();
        grid.path("schedule").forEach(n -> schedule.add(n.asText()));
        List<String> done = new ArrayList<>();
        manifest.path("configs_done").forEach(n -> done.add(n.asText()));
        assertEquals(16, schedule.size());
        assertEquals(schedule, done, "the blocks ran in the recorded order");
        assertEquals(new TreeSet<>(sequential), new TreeSet<>(schedule));
        assertFalse(schedule.equals(sequential), "random order is not grid order");
        assertEquals(0, ftlab("analyze", runDir.toString()));
        JsonNode summary = new ObjectMapper().readTree(runDir.resolve("report/summary.json").toFile());
        assertTrue(summary.path("anova_factorial").size() > 0, "factorial ANOVA with replicates");
        assertEquals(7, summary.path("run").path("seed").asLong());
        for (String block : schedule) {
            assertTrue(Files.exists(runDir.resolve("report/histograms/" + block + ".hlog")), block);
        }
    }

    /**
     * Strategy and degree as factors on the shared lab (2 replicas): every (strategy, degree) level is a block of its
     * own with its own clients, a degree-1 block's view has the primary alone (active replication sends to it only),
     * the analysis tests both factors, and the lab gets its degree back. A degree above the lab's is one line.
     */
    @Test
    void strategyAndDegreeAreFactorsOfOneRunOnOneLabWhichGetsItsDegreeBack() throws Exception {
        Path runDir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "grid-infra-");
        assertEquals(0, ftlab("grid", "--clients", "1,2", "--think", "0", "--reply", "orig", "--posts", "4",
                "--views", "4", "--warmup", "2", "--lab-warmup", "10", "--repeat", "2", "--seed", "3",
                "--strategy", "preconnected,active", "--replicas", "1,2", "--lab", RunningLab.dir().toString(),
                "--out", runDir.toString()));
        Set<String> expected = new TreeSet<>();
        for (String c : List.of("c01", "c02")) {
            for (String s : List.of("preconnected", "active")) {
                for (int n = 1; n <= 2; n++) {
                    for (int rep = 1; rep <= 2; rep++) {
                        expected.add(c + "-t00-rorig-s" + s + "-n" + n + "-rep" + rep + ".csv");
                    }
                }
            }
        }
        assertEquals(expected, probeFiles(runDir));
        Map<String, Set<String>> clientsByStrategy = new HashMap<>();
        for (String file : expected) {
            List<Map<String, String>> rows = rows(runDir.resolve("probes/" + file));
            String strategy = file.contains("-sactive-") ? "active" : "preconnected";
            rows.forEach(r -> clientsByStrategy.computeIfAbsent(strategy, k -> new TreeSet<>()).add(r.get("client")));
            // no fault: answered (by the first replica, or another active one), or retried on a stalled machine
            assertTrue(rows.stream().allMatch(r -> r.get("fault_id").isEmpty() && List.of("ok", "hedged", "retried")
                    .contains(r.get("outcome"))), file);
            if (file.contains("-n1-")) {
                // the view has the primary alone: even active replication sends each request to one replica
                assertTrue(rows.stream().allMatch(r -> r.get("sent_to").equals("1")
                        || r.get("outcome").equals("retried")), file + ": one replica");
            } else if (strategy.equals("active")) {
                assertTrue(rows.stream().anyMatch(r -> r.get("sent_to").equals("2")), file + ": to both replicas");
            }
        }
        assertEquals(2, clientsByStrategy.get("active").size());
        assertEquals(2, clientsByStrategy.get("preconnected").size());
        assertTrue(java.util.Collections.disjoint(clientsByStrategy.get("active"),
                clientsByStrategy.get("preconnected")), "each strategy's clients are its own");

        JsonNode manifest = new ObjectMapper().readTree(runDir.resolve("manifest.json").toFile());
        assertEquals("complete", manifest.path("status").asText());
        assertTrue(manifest.path("audit").path("passed").asBoolean());
        assertEquals("[\"preconnected\",\"active\"]", manifest.path("grid").path("strategy").toString());
        assertEquals("[1,2]", manifest.path("grid").path("replicas").toString());
        var status = ManagerClient.forRun(RunningLab.dir()).status();
        assertEquals(2, status.targetDegree(), "the lab has its degree back");
        assertEquals(2, status.degree());

        assertEquals(0, ftlab("analyze", runDir.toString()));
        JsonNode summary = new ObjectMapper().readTree(runDir.resolve("report/summary.json").toFile());
        Set<String> effects = new TreeSet<>();
        summary.path("anova_factorial").forEach(e -> effects.add(e.path("effect").asText()));
        assertTrue(effects.containsAll(List.of("strategy", "replicas", "strategy:replicas")), effects.toString());
        assertTrue(Files.readString(runDir.resolve("report/summary.csv")).lines().skip(1)
                .allMatch(l -> l.endsWith(",preconnected,1,") || l.endsWith(",preconnected,2,")
                        || l.endsWith(",active,1,") || l.endsWith(",active,2,")), "every row names its levels");

        StringWriter err = new StringWriter();
        assertNotEquals(0, FtlabCommand.execute(new String[] {"grid", "--replicas", "2,3", "--lab",
                RunningLab.dir().toString(), "--out", runDir.resolveSibling(runDir.getFileName() + "-3").toString()},
                new PrintWriter(new StringWriter(), true), new PrintWriter(err, true)));
        assertTrue(err.toString().contains("the lab in --lab has 2 replicas, so no block can have 3"), err.toString());
        assertEquals(1, err.toString().strip().lines().count(), err.toString());
    }

    @Test
    void openLoopClientsKeepTheirScheduleThroughAHangAndNothingIsLostOrDuplicated() throws Exception {
        Path runDir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "grid-open-");
        assertEquals(0, ftlab("grid", "--clients", "2", "--arrival", "poisson", "--rate", "50", "--reply", "orig",
                "--posts", "200", "--views", "0", "--warmup", "10", "--lab-warmup", "0", "--faults", "hang",
                "--faults-per-config", "1", "--lab", RunningLab.dir().toString(), "--out", runDir.toString()));
        List<Map<String, String>> rows = rows(runDir.resolve("probes/c02-rate50-rorig.csv"));
        assertEquals(2 * 210, rows.size());
        assertTrue(rows.stream().allMatch(r -> r.get("outcome").equals("ok") || r.get("outcome").equals("retried")),
                "every request completed");
        assertTrue(rows.stream().anyMatch(r -> r.get("outcome").equals("retried")), "requests met the hang");
        // No request was sent before its time, and each client's schedule is in order.
        for (Map<String, String> r : rows) {
            assertTrue(us(r, "intended_us") <= us(r, "client_send_us"), r.toString());
        }
        String[] fault = Files.readAllLines(runDir.resolve("faults.csv")).get(1).split(",", -1);
        assertEquals("hang", fault[1]);
        long injected = Long.parseLong(fault[4]);
        long detected = Long.parseLong(fault[5]);
        // Requests the schedule put between the hang and its detection were sent on time to the stopped primary:
        // none could be answered before the hang was detected, so each shows that whole wait.
        List<Map<String, String>> duringHang = rows.stream().filter(r -> us(r, "intended_us") >= injected
                && us(r, "intended_us") < detected && r.get("outcome").equals("retried")).toList();
        assertFalse(duringHang.isEmpty(), "requests were scheduled during the hang");
        for (Map<String, String> r : duringHang) {
            assertTrue(us(r, "client_recv_us") >= detected, r.toString());
        }
        JsonNode manifest = new ObjectMapper().readTree(runDir.resolve("manifest.json").toFile());
        assertEquals("poisson", manifest.path("grid").path("arrival").asText());
        assertTrue(manifest.path("audit").path("passed").asBoolean(), manifest.path("audit").toString());
        assertEquals(2 * 210, manifest.path("audit").path("posts_checked").asInt());
        assertEquals(0, ftlab("analyze", runDir.toString()));
        JsonNode all = null;
        for (JsonNode c : new ObjectMapper().readTree(runDir.resolve("report/summary.json").toFile()).path("configs")) {
            if (c.path("method").asText().equals("all")) {
                all = c;
            }
        }
        long maxWait = rows.stream().filter(r -> r.get("phase").equals("measure"))
                .mapToLong(r -> us(r, "client_recv_us") - us(r, "intended_us")).max().orElseThrow();
        assertEquals(maxWait, all.path("max_us").asLong(), "latency counts from the intended send time");
        assertTrue(all.path("p99_corrected_us").isNull(), "an open-loop run is never corrected");
        assertTrue(all.has("service_p99_us"));
    }

    @Test
    void abortedRunKeepsFinishedConfigurationsAndResumingCompletesTheSameSet() throws Exception {
        Path runDir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "grid-abort-");
        Process grid = new ProcessBuilder(HOME.resolve("scripts/ftlab").toString(), "grid", "--clients", "1,2",
                "--think", "0,20", "--reply", "orig,256", "--posts", "40", "--views", "40", "--lab-warmup", "0",
                "--order", "sequential", "--spares", "0", "--out", runDir.toString()).redirectErrorStream(true).redirectOutput(runDir.resolveSibling(
                        runDir.getFileName() + ".log").toFile()).start();
        try {
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
            while (System.nanoTime() < deadline && (!Files.isDirectory(runDir.resolve("probes"))
                    || probeFiles(runDir).size() < 2)) {
                Thread.sleep(100);
            }
            assertTrue(probeFiles(runDir).size() >= 2, "two configurations finished");
            new ProcessBuilder("kill", "-TERM", Long.toString(grid.pid())).start().waitFor();
            assertNotEquals(0, grid.waitFor(), "a grid stopped by SIGTERM does not exit as a complete one");
        } finally {
            grid.destroyForcibly();
        }
        assertFalse(Files.exists(runDir.resolve(ManagerEndpoint.FILE)), "the manager went through its stop");
        FtlabCommandIT.assertNoProcessUses(runDir);
        JsonNode aborted = new ObjectMapper().readTree(runDir.resolve("manifest.json").toFile());
        assertEquals("aborted", aborted.path("status").asText());
        Set<String> kept = probeFiles(runDir);
        assertTrue(kept.size() < 8, "aborted before the end: " + kept);
        assertFalse(kept.stream().anyMatch(f -> f.endsWith(".tmp")), "no half-written file: " + kept);
        assertEquals(kept.size(), aborted.path("configs_done").size());
        // The interrupted block's completed requests are kept apart, so the audit accounts for every stored post.
        assertTrue(aborted.path("audit").path("passed").asBoolean(), aborted.path("audit").toString());
        for (JsonNode partial : aborted.path("partial")) {
            assertTrue(Files.exists(runDir.resolve(partial.asText())), partial.asText());
            assertFalse(kept.contains(Path.of(partial.asText()).getFileName().toString()));
        }

        // resumed on the running lab: a lab of the same shape (2 replicas, the default knobs) as the first segment's
        assertEquals(0, ftlab("grid", "--out", runDir.toString(), "--lab", RunningLab.dir().toString()));
        assertEquals(TINY.stream().map(id -> id + ".csv").collect(Collectors.toCollection(TreeSet::new)),
                probeFiles(runDir));
        JsonNode resumed = new ObjectMapper().readTree(runDir.resolve("manifest.json").toFile());
        assertEquals("complete", resumed.path("status").asText());
        assertEquals(2, resumed.path("segments").size());
        assertEquals(8, resumed.path("configs_done").size());
    }

    /**
     * The bids workload: clients race on shared hot auctions through a crash of the primary, and the checker holds the
     * database's bids, leaders and prices to every reply the clients completed (its failures: BidsCheckerTest).
     */
    @Test
    void aRaceOnSharedHotAuctionsThroughACrashIsCheckedAgainstEveryReplyTheClientsCompleted() throws Exception {
        Path runDir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "grid-bids-");
        assertEquals(0, ftlab("grid", "--bids", "150", "--hot-auctions", "2", "--clients", "3", "--think", "0",
                "--warmup", "0", "--lab-warmup", "0", "--faults", "crash", "--faults-per-config", "1",
                "--lab", RunningLab.dir().toString(), "--out", runDir.toString()));
        JsonNode manifest = new ObjectMapper().readTree(runDir.resolve("manifest.json").toFile());
        assertEquals("bids", manifest.path("workload").asText());
        assertEquals(2, manifest.path("workload_parameters").path("hot_auctions").asInt());
        assertTrue(manifest.path("audit").path("passed").asBoolean(), manifest.path("audit").toString());
        List<Map<String, String>> all = rows(runDir.resolve("probes/c03-t00-rorig.csv"));
        assertTrue(all.stream().allMatch(r -> r.get("method").equals("offerBid")), "only bids are sent");
        assertEquals(450, all.stream().filter(r -> r.get("phase").equals("measure")).count());
        assertEquals(all.size(), manifest.path("audit").path("posts_checked").asInt(),
                "every completed bid, held ones too, is checked");
        List<String> faults = Files.readAllLines(runDir.resolve("faults.csv"));
        assertEquals(2, faults.size(), "the crash was injected: " + faults);
        String faultId = faults.get(1).split(",", -1)[0];
        assertTrue(all.stream().anyMatch(r -> r.get("fault_id").equals(faultId)), "bids met the crash");
        org.ftlab.harness.probe.DatabaseWorkRecord db = org.ftlab.harness.probe.DatabaseWorkRecord.readFrom(runDir);
        assertEquals(all.size(), db.requests());
        assertTrue(db.statementsPerRequest() > 1 && db.perRequest("Com_commit") > 0,
                "a bid is a transaction of several statements on the stateless tier: " + db);
    }

    @Test
    void crashRunLogsTheFaultJoinsItToRequestsAndPassesTheAudit() throws Exception {
        Path runDir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "grid-crash-");
        assertEquals(0, ftlab("grid", "--clients", "2", "--think", "0", "--reply", "orig", "--posts", "150",
                "--views", "50", "--warmup", "0", "--lab-warmup", "0", "--faults", "crash", "--faults-per-config", "1",
                "--observe", "on", "--lab", RunningLab.dir().toString(), "--out", runDir.toString()));
        List<String> faults = Files.readAllLines(runDir.resolve("faults.csv"));
        assertEquals(FaultsCsv.HEADER, faults.get(0));
        assertEquals(2, faults.size(), faults.toString());
        String[] fault = faults.get(1).split(",", -1);
        assertEquals("crash", fault[1]);
        assertEquals("primary", fault[2]);
        assertTrue(Long.parseLong(fault[4]) <= Long.parseLong(fault[5]), "injected before detected");
        assertEquals("1", fault[8], "a fault run starts with its spare booted, so the crash met one");
        assertEquals("replaced", fault[10], "a crash is repaired by the manager");
        assertEquals("1", fault[14], "one replica failed");
        // the backup promoted in its place, with how much of the request path it had compiled at the top tier (where
        // a primary had compiled any of it by then: the test lab's warm-up is short)
        assertFalse(fault[15].isEmpty() || fault[15].equals(fault[3]), "the promoted replica: " + faults.get(1));
        assertTrue(fault[16].isEmpty() || Double.parseDouble(fault[16]) >= 0 && Double.parseDouble(fault[16]) <= 1,
                "its share of the request path at the top tier: " + faults.get(1));

        List<Map<String, String>> all = rows(runDir.resolve("probes/c02-t00-rorig.csv"));
        List<Map<String, String>> rows = all.stream().filter(r -> r.get("phase").equals("measure")).toList();
        assertEquals(400, rows.size());
        assertTrue(all.stream().allMatch(r -> r.get("phase").equals("measure") || r.get("phase").equals("hold")),
                "no warm-up asked for: measured and hold rows only");
        assertTrue(all.stream().allMatch(r -> r.get("outcome").equals("ok") || r.get("outcome").equals("retried")),
                "every request completed");
        assertTrue(all.stream().anyMatch(r -> r.get("fault_id").equals(fault[0])), "requests joined to the fault");
        rows.stream().filter(r -> r.get("outcome").equals("retried")).forEach(r -> {
            assertFalse(r.get("detect_us").isEmpty());
            assertFalse(r.get("failover_us").isEmpty());
            assertFalse(r.get("retry_us").isEmpty());
        });
        JsonNode manifest = new ObjectMapper().readTree(runDir.resolve("manifest.json").toFile());
        assertEquals("crash", manifest.path("faults").path("kinds").get(0).asText());
        assertTrue(Files.readString(runDir.resolve("faults.schedule")).contains("crash"),
                "the schedule the run ran is kept with it");
        assertTrue(manifest.path("audit").path("passed").asBoolean(), manifest.path("audit").toString());
        // 150 measured posts per client, and the hold posts of the client that finished first
        assertEquals(all.stream().filter(r -> r.get("method").equals("postAuction")).count(),
                manifest.path("audit").path("posts_checked").asInt());
        assertTrue(manifest.path("audit").path("posts_checked").asInt() >= 300);

        // on a running lab: the run keeps its part of the detector's log, and leaves the lab running for the next
        assertTrue(manifest.path("topology").get(0).asText().contains("the running lab in " + RunningLab.dir()),
                manifest.path("topology").toString());
        String crashed = fault[3];
        Predicate<String> crashLine = l -> l.contains("failure replica=" + crashed + " ") && l.contains("kind=crash");
        FailureRecord failure = ManagerClient.forRun(RunningLab.dir()).status().failures().stream()
                .filter(f -> f.faultId().equals(fault[0])).findFirst().orElseThrow();
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
        // what the crashed primary recorded until its SIGKILL is kept with the run, beside the living processes' events
        JsonNode events = manifest.path("segments").get(0).path("events");
        assertTrue(events.has(crashed), "the crashed replica's events are in the manifest: " + events);
        try (RecordingFile in = new RecordingFile(runDir.resolve(events.path(crashed).asText()))) {
            assertTrue(in.hasMoreEvents(), "and hold events");
        }
        assertTrue(ManagerClient.forRun(RunningLab.dir()).status().targetDegree() == 2, "the lab still answers");
    }

    @Test
    void aFullCollectionForcedInThePrimaryAndALockHeldInTheDatabaseUnderLoadAreNamedAsTheCausesOfTheRequestsTheyDelayed()
            throws Exception {
        Path runDir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "grid-gc-");
        Path schedule = runDir.resolveSibling(runDir.getFileName() + ".faults");
        Files.writeString(schedule, "c1@25%  gc  primary\nc1@70%  db-lock  db  200ms\n");
        assertEquals(0, ftlab("grid", "--clients", "2", "--think", "0", "--reply", "orig", "--posts", "400",
                "--views", "0", "--warmup", "10", "--lab-warmup", "20", "--faults-file", schedule.toString(),
                "--observe", "on", "--lab", RunningLab.dir().toString(), "--out", runDir.toString()));
        JsonNode manifest = new ObjectMapper().readTree(runDir.resolve("manifest.json").toFile());
        JsonNode events = manifest.path("segments").get(0).path("events");
        for (String process : List.of("harness", "rm", "fd")) {
            assertTrue(Files.isRegularFile(runDir.resolve(events.path(process).asText())),
                    process + "'s events are kept: " + events);
        }
        assertEquals(0, manifest.path("segments").get(0).path("events_failed").size(), manifest.toString());
        assertTrue(manifest.path("audit").path("passed").asBoolean(), manifest.path("audit").toString());

        List<FaultRecord> faults = FaultsCsv.readAll(runDir);
        assertEquals(2, faults.size(), faults.toString());
        FaultRecord gc = faults.get(0);
        String primary = gc.replica();
        assertTrue(Files.isRegularFile(runDir.resolve(events.path(primary).asText())), "the primary's events");

        assertEquals(0, ftlab("analyze", runDir.toString()));
        JsonNode summary = new ObjectMapper().readTree(runDir.resolve("report/summary.json").toFile());
        assertTrue(summary.path("events").path("recorded").asBoolean());
        assertEquals(0, summary.path("events").path("problems").size(), summary.path("events").toString());
        List<JsonNode> outliers = new ArrayList<>();
        summary.path("outliers").forEach(outliers::add);
        assertEquals(8, outliers.size(), "the top 1% of 800 requests");
        assertTrue(outliers.stream().allMatch(o -> !o.path("cause").asText().isEmpty()), "every one has a verdict");
        // the forced collection lies between the moment its making began and the moment it was over
        List<JsonNode> forced = outliers.stream().filter(o -> o.path("cause").asText().equals("gc-pause(" + primary
                + ")") && o.path("evidence").get(0).path("detail").asText().contains("Diagnostic Command")).toList();
        assertFalse(forced.isEmpty(), "a request the forced collection delayed is named: " + outliers);
        for (JsonNode o : forced) {
            long send = o.path("send_epoch_us").asLong();
            long recv = send + o.path("latency_us").asLong();
            JsonNode pause = o.path("evidence").get(0);
            long pauseStart = pause.path("start_epoch_us").asLong();
            assertTrue(pauseStart < recv && pauseStart + pause.path("duration_us").asLong() > send,
                    "its evidence overlaps it: " + o);
            assertTrue(gc.injectedUs() <= pauseStart && pauseStart <= gc.repairedUs(),
                    "and is the injected one: " + o + " " + gc);
            assertTrue(o.path("explained_us").asLong() * 2 >= o.path("excess_us").asLong(), o.toString());
        }
        // the lock: its waits are the database's, joined to each request by its own connection
        List<JsonNode> locked = outliers.stream().filter(o -> o.path("cause").asText().equals("db-lock-wait(db)"))
                .toList();
        assertFalse(locked.isEmpty(), "a request the held lock delayed is named: " + outliers);
        for (JsonNode o : locked) {
            assertTrue(o.path("evidence").get(0).path("detail").asText().contains("waited for a row lock"),
                    o.toString());
        }
        // and the run judges each injected stall against what was named
        JsonNode injected = summary.path("injected_stalls");
        assertEquals(2, injected.size(), injected.toString());
        assertTrue(injected.get(0).path("named").asInt() > 0, "the collection is named: " + injected);
        assertTrue(injected.get(1).path("found").asBoolean(), "the lock is found: " + injected);
        // the report draws the slowest block's per-request breakdown and timeline, with every other plot
        HtmlReportIT.Browser page = HtmlReportIT.open(runDir.resolve("report/index.html"), runDir);
        assertTrue(page.dom().contains("id=\"outlier-spans\"") && page.dom().contains("id=\"slow-timeline\""));
        assertEquals(HtmlReportIT.attribute(page.dom(), "data-plots-expected"),
                HtmlReportIT.attribute(page.dom(), "data-plots-rendered"), page.dom());
        assertEquals("gc-pause(" + primary + ")", injected.get(0).path("expected_cause").asText());
        assertEquals("db-lock-wait(db)", injected.get(1).path("expected_cause").asText());
    }

    @Test
    void observationSwitchedOffForAlternateBlocksReadsNoSchedulerCountersThenAndRecordsEventsAgainAfter()
            throws Exception {
        Path benchDir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "observe-cost-");
        StringWriter progress = new StringWriter();
        try (ManagedLab lab = ManagedLab.attach(RunningLab.dir())) {
            AttributionBench.ObservationCost cost = new AttributionBench(lab, benchDir, new PrintWriter(progress))
                    .cost(1, 100);
            assertEquals(List.of(true, false), cost.blocks().stream().sorted(
                    java.util.Comparator.comparingInt(AttributionBench.CostBlock::replicate))
                    .map(AttributionBench.CostBlock::observed).toList(), progress.toString());
            for (int rep = 1; rep <= 2; rep++) {
                Path csv;
                try (Stream<Path> files = Files.list(benchDir.resolve("observation-cost/probes"))) {
                    String suffix = "-rep" + rep + ".csv";
                    csv = files.filter(f -> f.getFileName().toString().endsWith(suffix)).findFirst().orElseThrow();
                }
                ProbeFile block = ProbeFile.read(csv);
                assertTrue(block.size > 0, "measured rows: " + csv);
                long clientRead = java.util.Arrays.stream(block.clientRunQueueUs).filter(v -> v >= 0).count();
                long serverRead = java.util.Arrays.stream(block.serverRunQueueUs).filter(v -> v >= 0).count();
                if (rep == 1) {
                    assertEquals(block.size, clientRead, "an observed block reads the client's counters");
                    assertTrue(serverRead > 0, "and the replica's");
                } else {
                    assertEquals(0, clientRead, "an unobserved block reads no client's counters");
                    assertEquals(0, serverRead, "nor the replica's");
                }
            }
            // the lab observes again: every recording JVM writes its events
            Path events = benchDir.resolve("events");
            EventDump.Files written = lab.manager().dumpEvents(events, "-after", MicroClock.nowEpochMicros()
                    - 60_000_000L);
            assertTrue(written.failed().isEmpty(), written.failures().toString());
            assertTrue(written.written().keySet().containsAll(List.of("rm", "fd")), written.toString());
            assertTrue(written.written().keySet().stream().anyMatch(p -> p.matches("r\\d+")), written.toString());
        }
    }
}
