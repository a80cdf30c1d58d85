package org.ftlab.harness.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.ftlab.harness.cli.FtlabCommand;
import org.ftlab.harness.probe.ProbeTable;
import org.junit.jupiter.api.Test;

/** {@code ftlab grid} end to end on a tiny grid: files, rows, timestamps, think time, abort and resume, faults. */
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

    private static List<Map<String, String>> rows(Path csv) throws Exception {
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
            return files.map(p -> p.getFileName().toString()).collect(Collectors.toCollection(TreeSet::new));
        }
    }

    @Test
    void tinyGridWritesOneWholeProbeFilePerConfigurationAndHonoursThinkTimeAndReplySize() throws Exception {
        Path runDir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "grid-");
        assertEquals(0, ftlab("grid", "--clients", "1,2", "--think", "0,20", "--reply", "orig,256", "--posts", "6",
                "--views", "6", "--out", runDir.toString()));

        assertEquals(TINY.stream().map(id -> id + ".csv").collect(Collectors.toCollection(TreeSet::new)),
                probeFiles(runDir));
        for (String id : TINY) {
            List<Map<String, String>> rows = rows(runDir.resolve("probes/" + id + ".csv"));
            int clients = id.startsWith("c02") ? 2 : 1;
            assertEquals(clients * 12, rows.size(), id);
            Map<String, List<Map<String, String>>> byClient = rows.stream()
                    .collect(Collectors.groupingBy(r -> r.get("client")));
            assertEquals(clients, byClient.size(), id);
            for (List<Map<String, String>> mine : byClient.values()) {
                assertEquals(6, mine.stream().filter(r -> r.get("method").equals("postAuction")).count());
                assertEquals(6, mine.stream().filter(r -> r.get("method").equals("viewAuction")).count());
                for (int i = 0; i < mine.size(); i++) {
                    Map<String, String> r = mine.get(i);
                    assertEquals("ok", r.get("outcome"), id + " " + r);
                    assertEquals(id.endsWith("r256") ? "256" : "", r.get("reply_bytes"));
                    // One host, one clock: the probes nest inside the client's round trip.
                    assertTrue(us(r, "client_send_us") <= us(r, "server_recv_us"), r.toString());
                    assertTrue(us(r, "server_recv_us") <= us(r, "db_start_us"), r.toString());
                    assertTrue(us(r, "db_start_us") <= us(r, "db_end_us"), r.toString());
                    assertTrue(us(r, "db_end_us") <= us(r, "server_send_us"), r.toString());
                    assertTrue(us(r, "server_send_us") <= us(r, "client_recv_us"), r.toString());
                    if (i > 0 && id.contains("-t20-")) {
                        long gapMicros = us(r, "client_send_us") - us(mine.get(i - 1), "client_recv_us");
                        assertTrue(gapMicros >= 20_000, id + ": think gap " + gapMicros + " µs < 20 ms");
                    }
                }
            }
        }
        JsonNode manifest = new ObjectMapper().readTree(runDir.resolve("manifest.json").toFile());
        assertEquals("complete", manifest.path("status").asText());
        assertEquals(8, manifest.path("configs_done").size());
        assertTrue(manifest.path("audit").path("passed").asBoolean());
        // 8 configurations, 6 posts per client; 1 client in half of them, 2 in the other half.
        assertEquals(4 * 6 + 4 * 12, manifest.path("audit").path("posts_checked").asInt());
    }

    @Test
    void abortedRunKeepsFinishedConfigurationsAndResumingCompletesTheSameSet() throws Exception {
        Path runDir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "grid-abort-");
        Process grid = new ProcessBuilder(HOME.resolve("scripts/ftlab").toString(), "grid", "--clients", "1,2",
                "--think", "0,20", "--reply", "orig,256", "--posts", "40", "--views", "40", "--out",
                runDir.toString()).redirectErrorStream(true).redirectOutput(runDir.resolveSibling(
                        runDir.getFileName() + ".log").toFile()).start();
        try {
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
            while (System.nanoTime() < deadline && (!Files.isDirectory(runDir.resolve("probes"))
                    || probeFiles(runDir).size() < 2)) {
                Thread.sleep(100);
            }
            assertTrue(probeFiles(runDir).size() >= 2, "two configurations finished");
            new ProcessBuilder("kill", "-INT", Long.toString(grid.pid())).start().waitFor();
            assertTrue(grid.waitFor(90, TimeUnit.SECONDS), "grid stops after Ctrl-C");
        } finally {
            grid.destroyForcibly();
        }
        JsonNode aborted = new ObjectMapper().readTree(runDir.resolve("manifest.json").toFile());
        assertEquals("aborted", aborted.path("status").asText());
        Set<String> kept = probeFiles(runDir);
        assertTrue(kept.size() < 8, "aborted before the end: " + kept);
        assertFalse(kept.stream().anyMatch(f -> f.endsWith(".tmp")), "no half-written file: " + kept);
        assertEquals(kept.size(), aborted.path("configs_done").size());

        assertEquals(0, ftlab("grid", "--out", runDir.toString()));
        assertEquals(TINY.stream().map(id -> id + ".csv").collect(Collectors.toCollection(TreeSet::new)),
                probeFiles(runDir));
        JsonNode resumed = new ObjectMapper().readTree(runDir.resolve("manifest.json").toFile());
        assertEquals("complete", resumed.path("status").asText());
        assertEquals(2, resumed.path("segments").size());
        assertEquals(8, resumed.path("configs_done").size());
    }

    @Test
    void crashRunLogsTheFaultJoinsItToRequestsAndPassesTheAudit() throws Exception {
        Path runDir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "grid-crash-");
        assertEquals(0, ftlab("grid", "--clients", "2", "--think", "0", "--reply", "orig", "--posts", "150",
                "--views", "50", "--faults", "crash", "--faults-per-config", "1", "--out", runDir.toString()));
        List<String> faults = Files.readAllLines(runDir.resolve("faults.csv"));
        assertEquals("fault_id,kind,replica,injected_epoch_us,detected_epoch_us,promoted_epoch_us,"
                + "restored_epoch_us", faults.get(0));
        assertEquals(2, faults.size(), faults.toString());
        String[] fault = faults.get(1).split(",", -1);
        assertEquals("crash", fault[1]);
        assertTrue(Long.parseLong(fault[3]) <= Long.parseLong(fault[4]), "injected before detected");

        List<Map<String, String>> rows = rows(runDir.resolve("probes/c02-t00-rorig.csv"));
        assertEquals(400, rows.size());
        assertTrue(rows.stream().allMatch(r -> r.get("outcome").equals("ok") || r.get("outcome").equals("retried")),
                "every request completed");
        assertTrue(rows.stream().anyMatch(r -> r.get("fault_id").equals(fault[0])), "requests joined to the fault");
        rows.stream().filter(r -> r.get("outcome").equals("retried")).forEach(r -> {
            assertFalse(r.get("detect_us").isEmpty());
            assertFalse(r.get("failover_us").isEmpty());
            assertFalse(r.get("retry_us").isEmpty());
        });
        JsonNode manifest = new ObjectMapper().readTree(runDir.resolve("manifest.json").toFile());
        assertEquals("crash", manifest.path("faults").path("kind").asText());
        assertTrue(manifest.path("audit").path("passed").asBoolean(), manifest.path("audit").toString());
        assertEquals(300, manifest.path("audit").path("posts_checked").asInt());
    }
}
