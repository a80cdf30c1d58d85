package org.ftlab.harness.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.ftlab.harness.bench.calibration.LeanClients;
import org.ftlab.harness.cli.FtlabCommand;
import org.ftlab.harness.probe.ClientCalibration;
import org.ftlab.harness.probe.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code ftlab bench} end to end with tiny counts, on the test run's {@link RunningLab} ({@code --lab}): it
 * measures every service workload and the probes, analyses a small synthetic run, and writes every figure to bench.json. The figures' values are the
 * benchmark's business, not this test's: it checks that each was measured, and what must hold between them whatever
 * the machine (counts, Little's law, ratios computed from the figures they relate).
 */
@ExtendWith(RunningLab.class)
class BenchIT {

    @Test
    void benchMeasuresEveryWorkloadAndWritesBenchJson() throws Exception {
        Path out = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "bench-");
        StringWriter text = new StringWriter();
        StringWriter err = new StringWriter();
        int code = FtlabCommand.execute(new String[] {"bench", "--out", out.toString(), "--suites",
            "service,agreement,analysis,jmh", "--repeat", "1", "--requests", "20", "--requests-per-method", "3",
            "--jmh-iteration-ms", "200", "--warmup", "10", "--lab", RunningLab.dir().toString()},
                new PrintWriter(text, true), new PrintWriter(err, true));
        assertEquals(0, code, text + "\n" + err);
        JsonNode bench = new ObjectMapper().readTree(out.resolve("bench.json").toFile());
        assertEquals("the running lab in " + RunningLab.dir(), bench.path("lab").asText());
        for (String clients : new String[] {"1_client", "10_clients"}) {
            int n = clients.startsWith("1_") ? 1 : 10;
            JsonNode service = bench.path("service").path(clients);
            for (String w : new String[] {"noop", "jdbc", "jdbc-log", "view", "view-no-probes", "post"}) {
                JsonNode f = service.path(w);
                assertEquals(20 * n, f.path("requests_per_round").asInt(), clients + " " + w);
                double meanUs = aSpreadOfRounds(f.path("mean_us"), 1, clients + " " + w + " mean");
                double perS = aSpreadOfRounds(f.path("throughput_per_s"), 1, clients + " " + w + " throughput");
                // Little's law in a closed loop: n clients, each with one request at a time over the wall time the
                // throughput is counted in, can keep at most n requests in flight on average
                assertTrue(perS * meanUs / 1e6 <= n * (1 + 1e-9), clients + " " + w + ": throughput × mean latency "
                        + "= " + perS * meanUs / 1e6 + " requests in flight, more than " + n + " clients can have");
            }
            // one round: the median of the same-round ratios is the ratio of that round's means
            assertEquals(service.path("view").path("mean_us").path("median").asDouble()
                    / service.path("noop").path("mean_us").path("median").asDouble(),
                    service.path("ratios_of_means_same_round").path("view_over_noop").path("median").asDouble(), 1e-9,
                    clients + ": view ÷ noop");
        }
        // the grid and the bench measured the same operations at the same load on the same lab; each grid run is a
        // complete, audited run directory
        for (String key : new String[] {"1/view", "1/post", "10/view", "10/post"}) {
            JsonNode a = bench.path("agreement").path(key);
            aSpreadOfRounds(a.path("bench_mean_us"), 1, key + " bench");
            aSpreadOfRounds(a.path("grid_mean_us"), 1, key + " grid");
            assertEquals(a.path("grid_mean_us").path("median").asDouble() / a.path("bench_mean_us").path("median")
                    .asDouble(), a.path("grid_over_bench").path("median").asDouble(), 1e-9, key);
        }
        Manifest agreementRun = Manifest.readAny(out.resolve("agreement-round-1"));
        assertEquals("complete", agreementRun.status());
        assertTrue(agreementRun.audit().passed(), agreementRun.audit().toString());
        // 12 configurations per client count, 1 + 4 + 7 + 10 = 22 clients, 3 posts and 3 views each
        assertEquals(12 * 22 * 2 * 3, bench.path("analysis").path("rows").asLong());
        assertTrue(bench.path("analysis").path("median_s").isNumber(), "the analysis was timed: " + bench.path("analysis"));
        assertTrue(Files.exists(out.resolve("synthetic-run/report/summary.json")), "the analysis wrote its report");
        double probesNs = bench.path("jmh").path("clientProbes").path("ns_per_op").asDouble()
                + bench.path("jmh").path("serverProbes").path("ns_per_op").asDouble();
        assertTrue(bench.path("jmh").path("clientProbes").path("ns_per_op").isNumber()
                && bench.path("jmh").path("serverProbes").path("ns_per_op").isNumber(), "JMH scored both probes");
        assertEquals(probesNs / 1000 / bench.path("service").path("1_client").path("view").path("mean_us")
                .path("median").asDouble(), bench.path("jmh").path("probe_cost_fraction_of_view_mean").asDouble(),
                1e-12, "the probes' cost is their time over a view's mean, both measured in this run");
        assertTrue(Files.readString(out.resolve("bench.txt")).contains("same-round ratios"));
    }

    /**
     * The calibration suite, one short round on the running lab: ftlab's clients through both doors beside vegeta
     * (built here from its pinned module, as a user would install it) and the bare loops, every client's requests
     * answered, and what ftlab adds computed from the figures of the same round.
     */
    @Test
    void calibrationHoldsFtlabsClientsAgainstLeanerOnesOnTheSameEndpointThroughBothDoors() throws Exception {
        Path tools = Path.of("target").toAbsolutePath().resolve("tools");
        ProcessBuilder install = new ProcessBuilder("go", "install", LeanClients.VEGETA_MODULE).redirectErrorStream(
                true);
        install.environment().put("GOBIN", tools.toString());
        Process p = install.start();
        String built = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(5, TimeUnit.MINUTES), "go install did not finish");
        assertEquals(0, p.exitValue(), "go install " + LeanClients.VEGETA_MODULE + ": " + built);
        Path out = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "bench-calibration-");
        StringWriter text = new StringWriter();
        StringWriter err = new StringWriter();
        int code = FtlabCommand.execute(new String[] {"bench", "--out", out.toString(), "--suites", "calibration",
            "--calibration-rate", "100", "--calibration-seconds", "1", "--calibration-rounds", "1", "--warmup", "10",
            "--vegeta", tools.resolve("vegeta").toString(), "--lab", RunningLab.dir().toString()},
                new PrintWriter(text, true), new PrintWriter(err, true));
        assertEquals(0, code, text + "\n" + err);
        JsonNode calibration = new ObjectMapper().readTree(out.resolve("bench.json").toFile()).path("calibration");
        Map<String, JsonNode> rows = new TreeMap<>();
        calibration.path("rows").forEach(r -> rows.put(r.path("platform").asText() + " " + r.path("client").asText(),
                r.path("latencies")));
        assertEquals(List.of("ejb bare-ejb", "ejb ftlab", "rest apache-http", "rest ftlab", "rest jdk-http",
                "rest vegeta"), List.copyOf(rows.keySet()));
        rows.forEach((client, l) -> {
            // 100 requests/s for 1 s; ftlab's 4 clients 25 views each
            assertEquals(100, l.path("requests").asLong(), client + ": " + l);
            assertEquals(0, l.path("errors").asLong(), client + ": " + l);
            assertTrue(0 < l.path("p50_us").asDouble() && l.path("p50_us").asDouble() <= l.path("p99_us").asDouble()
                    && l.path("p99_us").asDouble() <= l.path("max_us").asDouble(), client + ": " + l);
        });
        calibration.path("rows").forEach(r -> assertTrue(r.path("external").asBoolean()
                ? r.path("cpu_us_per_request").asDouble() == -1 : r.path("cpu_us_per_request").asDouble() > 0,
                "this JVM's CPU per request, for each client it ran: " + r));
        Map<String, JsonNode> added = new TreeMap<>();
        calibration.path("added").forEach(a -> added.put(a.path("platform").asText() + " " + a.path("reference")
                .asText(), a));
        assertEquals(List.of("ejb bare-ejb", "rest apache-http", "rest jdk-http", "rest vegeta"),
                List.copyOf(added.keySet()));
        added.forEach((key, a) -> {
            String door = key.substring(0, key.indexOf(' '));
            JsonNode ftlab = rows.get(door + " ftlab");
            JsonNode lean = rows.get(key);
            assertEquals(ftlab.path("p50_us").asDouble() - lean.path("p50_us").asDouble(), a.path("p50_us").asDouble(),
                    1e-6, key + ": one round, its difference");
            assertEquals(ftlab.path("p99_us").asDouble() / lean.path("p99_us").asDouble(),
                    a.path("p99_ratio").asDouble(), 1e-9, key + ": one round, its ratio");
        });
        assertTrue(added.get("rest vegeta").path("external").asBoolean(), "vegeta is the external reference");
        assertTrue(calibration.path("clients").path("vegeta").asText().contains("v12.13.0"),
                calibration.path("clients").toString());
        assertEquals("complete", Manifest.readAny(out.resolve("calibration")).status(), "ftlab's grid run");
        // kept as the machine's calibration (the tests' cache), door by door, for every run started after it
        ClientCalibration kept = ClientCalibration.readFrom(ClientCalibration.cacheDir());
        assertEquals(added.keySet(), kept.doors().stream().map(d -> d.platform() + " " + d.reference())
                .collect(Collectors.toCollection(TreeSet::new)));
        assertEquals(added.get("ejb bare-ejb").path("p99_us").asDouble(), kept.doors().stream()
                .filter(d -> d.reference().equals("bare-ejb")).findFirst().orElseThrow().p99AddedUs(), 1e-6);
        assertTrue(Files.readString(out.resolve("bench.txt")).contains("ftlab over"), "the table");
    }

    /**
     * A figure of {@code rounds} rounds, as bench.json writes one: its median lies between its minimum and maximum, every
     * round counted, and a round's value is a measurement (a time or a rate of something that happened), not zero.
     * Returns the median.
     */
    private static double aSpreadOfRounds(JsonNode figure, int rounds, String what) {
        double min = figure.path("min").asDouble();
        double median = figure.path("median").asDouble();
        double max = figure.path("max").asDouble();
        assertEquals(rounds, figure.path("n").asInt(), what + ": every round counted, " + figure);
        assertTrue(0 < min && min <= median && median <= max, what + ": min <= median <= max, " + figure);
        return median;
    }
}
