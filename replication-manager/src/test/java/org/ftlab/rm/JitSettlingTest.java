package org.ftlab.rm;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** When a warming replica's JIT counts as settled. */
class JitSettlingTest {
    @Test
    void aFirstReadingNeverSettles() {
        assertFalse(JitSettling.settled(-1, 500, true));
    }

    @Test
    void littleGrowthWithAnEmptyQueueSettlesAndMoreGrowthOrAWaitingCompileDoesNot() {
        assertTrue(JitSettling.settled(500, 504, true));
        assertFalse(JitSettling.settled(500, 520, true), "4% more methods at C2");
        assertFalse(JitSettling.settled(500, 501, false), "compilations still queued");
    }

    @Test
    void theQueueIsReadFromCompilerQueuesOutput() {
        assertTrue(JitSettling.c2QueueEmpty("Current compiles: \n\nC1 compile queue:\nEmpty\n\nC2 compile queue:\nEmpty\n"));
        assertFalse(JitSettling.c2QueueEmpty("C1 compile queue:\nEmpty\n\nC2 compile queue:\n15573       4       "
                + "org.hibernate.sql.results.spi.LoadContexts::deregister (27 bytes)\n"));
    }
}
