package org.ftlab.rm.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.ftlab.fd.FailureKind;
import org.junit.jupiter.api.Test;

class ContractTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void everyRecordOfTheManagersStatusSurvivesTheWireUnchanged() throws Exception {
        FaultSpec spec = new FaultSpec(FaultKind.PARTITION, FaultTarget.parse("fd|backup"), 2_000, 0);
        ManagerStatus status = new ManagerStatus(7, "r2", 2, 2, List.of("r4"), 1, 12, 100, 500, 4242,
                "jdbc:mysql://127.0.0.1:3306/ftlab",
                List.of(new ReplicaStatus("r2", ReplicaState.PRIMARY, 11L, 0, 950, "remote+http://127.0.0.1:8180",
                        1_000, 5_000L, 7_600L, 0.93, 6_000L), new ReplicaStatus("r1", ReplicaState.DEAD, 10L, 0, -1,
                        null, 900, null, null, null, null)),
                List.of(new FailureRecord("f1", "r1", FailureKind.HANG, FailureRecord.Source.CLIENT, true, 10, 20, 30,
                        40, "r4", 1, "r2", 0.64, new TierRecovery("r2", 35, 45, 12, 800, 300, null))),
                List.of(new InjectedFault("f1", spec, "r3", 0, 10, 2_010, InjectedFault.Repair.UNDONE)));
        String wire = JSON.writeValueAsString(status);
        assertEquals(status, JSON.readValue(wire, ManagerStatus.class));
        assertTrue(wire.contains("\"kind\":\"partition\"") && wire.contains("\"target\":\"fd|backup\"")
                && wire.contains("\"state\":\"primary\"") && wire.contains("\"source\":\"client\""), wire);
    }

    @Test
    void aFaultSpecIsCheckedWhereItIsMade() {
        assertEquals(10, new FaultSpec(FaultKind.SLOW, FaultTarget.of(FaultTarget.Node.PRIMARY), 1_000, 0).amount(),
                "the kind's default amount");
        assertEquals(FaultTarget.of(FaultTarget.Node.DB), new FaultSpec(FaultKind.DB_HANG, null, 1_000, 0).target(),
                "a database fault targets the database");
        assertThrows(IllegalArgumentException.class,
                () -> new FaultSpec(FaultKind.HANG, FaultTarget.of(FaultTarget.Node.PRIMARY), 0, 0), "needs a duration");
        assertThrows(IllegalArgumentException.class,
                () -> new FaultSpec(FaultKind.CRASH, FaultTarget.of(FaultTarget.Node.PRIMARY), 1_000, 0),
                "a crash has no duration");
        assertThrows(IllegalArgumentException.class,
                () -> new FaultSpec(FaultKind.CRASH, FaultTarget.of(FaultTarget.Node.DB), 0, 0), "crash a replica");
        assertThrows(IllegalArgumentException.class,
                () -> new FaultSpec(FaultKind.PARTITION, FaultTarget.of(FaultTarget.Node.PRIMARY), 1_000, 0),
                "a partition has two sides");
        assertThrows(IllegalArgumentException.class,
                () -> new FaultSpec(FaultKind.FLAKY, FaultTarget.of(FaultTarget.Node.PRIMARY), 1_000, 150),
                "no more than 100% dropped");
        assertThrows(IllegalArgumentException.class, () -> FaultTarget.parse("primary|primary"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FaultKind.parse("melt"));
        assertTrue(e.getMessage().contains("db-hang"), "names every kind: " + e.getMessage());
    }
}
