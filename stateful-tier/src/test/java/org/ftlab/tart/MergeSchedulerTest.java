package org.ftlab.tart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The merger's scheduler: strict virtual-time order, ties by wire, silence, probes, duplicates, checkpoints. */
class MergeSchedulerTest {
    private static final SilenceSource NOBODY = w -> Long.MIN_VALUE;

    private static MergeScheduler<String> lazy(int wires) {
        return new MergeScheduler<>(wires, Order.VIRTUAL_TIME, SilenceMode.LAZY, NOBODY, System::nanoTime);
    }

    private static String take(MergeScheduler<String> s) throws InterruptedException {
        MergeScheduler.Dispatch<String> d = s.take(0, TimeUnit.MILLISECONDS);
        return d == null ? null : d.message().payload();
    }

    @Test
    void messagesGoInVirtualTimeOrderWhateverOrderTheyArriveIn() throws Exception {
        MergeScheduler<String> s = lazy(2);
        s.deliver(new Message<>(0, 233_000, "sender1"));
        s.deliver(new Message<>(1, 202_000, "sender2"));
        s.silence(0, 300_000);
        s.silence(1, 300_000);
        assertEquals("sender2", take(s), "the paper's example: 202000 before 233000");
        assertEquals("sender1", take(s));
        assertNull(take(s));
    }

    @Test
    void aMessageWaitsUntilEveryOtherWireIsSilentThroughItsTime() throws Exception {
        MergeScheduler<String> s = lazy(2);
        s.deliver(new Message<>(1, 202_000, "sender2"));
        assertNull(take(s), "sender1 might still send something earlier");
        s.silence(0, 201_999);
        assertNull(take(s), "wire 0 comes first at a tie: it must be silent through 202000 itself");
        s.silence(0, 202_000);
        assertEquals("sender2", take(s));
    }

    @Test
    void aTieGoesToTheLowerWireAndALaterWireNeedsSilenceOnlyThroughTheTickBefore() throws Exception {
        MergeScheduler<String> s = lazy(2);
        s.deliver(new Message<>(0, 500, "low"));
        assertEquals(null, take(s));
        s.silence(1, 499);
        assertEquals("low", take(s), "wire 1 could only send at 500 or later, after wire 0's 500");
        s.deliver(new Message<>(1, 500, "high"));
        assertEquals("high", take(s));
        MergeScheduler<String> both = lazy(2);
        both.deliver(new Message<>(1, 700, "b"));
        both.deliver(new Message<>(0, 700, "a"));
        both.silence(0, 800);
        both.silence(1, 800);
        assertEquals("a", take(both));
        assertEquals("b", take(both));
    }

    @Test
    void aMessageAlreadyReceivedIsDroppedAndOneInsideAPromisedSilenceIsABrokenPromise() {
        MergeScheduler<String> s = lazy(2);
        assertTrue(s.deliver(new Message<>(0, 100, "x")));
        assertFalse(s.deliver(new Message<>(0, 100, "x")), "a duplicate, say a sender replaying after a recovery");
        assertFalse(s.deliver(new Message<>(0, 90, "older")));
        s.silence(0, 200);
        assertThrows(IllegalStateException.class, () -> s.deliver(new Message<>(0, 150, "y")));
        assertEquals(2, s.stats().duplicates());
    }

    @Test
    void thePessimismDelayIsTheWaitOfAMessageTheComponentWasFreeToHandle() throws Exception {
        MergeScheduler<String> s = lazy(2);
        s.deliver(new Message<>(1, 1_000, "held"));
        Thread promise = new Thread(() -> {
            try {
                Thread.sleep(30);
            } catch (InterruptedException e) {
                return;
            }
            s.silence(0, 5_000);
        });
        promise.start();
        MergeScheduler.Dispatch<String> d = s.take(5, TimeUnit.SECONDS);
        assertEquals("held", d.message().payload());
        assertTrue(d.pessimismDelayNanos() >= TimeUnit.MILLISECONDS.toNanos(20), d.pessimismDelayNanos() + " ns");
        assertEquals(1, s.stats().delayed());
        s.deliver(new Message<>(1, 2_000, "free"));
        MergeScheduler.Dispatch<String> next = s.take(0, TimeUnit.SECONDS);
        assertEquals(0, next.pessimismDelayNanos(), "silent through 5000 already: no wait");
    }

