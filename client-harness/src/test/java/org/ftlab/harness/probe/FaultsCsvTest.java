package org.ftlab.harness.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.ftlab.rm.api.FaultKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FaultsCsvTest {
    private static final FaultKind HANG = FaultKind.parse("hang");
    private static final FaultKind SLOW = FaultKind.parse("slow");
    @TempDir
    Path dir;

    @Test
    void whatIsWrittenReadsBackTheSameAcrossSegmentsInSegmentOrder() throws Exception {
        FaultRecord hang = new FaultRecord("f1", HANG, "primary", "r1", 100, 200, 210, 300, 1, 400,
                "fenced", 2000, 0, "hang", 1, "r2", 0.62);
        FaultRecord slow = new FaultRecord("f2", SLOW, "backup", "r2", 500, ProbeFile.NONE, ProbeFile.NONE,
                ProbeFile.NONE, FaultRecord.UNKNOWN, 900, "undone", 1000, 10, "", 0);
        FaultRecord unprovoked = new FaultRecord("f3", null, "", "r3", ProbeFile.NONE, 700, 710, 720, 0,
                ProbeFile.NONE, "", 0, 0, "crash", 1);
        FaultsCsv.write(FaultsCsv.file(dir, 2), List.of(unprovoked));
        FaultsCsv.write(FaultsCsv.file(dir, 1), List.of(hang, slow));
        assertEquals(List.of(hang, slow, unprovoked), FaultsCsv.readAll(dir));
        assertEquals(FaultsCsv.HEADER, Files.readAllLines(dir.resolve("faults.csv")).get(0));
        assertEquals("r2: 62% (not hot)", FaultsCsv.readAll(dir).get(0).promotedHotness());
    }

    @Test
    void aFileFromBeforeAColumnExistedReadsItAsUnknownAndOneWithoutItsKeyColumnsIsRefused() throws Exception {
        Files.writeString(dir.resolve("faults.csv"), "fault_id,kind,replica,injected_epoch_us,detected_epoch_us,"
                + "promoted_epoch_us,restored_epoch_us\nf1,crash,r1,1,2,3,4\n");
        FaultRecord f = FaultsCsv.readAll(dir).get(0);
        assertEquals(FaultRecord.UNKNOWN, f.sparesReady());
        assertEquals(FaultRecord.UNKNOWN, f.failures());
        assertEquals("", f.promoted());
        assertTrue(Double.isNaN(f.promotedTopTierShare()));
        assertEquals(null, f.promotedHotness(), "nothing to say of a promotion the file does not record");
        Files.writeString(dir.resolve("faults.csv"), "id,what\nf1,crash\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FaultsCsv.readAll(dir));
        assertTrue(e.getMessage().contains("no column fault_id"), e.getMessage());
    }
}
