package org.ftlab.harness.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ftlab.harness.lab.ManagerClient;
import org.ftlab.harness.probe.DatabaseWorkRecord;
import org.ftlab.harness.probe.StatefulTierRecord;
import org.ftlab.rm.api.FailureRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The stateful tier (seed 003) on real replicas: a crash and a hang of its primary are recovered by the manager from
 * the newest checkpoint and the input log, no bid is lost or duplicated, and the replay oracle finds every reply, the
 * final state and every checkpoint as an offline replay gives them; with determinism off, the oracle finds that they
 * are not.
 */
@ExtendWith(RunningLab.class)
class StatefulTierIT {
    private static final Pattern ORACLE = Pattern.compile("(\\d+) of (\\d+) replies as the replay gives them");

    @Test
    void aCrashAndAHangOfThePrimaryAreRecoveredFromCheckpointAndLogAndTheReplayOracleAgreesWithEveryReply()
            throws Exception {
        Path runDir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "stateful-");
        Path schedule = runDir.resolveSibling(runDir.getFileName() + ".faults");
        Files.writeString(schedule, "c1@20% crash primary\nc1@60% hang primary 2s\n");
        InProcessFtlab.Result r = InProcessFtlab.run("grid", "--tier", "stateful", "--bids", "1200", "--hot-auctions",
                "2", "--clients", "3", "--think", "0", "--warmup", "0", "--lab-warmup", "0", "--checkpoint-every",
                "200", "--faults-file", schedule.toString(), "--lab", RunningLab.dir().toString(), "--out",
                runDir.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        JsonNode manifest = new ObjectMapper().readTree(runDir.resolve("manifest.json").toFile());
        assertEquals("stateful", manifest.path("workload_parameters").path("tier").asText());
        assertEquals(200, manifest.path("workload_parameters").path("stateful").path("checkpoint_every").asInt());
        JsonNode audit = manifest.path("audit");
        assertTrue(audit.path("passed").asBoolean(), audit.toString());
        String oracle = audit.path("oracle").asText();
        Matcher m = ORACLE.matcher(oracle);
        assertTrue(m.find(), oracle);
        assertEquals(m.group(2), m.group(1), "every reply as the replay gives it: " + oracle);
        assertTrue(oracle.contains("final state equal"), oracle);
        InProcessFtlab.Result check = InProcessFtlab.run("check", runDir.toString());
        assertEquals(0, check.code(), "the history is linearizable: " + check.out() + check.err());
        assertTrue(check.out().contains(": VALID - "), check.out());

        List<String> faults = Files.readAllLines(runDir.resolve("faults.csv"));
        assertEquals(3, faults.size(), "both faults were injected: " + faults);
        List<Map<String, String>> rows = GridIT.rows(runDir.resolve("probes/c03-t00-rorig.csv"));
        assertTrue(rows.stream().allMatch(x -> x.get("outcome").equals("ok") || x.get("outcome").equals("retried")),
                "every bid completed");
        for (String fault : faults.subList(1, 3)) {
            String id = fault.split(",", -1)[0];
            assertTrue(rows.stream().anyMatch(x -> x.get("fault_id").equals(id)), "bids met " + fault);
            FailureRecord f = ManagerClient.forRun(RunningLab.dir()).status().failures().stream()
                    .filter(x -> x.faultId().equals(id)).findFirst().orElseThrow();
            assertNotNull(f.tierRecovery(), "the manager recovered the tier after " + id);
            assertNull(f.tierRecovery().error(), f.tierRecovery().toString());
            assertEquals(f.promoted(), f.tierRecovery().replica(), "on the new primary");
            assertTrue(f.tierRecovery().recoveredEpochUs() >= f.tierRecovery().startedEpochUs());
        }
        StatefulTierRecord record = StatefulTierRecord.readFrom(runDir);
        assertNotNull(record, "the run keeps the tier's figures");
        assertEquals(2, record.recoveries().size(), record.toString());
        assertTrue(record.recoveries().stream().allMatch(x -> x.recovery() != null && x.recovery().error() == null),
                record.toString());
        assertTrue(record.status().messages() > 0 && record.status().checkpoints() > 0, record.toString());
        DatabaseWorkRecord db = DatabaseWorkRecord.readFrom(runDir);
        assertNotNull(db, "the run keeps the database's work");
        assertEquals(rows.size(), db.requests(), "over every request of the run (no warm-up here)");
        assertTrue(db.perRequest("Com_insert") > 0 && db.statementsPerRequest() > db.perRequest("Com_insert"),
                "the input log's inserts among the statements: " + db);
        assertEquals(0, InProcessFtlab.run("analyze", runDir.toString()).code());
        JsonNode summary = new ObjectMapper().readTree(runDir.resolve("report/summary.json").toFile());
        assertEquals(2, summary.path("stateful").path("recoveries").size(), summary.path("stateful").toString());
        assertTrue(summary.path("stateful").has("pessimism_delay_mean_us"));
        assertTrue(summary.path("database").path("statements_per_request").asDouble() > 0, summary.toString());
        String page = Files.readString(runDir.resolve("report/index.html"));
        assertTrue(page.contains("<h2 id=\"stateful\">") && page.contains("inputs replayed"),
                "the HTML report has the tier's section with its recoveries");
    }