    @Test
    void curiosityProbesTheSendersTheHeadWaitsOnAndGoesOnTheirAnswer() throws Exception {
        AtomicInteger asked = new AtomicInteger();
        List<Integer> wiresAsked = new ArrayList<>();
        MergeScheduler<String> s = new MergeScheduler<>(3, Order.VIRTUAL_TIME, SilenceMode.CURIOSITY, w -> {
            asked.incrementAndGet();
            wiresAsked.add(w);
            return 10_000;
        }, System::nanoTime);
        s.deliver(new Message<>(1, 5_000, "m"));
        MergeScheduler.Dispatch<String> d = s.take(1, TimeUnit.SECONDS);
        assertEquals("m", d.message().payload());
        assertEquals(List.of(0, 2), wiresAsked, "only the wires it waited on");
        assertEquals(2, d.probes());
        assertEquals(2, s.stats().probes());
    }

    @Test
    void curiosityAsksAgainUntilAnIdleSendersGrowingPromiseSuffices() throws Exception {
        AtomicLong clock = new AtomicLong();
        long start = System.nanoTime();
        // an idle sender promises real time since the start, as an external sender does
        MergeScheduler<String> s = new MergeScheduler<>(2, Order.VIRTUAL_TIME, SilenceMode.CURIOSITY,
                w -> System.nanoTime() - start, System::nanoTime);
        s.deliver(new Message<>(1, TimeUnit.MILLISECONDS.toNanos(20), "future"));
        MergeScheduler.Dispatch<String> d = s.take(5, TimeUnit.SECONDS);
        assertEquals("future", d.message().payload());
        assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(20), "not before the promise covered it");
        assertTrue(d.probes() >= 2 && d.probes() < 200, "asked again, not spinning: " + d.probes());
        assertEquals(0, clock.get());
    }

    @Test
    void inArrivalOrderNothingWaitsAndOrderIsTheArrivals() throws Exception {
        MergeScheduler<String> s = new MergeScheduler<>(2, Order.ARRIVAL, SilenceMode.LAZY, NOBODY, System::nanoTime);
        s.deliver(new Message<>(0, 900, "first"));
        s.deliver(new Message<>(1, 100, "second"));
        assertEquals("first", take(s));
        assertEquals("second", take(s));
    }

    @Test
    void aMessageArrivingAfterALaterOneOfAnotherWireIsCountedOutOfOrder() throws Exception {
        MergeScheduler<String> s = lazy(2);
        s.deliver(new Message<>(0, 500, "late-stamped"));
        s.deliver(new Message<>(1, 300, "early-stamped"));
        s.silence(0, 1_000);
        s.silence(1, 1_000);
        MergeScheduler.Dispatch<String> first = s.take(0, TimeUnit.SECONDS);
        assertEquals("early-stamped", first.message().payload());
        assertTrue(first.outOfOrder());
        assertFalse(s.take(0, TimeUnit.SECONDS).outOfOrder());
        assertEquals(1, s.stats().outOfOrder());
    }

    @Test
    void aSchedulerRestoredFromASnapshotHandsOverTheSameMessagesInTheSameOrder() throws Exception {
        MergeScheduler<String> s = lazy(2);
        s.deliver(new Message<>(0, 400, "c"));
        s.deliver(new Message<>(1, 100, "a"));
        s.deliver(new Message<>(1, 300, "b"));
        MergeScheduler.State<String> state = s.snapshot();
        MergeScheduler<String> r = MergeScheduler.restore(state, Order.VIRTUAL_TIME, SilenceMode.LAZY, NOBODY,
                System::nanoTime);
        assertFalse(r.deliver(new Message<>(1, 300, "b")), "what it held is no news after the restore");
        for (MergeScheduler<String> m : List.of(s, r)) {
            m.silence(0, 1_000);
            m.silence(1, 1_000);
            assertEquals("a", take(m));
            assertEquals("b", take(m));
            assertEquals("c", take(m));
        }
    }
}
