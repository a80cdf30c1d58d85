package org.ftlab.harness.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.ftlab.harness.cli.FtlabCommand;
import org.junit.jupiter.api.Test;

/**
 * {@code ftlab bench} end to end with tiny counts: it starts a real lab, measures every service workload and the
 * probes, analyses a small synthetic run, and writes every figure to bench.json. (The figures' values are the
 * benchmark's business, not this test's: it checks that each was measured.)
 */
class BenchIT {

    @Test
    void benchMeasuresEveryWorkloadAndWritesBenchJson() throws Exception {
        Path out = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "bench-");
        StringWriter text = new StringWriter();
        StringWriter err = new StringWriter();
        int code = FtlabCommand.execute(new String[] {"bench", "--out", out.toString(), "--suites",
            "service,agreement,analysis,jmh", "--repeat", "1", "--requests", "20", "--requests-per-method", "3"},
                new PrintWriter(text, true), new PrintWriter(err, true));
        assertEquals(0, code, text + "\n" + err);
        JsonNode bench = new ObjectMapper().readTree(out.resolve("bench.json").toFile());
        for (String clients : new String[] {"1_client", "10_clients"}) {
            for (String w : new String[] {"noop", "jdbc", "jdbc-log", "view", "view-no-probes", "post"}) {
                JsonNode f = bench.path("service").path(clients).path(w);
                assertEquals(clients.startsWith("1_") ? 20 : 200, f.path("requests_per_round").asInt(), clients + " " + w);
                assertTrue(f.path("mean_us").path("median").asDouble() > 0, clients + " " + w);
                assertTrue(f.path("throughput_per_s").path("median").asDouble() > 0, clients + " " + w);
            }
            assertTrue(bench.path("service").path(clients).path("ratios_of_means_same_round")
                    .path("view_over_noop").path("median").asDouble() > 0);
        }
        // the grid and the bench measured the same operations at the same load on the same lab
        for (String key : new String[] {"1/view", "1/post", "10/view", "10/post"}) {
            JsonNode a = bench.path("agreement").path(key);
            assertTrue(a.path("bench_mean_us").path("median").asDouble() > 0, key + " " + a);
            assertTrue(a.path("grid_mean_us").path("median").asDouble() > 0, key + " " + a);
            assertEquals(a.path("grid_mean_us").path("median").asDouble() / a.path("bench_mean_us").path("median")
                    .asDouble(), a.path("grid_over_bench").path("median").asDouble(), 1e-9, key);
        }
        // 12 configurations per client count, 1 + 4 + 7 + 10 = 22 clients, 3 posts and 3 views each
        assertEquals(12 * 22 * 2 * 3, bench.path("analysis").path("rows").asLong());
        assertTrue(bench.path("analysis").path("median_s").asDouble() > 0);
        assertTrue(bench.path("jmh").path("clientProbes").path("ns_per_op").asDouble() > 0);
        assertTrue(bench.path("jmh").path("serverProbes").path("ns_per_op").asDouble() > 0);
        assertTrue(bench.path("jmh").path("probe_cost_fraction_of_view_mean").asDouble() > 0);
        assertTrue(Files.readString(out.resolve("bench.txt")).contains("same-round ratios"));
    }
}
