package org.ftlab.harness.grid;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Open-loop clients are staggered over the period of one: N clients at rate r are one stream at N·r. */
class OpenLoopClientTest {
    @Test
    void fourClientsAtFiftyPerSecondStartFiveMillisecondsApart() {
        for (int i = 0; i < 4; i++) {
            assertEquals(i * 5_000_000L, OpenLoopClient.firstSendOffsetNanos(50, 4, i), "client " + i);
        }
    }

    @Test
    void oneClientStartsAtOnce() {
        assertEquals(0, OpenLoopClient.firstSendOffsetNanos(200, 1, 0));
    }

    @Test
    void theLastClientStartsLessThanOnePeriodAfterTheFirst() {
        long period = Math.round(1e9 / 7);
        long last = OpenLoopClient.firstSendOffsetNanos(7, 10, 9);
        assertEquals(period * 9 / 10, last, 1.0);
    }
}
