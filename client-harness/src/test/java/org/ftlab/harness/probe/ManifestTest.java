package org.ftlab.harness.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ManifestTest {
    @TempDir
    Path dir;

    @Test
    void aManifestFromBeforeTheFormatWasNumberedReadsAsWhatItsRunWasMadeWith() throws Exception {
        Files.writeString(dir.resolve(Manifest.FILE), """
                {"status":"complete","profile":"quick","grid":{"clients":[1,4],"think_ms":[0,20],"reply":["orig"],
                 "posts_per_client":100,"views_per_client":100,"configurations":4},
                 "failover_strategy":"preconnected","faults":{"kind":"crash","every_s":0.0,"per_config":1},
                 "configs_done":["c01-t00-rorig"],"some_future_key":1}
                """);
        Manifest m = Manifest.readAny(dir);
        assertEquals(1, m.formatVersion());
        assertEquals("auction", m.workload(), "every run before workloads were named ran the auction");
        assertEquals(RunSettings.DEFAULTS, m.settings(), "the knobs' defaults, which it ran with");
        assertFalse(m.grid().hasDesign(), "the plain design, which it ran with");
        assertEquals("crash", m.faults().describeKinds());
        assertEquals(1, m.faults().perConfig());
        assertEquals(List.of("c01-t00-rorig"), m.configsDone());
        assertEquals(List.of(), m.segments());
        assertEquals(null, m.audit());
    }

    @Test
    void aManifestWrittenNowCarriesItsFormatVersionAndReadsBackEqual() throws Exception {
        Manifest m = new Manifest(Manifest.FORMAT_VERSION, "running", "quick", Manifest.DEFAULT_WORKLOAD,
                new Manifest.Grid(List.of(1), List.of(0), List.of("orig"), 10, 10, 1, 5, 2, "random", 7L, "closed",
                        List.of(), 0, List.of("c01-t00-rorig-spreconnected-rep1", "c01-t00-rorig-shedged-rep2"),
                        List.of("preconnected", "hedged"), null, null),
                "hedged", RunSettings.DEFAULTS, Manifest.Faults.of("none", 0, List.of(), null), 2, 1, "embedded",
                Map.of("wildfly", "39"), "jvm", new Manifest.Host("h", "Linux", 2, 1L << 30), "rev",
                "2026-01-01T00:00:00Z", null, List.of(), List.of(),
                List.of(new Manifest.Segment("2026-01-01T00:00:00Z", null, null)), List.of(), List.of(), null, null,
                "rest", (ObjectNode) new ObjectMapper().readTree("{\"hot_auctions\": 4, \"tier\": \"stateful\", "
                        + "\"stateful\": {\"determinism\": \"off\", \"checkpoint_every\": 250}}"), 1).withConfigDone("c01-t00-rorig-x1").withAudit(new Manifest.Audit(10, true, List.of()))
                .withFinished("complete", "2026-01-01T00:01:00Z");
        m.writeTo(dir);
        assertTrue(Files.readString(dir.resolve(Manifest.FILE)).contains("\"format_version\" : " + Manifest.FORMAT_VERSION));
        assertEquals(m, Manifest.readAny(dir));
        assertEquals("complete", Manifest.readAny(dir).segments().get(0).status(), "the last segment ended too");
    }

    /** A workload's parameters, a record of its own (as a workload keeps them). */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Knobs(Integer roundsPerClient, String mode) {
    }

    @Test
    void aWorkloadsParametersAreWrittenAsItsRecordNamesThemAndReadBackAsThatRecord() throws Exception {
        ObjectNode written = Manifest.workloadParametersOf(new Knobs(3, null));
        assertEquals("{\"rounds_per_client\":3}", written.toString(), "its names, nothing for what it was not given");
        assertEquals(new Knobs(3, null), Manifest.readWorkloadParameters(written, Knobs.class));
        assertNull(Manifest.readWorkloadParameters(null, Knobs.class), "none recorded");
        ObjectNode other = (ObjectNode) new ObjectMapper().readTree("{\"rounds_per_client\": 3, \"later\": true}");
        assertEquals(new Knobs(3, null), Manifest.readWorkloadParameters(other, Knobs.class),
                "a key it does not know is left alone");
        ObjectNode damaged = (ObjectNode) new ObjectMapper().readTree("{\"rounds_per_client\": \"many\"}");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Manifest.readWorkloadParameters(damaged, Knobs.class));
        assertEquals(1, e.getMessage().lines().count(), e.getMessage());
    }

    @Test
    void aManifestOfANewerFormatOrADamagedOneIsRefusedInOneLine() throws Exception {
        Files.writeString(dir.resolve(Manifest.FILE), "{\"format_version\": 99, \"status\": \"complete\"}");
        IllegalArgumentException newer = assertThrows(IllegalArgumentException.class, () -> Manifest.readAny(dir));
        assertTrue(newer.getMessage().contains("format version 99, newer than"), newer.getMessage());
        Files.writeString(dir.resolve(Manifest.FILE), "{\"status\": \"compl");
        IllegalArgumentException damaged = assertThrows(IllegalArgumentException.class, () -> Manifest.readAny(dir));
        assertTrue(damaged.getMessage().contains("is not a manifest of ftlab's"), damaged.getMessage());
        assertEquals(1, damaged.getMessage().lines().count());
    }
}
