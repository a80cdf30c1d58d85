package org.ftlab.rm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.ftlab.rm.os.CompiledCode;
import org.junit.jupiter.api.Test;

/** A replica is hot while it has compiled at the top tier nearly all the request path any primary has. */
class HotnessTest {
    private final Map<Long, CompiledCode> code = new HashMap<>();
    private final AtomicLong now = new AtomicLong(1_000);
    private final Hotness hotness = new Hotness(pid -> {
        CompiledCode c = code.get(pid);
        if (c == null) {
            throw new IOException("JVM " + pid + " is gone");
        }
        return c;
    }, now::get);

    /**
     * {@code top} request-path methods at C2, {@code c1} more at C1's, and a method off the path at the highest of
     * those tiers.
     */
    private static CompiledCode code(int top, int c1) {
        Map<String, Integer> tiers = new HashMap<>();
        for (int i = 0; i < top + c1; i++) {
            tiers.put("org.hibernate.M" + i + ".run()V", i < top ? 4 : 3);
        }
        tiers.put("java.util.HashMap.get(Ljava/lang/Object;)Ljava/lang/Object;", top > 0 ? 4 : 3);
        return new CompiledCode(tiers);
    }

    @Test
    void theReferenceIsThePrimarysTopTierRequestPathAndABackupIsHotFromItsFirstReadingAboveNinetyPercent() {
        code.put(1L, code(20, 0));
        code.put(2L, code(17, 3));
        hotness.sample(new Hotness.Replicas("r1", Map.of("r1", 1L, "r2", 2L)));
        assertEquals(20, hotness.referenceSize(), "the method off the request path is not in it");
        assertEquals(1.0, hotness.of("r1").share(), 1e-9);
        assertEquals(0.85, hotness.of("r2").share(), 1e-9);
        assertFalse(hotness.of("r2").hot());

        now.set(2_000);
        code.put(2L, code(19, 1));
        hotness.sample(new Hotness.Replicas("r1", Map.of("r1", 1L, "r2", 2L)));
        assertEquals(2_000, hotness.of("r2").hotSinceEpochMillis());
        now.set(3_000);
        code.put(2L, code(20, 0));
        hotness.sample(new Hotness.Replicas("r1", Map.of("r1", 1L, "r2", 2L)));
        assertEquals(2_000, hotness.of("r2").hotSinceEpochMillis(), "hot since the first reading above");
    }

    @Test
    void theReferenceGrowsWithTheNextPrimarysCodeAndAGoneReplicaLosesItsReading() {
        code.put(1L, code(10, 0));
        code.put(2L, code(10, 10));
        hotness.sample(new Hotness.Replicas("r1", Map.of("r1", 1L, "r2", 2L)));
        assertTrue(hotness.of("r2").hot());
        // r1 is gone; r2 serves and compiles ten more: the reference has them all, and r2 has them all
        code.remove(1L);
        code.put(2L, code(20, 0));
        code.put(3L, code(10, 10));
        hotness.sample(new Hotness.Replicas("r2", Map.of("r2", 2L, "r3", 3L)));
        assertEquals(20, hotness.referenceSize());
        assertNull(hotness.of("r1"));
        assertEquals(0.5, hotness.of("r3").share(), 1e-9);
        assertFalse(hotness.of("r3").hot());
    }

    @Test
    void withoutAPrimaryThatCompiledAnyOfTheRequestPathNoReplicaHasAShare() {
        code.put(1L, new CompiledCode(Map.of("java.util.HashMap.size()I", 4)));
        hotness.sample(new Hotness.Replicas("r1", Map.of("r1", 1L)));
        assertNull(hotness.of("r1"));
    }

    @Test
    void inJvmsCappedBelowC2TheTopTierIsTheirCapAndTheReferenceStartsAgainWhenAPrimaryReachesAHigherOne() {
        code.put(1L, code(0, 10)); // C1 only (-XX:TieredStopAtLevel): its ten methods at tier 3
        code.put(2L, code(0, 5));
        hotness.sample(new Hotness.Replicas("r1", Map.of("r1", 1L, "r2", 2L)));
        assertEquals(10, hotness.referenceSize());
        assertEquals(0.5, hotness.of("r2").share(), 1e-9);
        code.put(1L, code(4, 6));
        hotness.sample(new Hotness.Replicas("r1", Map.of("r1", 1L, "r2", 2L)));
        assertEquals(4, hotness.referenceSize(), "only what is at C2 now");
        assertEquals(0.0, hotness.of("r2").share(), 1e-9);
    }
}
