package org.ftlab.harness.lab;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Counters read before and after a run are one figure only if one server ran all along. */
class DatabaseCountersTest {
    private static Map<String, Long> server(long id, long uptimeS) {
        return Map.of(DatabaseCounters.SERVER_ID, id, DatabaseCounters.UPTIME_S, uptimeS, "Questions", 1_000L);
    }

    @Test
    void theSameServerRunningAllAlongIsOneFigure() {
        assertTrue(DatabaseCounters.sameServerThroughout(server(1, 100), server(1, 220), 120));
        assertTrue(DatabaseCounters.sameServerThroughout(server(1, 100), server(1, 219), 120), "a second's rounding");
    }

    @Test
    void anotherServerIsNot() {
        assertFalse(DatabaseCounters.sameServerThroughout(server(1, 100), server(2, 500), 120));
    }

    @Test
    void theFirstWriterBackAfterARestartIsNotEvenWithMoreUptimeThanBefore() {
        // killed 10 s into a 120 s run and back at once: 110 s of uptime, more than the 100 s it had before
        assertFalse(DatabaseCounters.sameServerThroughout(server(1, 100), server(1, 110), 120));
    }
}
