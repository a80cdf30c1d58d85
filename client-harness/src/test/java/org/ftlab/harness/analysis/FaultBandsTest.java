package org.ftlab.harness.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.ftlab.harness.analysis.FailoverAnalysis.Band;
import org.ftlab.harness.probe.FaultRecord;
import org.ftlab.harness.probe.ProbeFile;
import org.ftlab.rm.api.FaultKind;
import org.junit.jupiter.api.Test;

/** Faults drawn as bands on a time-based plot. */
class FaultBandsTest {
    private static final long NONE = ProbeFile.NONE;

    /** A crash of the primary, restored at {@code restoredUs}, repaired at {@code repairedUs} (NONE: never). */
    private static FaultRecord crash(String id, long injectedUs, long restoredUs, long repairedUs) {
        return new FaultRecord(id, FaultKind.parse("crash"), "primary", "r1", injectedUs, injectedUs + 50_000,
                injectedUs + 60_000, restoredUs, 1, repairedUs, repairedUs == NONE ? "" : "replaced", 0, 0, "crash",
                1);
    }

    @Test
    void aBandRunsFromTheFaultsStartToItsRepairOrWithoutOneToWhenTheServiceWasWhole() {
        List<FaultRecord> faults = List.of(crash("f1", 10_000_000, 12_000_000, 15_000_000),
                crash("f2", 20_000_000, 21_000_000, NONE));
        List<Band> bands = FaultBands.within(faults, 5_000_000, 0, 30_000_000);
        assertEquals(List.of(new Band("f1", "crash", "primary", 5.0, 10.0),
                new Band("f2", "crash", "primary", 15.0, 16.0)), bands);
    }

    @Test
    void onlyTheFaultsThatOverlapTheWindowAreDrawn() {
        List<FaultRecord> faults = List.of(crash("before", 1_000_000, 2_000_000, 3_000_000),
                crash("touching", 4_000_000, 5_000_000, 6_000_000), crash("after", 11_000_000, 12_000_000, NONE),
                new FaultRecord("never", FaultKind.parse("crash"), "primary", "r1", NONE, NONE, NONE, NONE, 1, NONE, "", 0, 0,
                        "", 1));
        List<Band> bands = FaultBands.within(faults, 0, 6_000_000, 10_000_000);
        assertEquals(List.of("touching"), bands.stream().map(Band::faultId).toList(),
                "a band that ends where the window starts is in it; one that never started is nowhere");
    }
}
