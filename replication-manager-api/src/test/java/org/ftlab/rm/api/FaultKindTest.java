package org.ftlab.rm.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class FaultKindTest {
    @Test
    void aKindTakesAnAmountExactlyWhenARandomScheduleHasLevelsToDrawItFrom() {
        for (FaultKind k : FaultKind.values()) {
            assertEquals(k.amountUnit() != null, !k.amountLevels().isEmpty(), k.wireName());
            for (double level : k.amountLevels()) {
                assertEquals(level, k.checkAmount(level), k.wireName() + " accepts its own level " + level);
            }
        }
    }

    @Test
    void aReplicaFailsOnACrashAndOnAHangFreezeOrLinkDownThatOutlastsTheDetectorsTimeout() {
        FaultTarget primary = FaultTarget.of(FaultTarget.Node.PRIMARY);
        assertTrue(FaultKind.CRASH.failsAReplica(new FaultSpec(FaultKind.CRASH, primary, 0, 0), 500));
        for (FaultKind k : new FaultKind[] {FaultKind.HANG, FaultKind.FREEZE, FaultKind.LINK_DOWN}) {
            assertTrue(k.failsAReplica(new FaultSpec(k, primary, 2_000, 0), 500), k.wireName());
            assertFalse(k.failsAReplica(new FaultSpec(k, primary, 300, 0), 500), k.wireName() + ", shorter");
        }
        assertFalse(FaultKind.LINK_DOWN.failsAReplica(new FaultSpec(FaultKind.LINK_DOWN,
                FaultTarget.of(FaultTarget.Node.DB), 2_000, 0), 500), "the database's link is not a replica's");
        assertFalse(FaultKind.SLOW.failsAReplica(new FaultSpec(FaultKind.SLOW, primary, 60_000, 10), 500),
                "a slow replica still heartbeats");
        assertTrue(FaultKind.PARTITION.failsAReplica(new FaultSpec(FaultKind.PARTITION, FaultTarget.between(
                FaultTarget.Node.PRIMARY, FaultTarget.Node.FD), 2_000, 0), 500), "cut off from the detector");
        assertFalse(FaultKind.PARTITION.failsAReplica(new FaultSpec(FaultKind.PARTITION, FaultTarget.between(
                FaultTarget.Node.PRIMARY, FaultTarget.Node.DB), 2_000, 0), 500), "the detector still hears it");
    }
}
