package org.ftlab.harness.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DatabaseWorkRecordTest {

    @Test
    void theWorkIsEachCountersChangeAndPerRequestDividesItByTheRequests() {
        DatabaseWorkRecord w = DatabaseWorkRecord.between(Map.of("Questions", 1_000L, "Com_insert", 10L),
                Map.of("Questions", 4_000L, "Com_insert", 510L, "Com_commit", 7L), 500);
        assertEquals(3_000L, w.counters().get("Questions"));
        assertEquals(500L, w.counters().get("Com_insert"));
        assertEquals(0L, w.counters().get("Com_commit"), "a counter missing before counts no change");
        assertEquals(6.0, w.statementsPerRequest());
        assertEquals(1.0, w.perRequest("Com_insert"));
        assertEquals(0.0, w.perRequest("Com_update"), "a counter the server does not keep is no work");
        assertEquals(0.0, new DatabaseWorkRecord(0, Map.of("Questions", 5L)).statementsPerRequest());
    }

    @Test
    void aRecordReadsBackAsWrittenAndARunWithoutOneHasNone(@TempDir Path dir) throws IOException {
        assertNull(DatabaseWorkRecord.readFrom(dir));
        DatabaseWorkRecord w = new DatabaseWorkRecord(12, Map.of("Questions", 30L, "Com_select", 12L));
        w.writeTo(dir);
        assertEquals(w, DatabaseWorkRecord.readFrom(dir));
        assertTrue(Files.readString(dir.resolve(DatabaseWorkRecord.FILE)).contains("\"requests\" : 12"));
    }

    @Test
    void aDamagedRecordIsAnErrorNamingTheFile(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve(DatabaseWorkRecord.FILE), "{ not json");
        IOException e = assertThrows(IOException.class, () -> DatabaseWorkRecord.readFrom(dir));
        assertTrue(e.getMessage().contains(DatabaseWorkRecord.FILE) && e.getMessage().contains("damaged"),
                e.getMessage());
    }
}
