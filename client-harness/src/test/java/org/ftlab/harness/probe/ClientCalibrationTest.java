package org.ftlab.harness.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The machine's calibration of ftlab's client: kept in a cache, copied into a run, described per door. */
class ClientCalibrationTest {
    private static final ClientCalibration MEASURED = new ClientCalibration("2026-11-27T22:00:00Z", "lab-host", 200,
            3, List.of(new ClientCalibration.Door("ejb", "bare-ejb", false, -4, -860, 1200, 0.99, 0.82),
                    new ClientCalibration.Door("rest", "vegeta", true, -8, 190, 2500, 0.99, 1.06),
                    new ClientCalibration.Door("rest", "apache-httpclient5", false, 60, 740, 3100, 1.08, 1.30)));

    @Test
    void aRunStartedAfterTheBenchCarriesTheMachinesCalibrationAndOneBeforeItNone(@TempDir Path dir) throws Exception {
        Path cache = dir.resolve("cache");
        Path before = Files.createDirectories(dir.resolve("run-before"));
        assertFalse(ClientCalibration.copyInto(cache, before), "nothing calibrated yet");
        assertNull(ClientCalibration.readFrom(before));

        MEASURED.writeTo(cache);
        Path after = Files.createDirectories(dir.resolve("run-after"));
        assertTrue(ClientCalibration.copyInto(cache, after));
        assertEquals(MEASURED, ClientCalibration.readFrom(after));
        assertTrue(Files.readString(after.resolve(ClientCalibration.FILE)).contains("\"p99_added_us\""),
                "snake_case, as the run's other records");
        assertFalse(Files.exists(after.resolve(ClientCalibration.FILE + ".tmp")));
    }

    @Test
    void eachDoorIsDescribedOverEachClientItWasSetAgainst() {
        assertEquals(List.of("-0.004 ms at the median and -0.860 ms at p99 (×0.99, ×0.82) over bare-ejb"),
                MEASURED.describe("ejb"));
        assertEquals(2, MEASURED.describe("rest").size());
        assertTrue(MEASURED.describe("rest").get(0).endsWith("over vegeta (external)"), MEASURED.describe("rest")
                .toString());
        assertEquals(List.of(), MEASURED.describe("corba"), "a door not calibrated");
    }

    @Test
    void aDamagedCalibrationIsAnErrorNamingTheFile(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve(ClientCalibration.FILE), "{not json");
        String message = assertThrows(IOException.class,
                () -> ClientCalibration.readFrom(dir)).getMessage();
        assertTrue(message.contains(ClientCalibration.FILE) && message.contains("not a client calibration"), message);
    }
}
