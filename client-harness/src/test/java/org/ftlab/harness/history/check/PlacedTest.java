package org.ftlab.harness.history.check;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.BitSet;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The search's set of placed operations: a frontier and holes, always the same set as a plain bit set. */
class PlacedTest {
    @Test
    void placingBeyondTheFrontierLeavesTheOperationsBetweenAsHoles() {
        Linearizability.Placed p = new Linearizability.Placed();
        p.add(0);
        p.add(3);
        assertEquals(4, p.frontier);
        assertArrayEquals(new int[] {1, 2}, p.holes());
        p.add(2);
        assertArrayEquals(new int[] {1}, p.holes());
        p.remove(3);
        assertEquals(3, p.frontier);
        assertArrayEquals(new int[] {1}, p.holes());
        p.remove(2);
        assertEquals(1, p.frontier);
        assertArrayEquals(new int[] {}, p.holes());
    }

    @Test
    void anyMixOfPlacingAndUndoingKeepsTheSameSetAsABitSet() {
        SplittableRandom random = new SplittableRandom(7);
        Linearizability.Placed p = new Linearizability.Placed();
        BitSet expected = new BitSet();
        for (int step = 0; step < 20_000; step++) {
            int id = random.nextInt(64);
            if (expected.get(id)) {
                p.remove(id);
                expected.clear(id);
            } else {
                p.add(id);
                expected.set(id);
            }
            assertEquals(expected.length(), p.frontier);
            for (int i = 0; i < 70; i++) {
                assertEquals(expected.get(i), p.contains(i), "operation " + i + " at step " + step);
            }
        }
        assertTrue(p.frontier <= 64);
        assertFalse(p.contains(64));
    }
}
