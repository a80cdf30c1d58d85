package org.ftlab.harness.attribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.ftlab.rm.api.FaultKind;
import org.junit.jupiter.api.Test;

/** Which injected faults the attribution is judged on, and the cause each should be named by: the kind's. */
class InjectedStallsTest {
    @Test
    void theAttributionIsJudgedOnTheStallsOfKnownCause() {
        assertEquals(List.of("gc", "cpu-hog", "db-lock", "db-backup"), FaultKind.all().stream().filter(InjectedStalls::judged)
                .map(FaultKind::wireName).toList());
    }

    @Test
    void eachStallIsExpectedUnderACauseTheAttributionNames() {
        Set<String> named = Stream.concat(Arrays.stream(Stall.Cause.values()).map(Stall.Cause::wireName),
                Stream.of(Attribution.RUN_QUEUE, Attribution.CPU_OUTSIDE, Attribution.CPU_STEAL))
                .collect(Collectors.toSet());
        for (FaultKind k : FaultKind.all()) {
            k.cause().ifPresent(c -> assertTrue(named.contains(c.name()), k.wireName() + ": " + c.name()));
        }
        assertEquals("gc-pause(r2)", InjectedStalls.describe(FaultKind.parse("gc"), "r2"));
        assertEquals("cpu-outside(host)", InjectedStalls.describe(FaultKind.parse("cpu-hog"), "r2"));
        assertEquals("db-lock-wait(db)", InjectedStalls.describe(FaultKind.parse("db-lock"), null));
        assertEquals("db-mdl-wait(db)", InjectedStalls.describe(FaultKind.parse("db-backup"), null));
    }

    @Test
    void aStallIsOfItsKindInAnyProcessAndExpectedInItsOwnPlace() {
        FaultKind gc = FaultKind.parse("gc");
        assertTrue(InjectedStalls.ofKind(gc).test("gc-pause(r1)"));
        assertFalse(InjectedStalls.ofKind(gc).test("safepoint(r1)"));
        assertTrue(InjectedStalls.expected(gc, "r1").test("gc-pause(r1)"));
        assertFalse(InjectedStalls.expected(gc, "r1").test("gc-pause(r2)"), "another replica's collection");
    }

    @Test
    void aKindThatIsNotAStallHasNoExpectedCause() {
        assertEquals("crash is not a stall of known cause", assertThrows(IllegalArgumentException.class,
                () -> InjectedStalls.describe(FaultKind.parse("crash"), "r1")).getMessage());
    }
}
