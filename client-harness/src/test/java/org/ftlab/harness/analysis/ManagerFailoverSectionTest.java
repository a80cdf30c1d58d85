package org.ftlab.harness.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import org.ftlab.harness.probe.ManagerFailoverRecord;
import org.ftlab.harness.probe.ManagerFailoverRecord.Failover;
import org.junit.jupiter.api.Test;

/** The managers' changes of leader as the report states them. */
class ManagerFailoverSectionTest {
    private static final long T = 1_800_000_000_000_000L;

    private static Failover failover(String fault, long elected, long acting, List<String> handled) {
        return new Failover(fault, fault == null ? null : "rm-crash", fault == null ? 0 : T, "m1", 1, "m2", 2,
                T + elected, acting == 0 ? 0 : T + acting, handled);
    }

    @Test
    void eachChangeOfLeaderRunsFromTheFaultToItsElectionToItsActingAndAStepNotTakenHasNoLength() {
        Map<String, Long> p = ManagerFailoverSection.phases(failover("f1", 700_000, 1_100_000, List.of()));
        assertEquals(700_000, p.get("injected->elected"));
        assertEquals(400_000, p.get("elected->acting"));
        assertEquals(1_100_000, p.get("injected->acting"));
        Map<String, Long> unprovoked = ManagerFailoverSection.phases(failover(null, 700_000, 0, List.of()));
        assertEquals(-1, unprovoked.get("injected->elected"), "no fault injected");
        assertEquals(-1, unprovoked.get("elected->acting"), "not acting (yet)");
    }

    @Test
    void theMediansAreOverTheChangesWhereAPhaseHappenedAndEachChangeIsALineWithTheFailuresItsLeaderHandled() {
        ManagerFailoverRecord r = new ManagerFailoverRecord(List.of("m1", "m2", "m3"), List.of(
                failover("f1", 800_000, 1_600_000, List.of()), failover("f3", 400_000, 900_000, List.of("f2")),
                failover("f4", 700_000, 0, List.of())));
        assertEquals(1_250_000, ManagerFailoverSection.median(r.failovers(), "injected->acting"),
                "the two that acted");
        StringWriter text = new StringWriter();
        ManagerFailoverSection.print(new PrintWriter(text, true), r);
        String[] lines = text.toString().split("\n");
        assertEquals("managers m1, m2, m3: 3 changes of leader; median ms: injected->elected 700.0 elected->acting "
                + "650.0 injected->acting 1250.0", lines[0]);
        assertTrue(lines[2].startsWith("  f3 rm-crash: m1 (term 1) -> m2 (term 2); injected->elected 400.0")
                && lines[2].endsWith("replica failures it handled: f2"), lines[2]);
        assertTrue(lines[3].contains("elected->acting -"), lines[3]);
    }
}
