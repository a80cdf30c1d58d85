package org.ftlab.tart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** A sender fed by external inputs: its stamps, its outputs' virtual times and the silence it may promise. */
class ExternalSenderTest {
    private final AtomicLong now = new AtomicLong(1_000_000);

    private ExternalSender sender(Estimator e) {
        return new ExternalSender("g", new EstimatorHistory("g", e), now::get);
    }

    @Test
    void stampsAreRealTimeAndStrictlyIncreasingEvenWhenTheClockStands() {
        ExternalSender s = sender(new ConstantEstimator(100));
        assertEquals(1_000_000, s.stamp());
        assertEquals(1_000_001, s.stamp());
        now.set(2_000_000);
        assertEquals(2_000_000, s.stamp());
    }

    @Test
    void anOutputIsDequeuedAtTheLaterOfItsStampAndTheSendersTimePlusTheEstimate() {
        ExternalSender s = sender(new LinearEstimator(0, new double[] {61_000}, new long[] {1}));
        long a = s.stamp();
        long b = s.stamp();
        ExternalSender.Handling ha = s.begin(a, new long[] {3});
        assertEquals(a + 183_000, ha.outputVt());
        s.sent(ha);
        ExternalSender.Handling hb = s.begin(b, new long[] {2});
        assertEquals(ha.outputVt(), hb.dequeueVt(), "the second waited for the first");
        assertEquals(ha.outputVt() + 122_000, hb.outputVt());
        assertThrows(IllegalStateException.class, () -> s.begin(b, new long[] {1}), "inputs dequeue once, in order");
    }

    @Test
    void noOutputEverFallsAtOrBeforeASilenceThePromisedEarlier() {
        ExternalSender s = sender(new LinearEstimator(0, new double[] {1_000}, new long[] {1}));
        long idle = s.silentThrough();
        assertEquals(now.get() + 1_000 - 1, idle, "idle: now plus the least handling, minus one");
        long stamp = s.stamp();
        long waiting = s.silentThrough();
        ExternalSender.Handling h = s.begin(stamp, new long[] {5});
        long busy = s.silentThrough();
        assertEquals(h.outputVt() - 1, busy, "handling: the tick before its output");
        assertTrue(h.outputVt() > Math.max(idle, waiting));
        s.sent(h);
        now.addAndGet(10);
        long after = s.silentThrough();
        long next = s.stamp();
        ExternalSender.Handling h2 = s.begin(next, new long[] {1});
        assertTrue(h2.outputVt() > after, h2.outputVt() + " after the promise " + after);
    }

    @Test
    void aChangeOfEstimatorTakesEffectAfterEveryPromiseSoNoneIsBroken() {
        ExternalSender s = sender(new ConstantEstimator(600_000));
        long promise = s.silentThrough();
        DeterminismFault f = s.recalibrate(new ConstantEstimator(60_000));
        assertTrue(f.effectiveVt() > promise);
        long during = s.silentThrough();
        assertEquals(promise, during, "while the change is logged, promises hold under the new estimator too");
        s.apply(f);
        now.set(f.effectiveVt());
        long stamp = s.stamp();
        ExternalSender.Handling h = s.begin(stamp, new long[0]);
        assertEquals(stamp + 60_000, h.outputVt());
        assertTrue(h.outputVt() > promise);
    }

    @Test
    void aRestoredSenderStampsAfterTheOldPrimarysLastStampWhateverItsClockSays() {
        ExternalSender s = sender(new ConstantEstimator(100));
        s.stamp();
        ExternalSender.State st = new ExternalSender.State(5_000_000, 9_000_000);
        ExternalSender r = ExternalSender.restore("g", new EstimatorHistory("g", new ConstantEstimator(100)), now::get,
                st);
        assertEquals(9_000_001, r.stamp(), "a new primary's clock may lag: stamps never go back");
    }
}