    @Test
    void aRunOnTheStatelessTierStopsTheStatefulTierAnEarlierRunLeftOnTheLab() throws Exception {
        Path stateful = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "stateful-left-");
        assertEquals(0, InProcessFtlab.run("grid", "--tier", "stateful", "--bids", "40", "--clients", "2", "--think",
                "0", "--warmup", "0", "--lab-warmup", "0", "--lab", RunningLab.dir().toString(), "--out",
                stateful.toString()).code());
        assertTrue(ManagerClient.forRun(RunningLab.dir()).statefulTier(false).status().active(),
                "the stateful run leaves its tier running on the primary");
        Path stateless = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "stateless-after-");
        InProcessFtlab.Result r = InProcessFtlab.run("grid", "--tier", "stateless", "--bids", "40", "--clients", "2",
                "--think", "0", "--warmup", "0", "--lab-warmup", "0", "--lab", RunningLab.dir().toString(), "--out",
                stateless.toString());
        assertEquals(0, r.code(), r.err());
        assertFalse(ManagerClient.forRun(RunningLab.dir()).statefulTier(false).status().active(),
                "the stateless run stopped it");
        assertFalse(ManagerClient.forRun(RunningLab.dir()).stopStatefulTier(), "nothing is left to stop");
    }

    @Test
    void withDeterminismOffTheReplayOracleFindsRepliesAndAStateNoReplayGives() throws Exception {
        Path runDir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "stateful-off-");
        InProcessFtlab.Result r = InProcessFtlab.run("grid", "--tier", "stateful", "--determinism", "off", "--bids",
                "400", "--hot-auctions", "2", "--clients", "3", "--think", "0", "--warmup", "0", "--lab-warmup", "0",
                "--faults", "crash", "--faults-per-config", "1", "--lab", RunningLab.dir().toString(), "--out",
                runDir.toString());
        assertTrue(r.out().contains("oracle (determinism off, the negative control)"), r.out());
        JsonNode audit = new ObjectMapper().readTree(runDir.resolve("manifest.json").toFile()).path("audit");
        String oracle = audit.path("oracle").asText();
        Matcher m = ORACLE.matcher(oracle);
        assertTrue(m.find(), oracle);
        assertTrue(Integer.parseInt(m.group(1)) < Integer.parseInt(m.group(2)), "replies diverge: " + oracle);
        assertTrue(oracle.contains("final state DIVERGES"), oracle);
        assertFalse(audit.path("passed").asBoolean() && r.code() != 0, "a failed audit is the run's only failure");
    }
}
