package org.ftlab.rm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.ftlab.os.CompiledCode;
import org.junit.jupiter.api.Test;

/** A replica is hot while it has compiled at the top tier nearly all the request path any primary has. */
class HotnessTest {
    private final Map<Long, CompiledCode> code = new HashMap<>();
    private final AtomicLong now = new AtomicLong(1_000);
    /** What each JVM inlined into each compilation. */
    private final Map<Long, Map<Long, Set<String>>> inlined = new HashMap<>();
    private final List<Long> followed = new ArrayList<>();
    private final List<Long> closed = new ArrayList<>();
    private final Hotness hotness = new Hotness(pid -> {
        CompiledCode c = code.get(pid);
        if (c == null) {
            throw new IOException("JVM " + pid + " is gone");
        }
        return c;
    }, (pid, repository) -> {
        followed.add(pid);
        return new Hotness.Followed() {
            @Override
            public Set<String> inlinedInto(long compileId) {
                return inlined.getOrDefault(pid, Map.of()).getOrDefault(compileId, Set.of());
            }

            @Override
            public void forget(CompiledCode current) {
            }

            @Override
            public void close() {
                closed.add(pid);
            }
        };
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
    void aReferenceMethodInlinedIntoACompilationAtTheTopTierCountsAsThereAndOneInlinedIntoALowerTierDoesNot() {
        code.put(1L, code(20, 0));
        // r2 compiled 16 of the 20 on their own at C2 and the rest only at C1; compilation 7 (C2) inlined two of
        // them, compilation 8 (C1) a third
        Map<String, Integer> tiers = new HashMap<>(code(16, 4).tiers());
        tiers.put("org.ftlab.auction.server.Bean.post()V", 4);
        tiers.put("org.ftlab.auction.server.Bean.view()V", 3);
        code.put(2L, new CompiledCode(tiers, Map.of(7L, 4, 8L, 3)));
        inlined.put(2L, Map.of(7L, Set.of("org.hibernate.M16.run()V", "org.hibernate.M17.run()V"),
                8L, Set.of("org.hibernate.M18.run()V")));
        Path repository = Path.of("jfr");
        hotness.sample(new Hotness.Replicas("r1", Map.of("r1", 1L, "r2", 2L), Map.of("r1", repository, "r2",
                repository)));
        assertEquals(0.9, hotness.of("r2").share(), 1e-9);
        assertTrue(hotness.of("r2").hot());
        assertEquals(Set.of(1L, 2L), Set.copyOf(followed), "each replica with a repository is followed");

        // followed once, and no longer once gone
        hotness.sample(new Hotness.Replicas("r1", Map.of("r1", 1L), Map.of("r1", repository)));
        assertEquals(2, followed.size());
        assertEquals(List.of(2L), closed);
        assertNull(hotness.of("r2"));
    }

    @Test
    void aReplicaWithoutARepositoryYetCountsOnlyWhatItCompiledOnItsOwnUntilItHasOne() {
        code.put(1L, code(20, 0));
        code.put(2L, new CompiledCode(code(16, 4).tiers(), Map.of(7L, 4)));
        inlined.put(2L, Map.of(7L, Set.of("org.hibernate.M16.run()V", "org.hibernate.M17.run()V")));
        hotness.sample(new Hotness.Replicas("r1", Map.of("r1", 1L, "r2", 2L)));
        assertEquals(0.8, hotness.of("r2").share(), 1e-9);
        assertTrue(followed.isEmpty());
        // once booted (with a repository), it is followed from then on
        hotness.sample(new Hotness.Replicas("r1", Map.of("r1", 1L, "r2", 2L), Map.of("r2", Path.of("jfr"))));
        assertEquals(List.of(2L), followed);
        assertEquals(0.9, hotness.of("r2").share(), 1e-9);
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
        Path repository = Path.of("jfr");
        hotness.sample(new Hotness.Replicas("r1", Map.of("r1", 1L, "r2", 2L), Map.of("r1", repository, "r2",
                repository)));
        assertEquals(10, hotness.referenceSize());
        assertEquals(0.5, hotness.of("r2").share(), 1e-9);
        assertTrue(followed.isEmpty(), "C1 inlines only trivial methods: below C2 the inlining is not followed");
        code.put(1L, code(4, 6));
        hotness.sample(new Hotness.Replicas("r1", Map.of("r1", 1L, "r2", 2L)));
        assertEquals(4, hotness.referenceSize(), "only what is at C2 now");
        assertEquals(0.0, hotness.of("r2").share(), 1e-9);
    }
}
