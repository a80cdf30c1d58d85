package org.ftlab.rm;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** When a warming replica's JIT counts as settled. */
class JitSettlingTest {
    @Test
    void aFirstReadingNeverSettles() {
        assertFalse(JitSettling.settled(-1, 500));
    }

    @Test
    void littleGrowthSettlesAndMoreDoesNot() {
        assertTrue(JitSettling.settled(500, 504));
        assertTrue(JitSettling.settled(100, 104), "fewer than five new methods");
        assertFalse(JitSettling.settled(500, 520), "4% more methods at C2");
    }
}
