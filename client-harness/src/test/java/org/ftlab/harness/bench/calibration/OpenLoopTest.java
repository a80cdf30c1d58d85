package org.ftlab.harness.bench.calibration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The open loop sends on its schedule, from every worker, and counts what fails without stopping. */
class OpenLoopTest {
    @Test
    void everyWorkerSendsItsShareOfTheRateForTheDuration() throws Exception {
        ConcurrentHashMap<String, AtomicInteger> byThread = new ConcurrentHashMap<>();
        OpenLoop.Call call = () -> byThread.computeIfAbsent(Thread.currentThread().getName(),
                n -> new AtomicInteger()).incrementAndGet();
        OpenLoop.Result r = OpenLoop.run(1_000, Duration.ofMillis(200), List.of(call, call));
        assertEquals(200, r.serviceNanos().getTotalCount(), "1,000 requests/s for 0.2 s");
        assertEquals(2, byThread.size(), "from both workers");
        byThread.values().forEach(n -> assertEquals(100, n.get(), "each its half"));
        assertEquals(200, r.lateNanos().getTotalCount(), "each send's lateness recorded");
        assertEquals(0, r.errors());
        assertEquals(0, r.beanNanos().getTotalCount(), "no answer said what the bean took");
    }

    @Test
    void theBeansTimeIsReadFromEachAnswer() throws Exception {
        OpenLoop.Result r = OpenLoop.run(1_000, Duration.ofMillis(50), List.of(() -> 300L),
                answer -> (Long) answer);
        assertEquals(50, r.beanNanos().getTotalCount());
        assertEquals(300_000, r.beanNanos().getValueAtPercentile(50), 300_000 * 0.001, "300 µs, in ns");
    }

    @Test
    void aFailedCallIsCountedAndTheLoopGoesOn() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        OpenLoop.Call everySecondFails = () -> {
            if (calls.incrementAndGet() % 2 == 0) {
                throw new IOException("HTTP 503");
            }
            return "answered";
        };
        OpenLoop.Result r = OpenLoop.run(500, Duration.ofMillis(100), List.of(everySecondFails));
        assertEquals(50, calls.get());
        assertEquals(25, r.errors());
        assertEquals(25, r.serviceNanos().getTotalCount(), "only answers are timed");
        assertTrue(r.firstError().contains("HTTP 503"), r.firstError());
    }

    @Test
    void aLoopNeedsARateAndAWorker() {
        assertThrows(IllegalArgumentException.class, () -> OpenLoop.run(0, Duration.ofSeconds(1), List.of(() -> null)));
        assertThrows(IllegalArgumentException.class, () -> OpenLoop.run(10, Duration.ofSeconds(1), List.of()));
    }
}
