package org.ftlab.harness.grid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.ftlab.harness.probe.RunSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A run's knobs: checked where declared, recorded in the manifest and read back on resume. */
class RunSettingsTest {
    @TempDir
    Path tmp;

    @Test
    void everyKnobIsRecordedInTheManifestAndReadBack() throws Exception {
        RunSettings s = new RunSettings(50, 150, 200L, 0L, false, "/plugins/mine.jar");
        RunDirectory dir = RunDirectory.create(tmp.resolve("run"), GridPlan.named("quick"), "hedged",
                FaultSchedule.NONE, 2, 1, "embedded MariaDB", tmp, s);
        assertEquals(s, dir.settings());
        assertEquals(s, RunDirectory.resume(tmp.resolve("run")).settings());
        String manifest = Files.readString(tmp.resolve("run/manifest.json"));
        for (String key : new String[] {"\"heartbeat_ms\" : 50", "\"heartbeat_timeout_ms\" : 150",
            "\"invocation_timeout_ms\" : 200", "\"hedge_delay_ms\" : 0", "\"request_log\" : false"}) {
            assertTrue(manifest.contains(key), key);
        }
    }

    @Test
    void aRunFromBeforeTheKnobsWereRecordedHasTheDefaults() throws Exception {
        RunDirectory dir = RunDirectory.create(tmp.resolve("old"), GridPlan.named("quick"), "reactive",
                FaultSchedule.NONE, 2, 1, "embedded MariaDB", tmp);
        assertEquals(RunSettings.DEFAULTS, dir.settings());
    }

    @Test
    void aTimeoutUnderTwoHeartbeatsOrAnOutOfRangeKnobIsRefusedWithTheOptionsName() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new RunSettings(100, 150, null, null, true,
                null)).getMessage().contains("--heartbeat-timeout-ms must be at least twice --heartbeat-ms"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new RunSettings(0, 500, null, null, true,
                null)).getMessage().startsWith("--heartbeat-ms must be"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new RunSettings(100, 500, 0L, null, true,
                null)).getMessage().startsWith("--invocation-timeout-ms must be"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new RunSettings(100, 500, null, -1L, true,
                null)).getMessage().startsWith("--hedge-delay-ms must be"));
    }
}
