package org.ftlab.harness.failover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class AdaptivePoliciesTest {

    @Test
    void windowQuantilesAreNearestRankOverTheLastValuesOnly() {
        LatencyWindow w = new LatencyWindow(100);
        for (int i = 1; i <= 100; i++) {
            w.add(i);
        }
        assertEquals(95, w.quantile(0.95));
        assertEquals(100, w.max());
        for (int i = 0; i < 100; i++) {
            w.add(1_000 + i); // pushes every earlier value out
        }
        assertEquals(1_000, w.quantile(0.01));
        assertEquals(1_099, w.max());
        assertEquals(100, w.count());
    }

    @Test
    void anEmptyWindowHasNoQuantileAndATinyOneIsRefused() {
        assertEquals(-1, new LatencyWindow(16).max());
        assertThrows(IllegalArgumentException.class, () -> new LatencyWindow(8));
    }

    @Test
    void timeoutIsTheCeilingUntilEnoughAttemptsWereSeen() {
        InvocationTimeout t = new InvocationTimeout();
        for (int i = 0; i < InvocationTimeout.MIN_SAMPLES - 1; i++) {
            t.record(2_000);
        }
        assertEquals(InvocationTimeout.CEILING_MILLIS, t.currentMillis());
        t.record(2_000);
        assertEquals(InvocationTimeout.FLOOR_MILLIS, t.currentMillis(), "3 x 2 ms is under the floor");
    }

    @Test
    void timeoutIsThreeTimesTheSlowestRecentAttemptWithinItsBounds() {
        InvocationTimeout t = new InvocationTimeout();
        for (int i = 0; i < 500; i++) {
            t.record(i == 250 ? 40_000 : 3_000);
        }
        assertEquals(120, t.currentMillis());
        t.record(900_000);
        assertEquals(InvocationTimeout.CEILING_MILLIS, t.currentMillis(), "capped at the ceiling");
        for (int i = 0; i < InvocationTimeout.WINDOW; i++) {
            t.record(5_000);
        }
        assertEquals(InvocationTimeout.FLOOR_MILLIS, t.currentMillis(), "a stall leaves the window after "
                + InvocationTimeout.WINDOW + " attempts");
    }

    @Test
    void hedgeDelayIsTheOperationsOwn95thPercentileBetweenItsBounds() {
        InvocationTimeout timeout = new InvocationTimeout();
        HedgeDelay d = new HedgeDelay(timeout);
        for (int i = 1; i <= 200; i++) {
            timeout.record(10_000);
            d.record("postAuction", i * 100L); // 0.1 .. 20 ms: p95 = 19 ms
            d.record("viewAuction", 300); // fast: the 1-ms floor applies
        }
        assertEquals(30, timeout.currentMillis());
        assertEquals(15_000, d.currentMicros("postAuction"), "19 ms is above half the 30-ms timeout");
        assertEquals(HedgeDelay.MIN_MICROS, d.currentMicros("viewAuction"));
        assertEquals(15_000, d.currentMicros("bidHistory"), "an operation not seen yet hedges at the upper bound");
        for (int i = 0; i < InvocationTimeout.WINDOW; i++) {
            timeout.record(40_000);
        }
        assertEquals(19_000, d.currentMicros("postAuction"));
        assertTrue(d.currentMicros("postAuction") < timeout.currentMillis() * 1000);
    }

    @Test
    void strategiesAreFoundByNameAndAnUnknownNameListsTheValidOnes() {
        assertEquals("hedged", Strategies.named(" Hedged ").name());
        assertEquals(List.of("reactive", "preconnected", "hedged", "active", "wildfly-cluster"),
                Strategies.names());
        assertEquals(List.of("reactive", "preconnected", "hedged", "active"), Strategies.ownNames(),
                "the baseline needs a lab of WildFly's cluster");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Strategies.named("fast"));
        assertEquals("fail-over strategy must be one of reactive, preconnected, hedged, active, wildfly-cluster or class:NAME (a plug-in); was 'fast'",
                e.getMessage());
    }
}
