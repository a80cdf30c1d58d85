package org.ftlab.harness.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.ftlab.harness.probe.DatabaseFailoverRecord.Failover;
import org.ftlab.harness.probe.DatabaseFailoverRecord;
import org.ftlab.rm.api.DatabaseFailover;
import org.ftlab.rm.api.DatabaseNode;
import org.ftlab.rm.api.DatabaseTier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A replicated database's fail-overs as the report states them. */
class DatabaseFailoverSectionTest {
    private static final long T = 1_800_000_000_000_000L;

    private static Failover failover(String fault, long injected, long fenced, long promoted, long firstCommit,
            long rejoined, long behind) {
        return new Failover(fault, injected == 0 ? 0 : T + injected, new DatabaseFailover("db1", "crash", "db2", T,
                T + fenced, T + promoted, firstCommit == 0 ? 0 : T + firstCommit, rejoined == 0 ? 0 : T + rejoined,
                "0-1-10", "0-1-9", behind));
    }

    @Test
    void eachPhaseRunsFromOneStepToTheNextAndAStepNotTakenHasNoLength() {
        Map<String, Long> p = DatabaseFailoverSection.phases(failover("f1", -95_000, 10_000, 50_000, 60_000, 0, 0));
        assertEquals(95_000, p.get("injected->detected"));
        assertEquals(10_000, p.get("detected->fenced"));
        assertEquals(40_000, p.get("fenced->promoted"));
        assertEquals(10_000, p.get("promoted->first-commit"));
        assertEquals(60_000, p.get("detected->first-commit"));
        assertEquals(-1, p.get("detected->rejoined"), "not rejoined (yet)");
        assertEquals(-1, DatabaseFailoverSection.phases(failover(null, 0, 1, 2, 3, 4, 0)).get("injected->detected"),
                "nobody injected it");
    }

    @Test
    void anAsyncRunThatLostNothingSaysItWasLuckyWithTheLagAtEachCrash() {
        DatabaseFailoverRecord r = new DatabaseFailoverRecord(DatabaseTier.parse("async"), List.of(
                failover("f1", -100_000, 10_000, 50_000, 60_000, 2_000_000, 0),
                failover("f2", -200_000, 20_000, 70_000, 100_000, 0, 0)), List.of());
        assertEquals("async lost no write in this run by luck, not by design: at each crash the promoted replica had "
                + "received all the writer had logged (lag 0, 0 transactions)", DatabaseFailoverSection.lossVerdict(r));
    }

    @Test
    void aSemisyncRunSaysWhatItsSuccessorsLackedWasNeverAcknowledgedAndSaysSoPlainlyWhenTheyLackedNothing() {
        DatabaseFailoverRecord lacked = new DatabaseFailoverRecord(DatabaseTier.parse("semisync"), List.of(
                failover("f1", -100_000, 10_000, 50_000, 60_000, 2_000_000, 1),
                failover("f2", -200_000, 20_000, 70_000, 100_000, 0, 0)), List.of());
        assertEquals("semisync acknowledges a commit once a replica has it: the transaction its successor never "
                + "received (lag 1, 0) was logged by the crashed writer but never acknowledged",
                DatabaseFailoverSection.lossVerdict(lacked));
        DatabaseFailoverRecord none = new DatabaseFailoverRecord(DatabaseTier.parse("semisync"), List.of(
                failover("f1", -100_000, 10_000, 50_000, 60_000, 2_000_000, 0)), List.of());
        assertEquals("semisync acknowledges a commit once a replica has it: at each crash the promoted replica had "
                + "received all the writer had logged (lag 0 transactions)", DatabaseFailoverSection.lossVerdict(none));
    }

    @Test
    void theReportGivesEachPhasesMedianOverTheFailoversWhereItHappenedAndTheTransactionsNeverReceived(
            @TempDir Path dir) throws Exception {
        DatabaseFailoverRecord r = new DatabaseFailoverRecord(DatabaseTier.parse("async"), List.of(
                failover("f1", -100_000, 10_000, 50_000, 60_000, 2_000_000, 0),
                failover("f2", -200_000, 20_000, 70_000, 100_000, 0, 3),
                failover("f3", -300_000, 30_000, 90_000, 140_000, 4_000_000, 1)), List.of(
                        new DatabaseNode("db1", DatabaseNode.Role.REPLICA, 7, "0-2-30")));
        r.writeTo(dir);
        assertEquals(r, DatabaseFailoverRecord.readFrom(dir), "written whole and read back");
        assertEquals(100_000, DatabaseFailoverSection.median(r.failovers(), "detected->first-commit"));
        assertEquals(3_000_000, DatabaseFailoverSection.median(r.failovers(), "detected->rejoined"),
                "the median of the two that rejoined");
        StringWriter text = new StringWriter();
        DatabaseFailoverSection.print(new PrintWriter(text, true), r);
        assertEquals("database async:3: 3 fail-overs of the writer; median ms: injected->detected 200.0 "
                + "detected->fenced 20.0 fenced->promoted 50.0 promoted->first-commit 30.0 detected->first-commit 100.0 "
                + "detected->rejoined 3000.0; transactions the new writer never received: 4\n"
                + "  async: 4 transactions the writer had logged never reached its successor (lag 0, 3, 1); the audit "
                + "and the history checker say which of them had been acknowledged\n", text.toString());
        ObjectNode json = DatabaseFailoverSection.json(r);
        assertEquals(4, json.get("transactions_behind").asLong());
        assertEquals(100.0, json.get("median_ms").get("detected->first-commit").asDouble());
        StringBuilder html = new StringBuilder();
        DatabaseFailoverSection.html(html, r);
        assertTrue(html.toString().contains("<h2 id=\"database\">") && html.toString().contains("<td>f2</td>"),
                html.toString());
        assertTrue(html.toString().contains("lag 0, 3, 1"), "the page says what async lost");
        assertEquals(null, DatabaseFailoverRecord.readFrom(Files.createDirectories(dir.resolve("other"))),
                "a run on one server has none");
    }
}
