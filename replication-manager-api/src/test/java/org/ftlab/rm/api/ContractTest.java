package org.ftlab.rm.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.ftlab.fd.FailureKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** The contract's records on the wire and their checks, with the stand-in kinds of {@link TestKinds}. */
class ContractTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final FaultKind DIM = FaultKind.parse("dim");
    private static final FaultKind CUT = FaultKind.parse("cut");
    private static final FaultKind BLIP = FaultKind.parse("blip");
    private static final FaultTarget PRIMARY = FaultTarget.of(FaultTarget.Node.PRIMARY);

    @Test
    void everyRecordOfTheManagersStatusSurvivesTheWireUnchanged() throws Exception {
        FaultSpec spec = new FaultSpec(CUT, FaultTarget.parse("fd|backup"), 2_000, 0);
        ManagerStatus status = new ManagerStatus(7, "r2", 2, 2, List.of("r4"), 1, 12, 100, 500, 4242,
                "jdbc:mysql://127.0.0.1:3306/ftlab",
                List.of(new ReplicaStatus("r2", ReplicaState.PRIMARY, 11L, 0, 950, "remote+http://127.0.0.1:8180",
                        1_000, 5_000L, 7_600L, 0.93, 6_000L), new ReplicaStatus("r1", ReplicaState.DEAD, 10L, 0, -1,
                        null, 900, null, null, null, null)),
                List.of(new FailureRecord("f1", "r1", FailureKind.HANG, FailureRecord.Source.CLIENT, true, 10, 20, 30,
                        40, "r4", 1, "r2", 0.64, new TierRecovery("r2", 35, 45, 12, 800, 300, null))),
                List.of(new InjectedFault("f1", spec, "r3", 0, 10, 2_010, InjectedFault.Repair.UNDONE)),
                new DatabaseView(DatabaseTier.parse("semisync"), "db2", List.of(
                        new DatabaseNode("db1", DatabaseNode.Role.REJOINING, 51, "0-1-136"),
                        new DatabaseNode("db2", DatabaseNode.Role.WRITER, 52, "0-2-140"),
                        new DatabaseNode("db3", DatabaseNode.Role.REPLICA, 53, "0-2-140")),
                        List.of(new DatabaseFailover("db1", "crash", "db2", 100, 104, 150, 210, 0, "0-1-136",
                                "0-1-136", 0))),
                new ManagerGroup(List.of("m1", "m2", "m3"), "m2", 2, List.of(new ManagerGroup.Leadership("m1", 1, 5),
                        new ManagerGroup.Leadership("m2", 2, 900))));
        String wire = JSON.writeValueAsString(status);
        assertEquals(status, JSON.readValue(wire, ManagerStatus.class));
        assertTrue(wire.contains("\"kind\":\"cut\"") && wire.contains("\"target\":\"fd|backup\"")
                && wire.contains("\"state\":\"primary\"") && wire.contains("\"source\":\"client\"")
                && wire.contains("\"tier\":\"semisync:3\"") && wire.contains("\"role\":\"rejoining\""), wire);
    }

    @Test
    void aFaultSpecIsCheckedWhereItIsMade() {
        assertEquals(10, new FaultSpec(DIM, PRIMARY, 1_000, 0).amount(), "the kind's default amount");
        assertEquals(FaultTarget.of(FaultTarget.Node.DB), new FaultSpec(BLIP, null, 0, 0).target(),
                "the kind's first target");
        refused("dim needs a duration of 1 ms to 600 s, was 0 ms", () -> new FaultSpec(DIM, PRIMARY, 0, 0));
        refused("dim needs a duration of 1 ms to 600 s, was 600001 ms",
                () -> new FaultSpec(DIM, PRIMARY, 600_001, 0));
        refused("blip has no duration (the manager repairs it)",
                () -> new FaultSpec(BLIP, FaultTarget.of(FaultTarget.Node.DB), 1_000, 0));
        refused("blip cannot target primary; it takes [db]", () -> new FaultSpec(BLIP, PRIMARY, 0, 0));
        refused("cut needs two sides, such as primary|clients, was primary", () -> new FaultSpec(CUT, PRIMARY, 1_000,
                0));
        refused("dim takes one target, was primary|clients", () -> new FaultSpec(DIM, FaultTarget.parse(
                "primary|clients"), 1_000, 0));
        refused("dim amount must be 1 to 100 percent, was 150", () -> new FaultSpec(DIM, PRIMARY, 1_000, 150));
        refused("a fault needs a kind; use one of dim, cut, blip", () -> new FaultSpec(null, PRIMARY, 1_000, 0));
        assertThrows(IllegalArgumentException.class, () -> FaultTarget.parse("primary|primary"));
    }

    @Test
    void aFaultSpecReadsAsAScheduleLineDoes() {
        assertEquals("dim primary for 1000 ms at 10 percent", new FaultSpec(DIM, PRIMARY, 1_000, 0).toString());
        assertEquals("cut fd|backup for 2000 ms", new FaultSpec(CUT, FaultTarget.parse("fd|backup"), 2_000, 0)
                .toString());
        assertEquals("blip db", new FaultSpec(BLIP, null, 0, 0).toString());
    }

    private static void refused(String why, Executable making) {
        assertEquals(why, assertThrows(IllegalArgumentException.class, making).getMessage());
    }
}
