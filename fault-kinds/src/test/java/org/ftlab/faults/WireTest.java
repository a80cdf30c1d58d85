package org.ftlab.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.ftlab.rm.api.FaultKind;
import org.ftlab.rm.api.FaultSpec;
import org.ftlab.rm.api.FaultTarget;
import org.ftlab.rm.api.InjectedFault;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** Specs and injected faults of the real kinds on the manager's wire, and the errors a bad one gets. */
class WireTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aSpecOfEveryKindRoundTripsThroughJsonAsItAlwaysRead() throws Exception {
        for (FaultKind k : FaultKind.all()) {
            FaultTarget target = k.takesTwoSides() && k.targets().contains(FaultTarget.Node.FD)
                    ? FaultTarget.parse("fd|backup") : k.defaultTarget();
            FaultSpec spec = new FaultSpec(k, target, k.lasts() ? 1_500 : 0, 0);
            String wire = JSON.writeValueAsString(spec);
            assertEquals("{\"kind\":\"" + k.wireName() + "\",\"target\":\"" + target + "\",\"durationMillis\":"
                    + spec.durationMillis() + ",\"amount\":" + k.defaultAmount() + "}", wire);
            assertEquals(spec, JSON.readValue(wire, FaultSpec.class));
        }
    }

    @Test
    void anInjectedFaultRoundTripsThroughJsonAsItAlwaysRead() throws Exception {
        InjectedFault fault = new InjectedFault("f3", new FaultSpec(FaultKind.parse("slow"), FaultTarget.of(
                FaultTarget.Node.BACKUP), 2_000, 20), "r2", 4242, 10, 2_010, InjectedFault.Repair.FENCED);
        String wire = JSON.writeValueAsString(fault);
        assertEquals("{\"faultId\":\"f3\",\"spec\":{\"kind\":\"slow\",\"target\":\"backup\",\"durationMillis\":2000,"
                + "\"amount\":20.0},\"replica\":\"r2\",\"pid\":4242,\"injectedEpochUs\":10,\"repairedEpochUs\":2010,"
                + "\"repair\":\"fenced\"}", wire);
        assertEquals(fault, JSON.readValue(wire, InjectedFault.class));
    }

    @Test
    void aBadSpecIsRefusedWithTheKindsOwnWords() {
        FaultTarget primary = FaultTarget.of(FaultTarget.Node.PRIMARY);
        assertEquals(10, new FaultSpec(FaultKind.parse("slow"), primary, 1_000, 0).amount(),
                "the kind's default amount");
        assertEquals(FaultTarget.of(FaultTarget.Node.DB), new FaultSpec(FaultKind.parse("db-hang"), null, 1_000, 0)
                .target(), "a database fault targets the database");
        refused("hang needs a duration of 1 ms to 600 s, was 0 ms",
                () -> new FaultSpec(FaultKind.parse("hang"), primary, 0, 0));
        refused("crash has no duration (the manager repairs it)",
                () -> new FaultSpec(FaultKind.parse("crash"), primary, 1_000, 0));
        refused("crash cannot target db; it takes [primary, backup]",
                () -> new FaultSpec(FaultKind.parse("crash"), FaultTarget.of(FaultTarget.Node.DB), 0, 0));
        refused("partition needs two sides, such as primary|clients, was primary",
                () -> new FaultSpec(FaultKind.parse("partition"), primary, 1_000, 0));
        refused("flaky amount must be 1 to 100 drop_percent, was 150",
                () -> new FaultSpec(FaultKind.parse("flaky"), primary, 1_000, 150));
        refused("cpu-hog amount must be 1 to 64 processes, was 65",
                () -> new FaultSpec(FaultKind.parse("cpu-hog"), primary, 1_000, 65));
        refused("unknown fault kind 'melt'; use one of crash, hang, freeze, slow, link-down, partition, flaky, "
                + "bandwidth, db-hang, db-slow, gc, cpu-hog, db-lock, db-backup, db-crash, rm-crash, rm-hang, fd-crash, "
                + "rm-partition, tcp-reset, one-way",
                () -> FaultKind.parse("melt"));
    }

    private static void refused(String why, Executable making) {
        assertEquals(why, assertThrows(IllegalArgumentException.class, making).getMessage());
    }
}
