package org.ftlab.harness.bench.calibration;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * An open loop at a uniform rate, as an external load generator runs one: {@code workers} threads, each sending on a
 * fixed schedule of one request every {@code workers/rate} s, the schedules interleaved so that the whole loop sends
 * one every {@code 1/rate} s. Each call's time from its actual send to its answer (its service time, what an external
 * generator reports) goes into one histogram, in nanoseconds; how late each send was on its schedule into another;
 * the bean's own time, where the answer says it, into a third. A call that throws counts as an error, and the loop
 * goes on.
 */
final class OpenLoop {
    private OpenLoop() {
    }

    /** One request, sent and answered: returns normally on an answer the client accepts. */
    @FunctionalInterface
    interface Call {
        /** Sends the request and reads its answer; returns the answer, for {@link Answer#beanMicros} after the timing. */
        Object call() throws Exception;
    }

    /** What the bean's own time was, read from an answer after its timing; -1 where the answer does not say. */
    @FunctionalInterface
    interface Answer {
        long beanMicros(Object answer) throws Exception;
    }

    /** What the loop measured. */
    record Result(Histogram serviceNanos, Histogram lateNanos, Histogram beanNanos, long errors, String firstError) {
    }

    /**
     * Runs {@code workers} (one thread each) at {@code ratePerS} requests per second in all for {@code duration}.
     *
     * @throws InterruptedException if this thread is interrupted while the workers run (they are stopped)
     */
    static Result run(double ratePerS, Duration duration, List<Call> workers) throws InterruptedException {
        return run(ratePerS, duration, workers, answer -> -1);
    }

    /** As above, with the bean's time of each answer read by {@code bean}, off the timed path. */
    static Result run(double ratePerS, Duration duration, List<Call> workers, Answer bean)
            throws InterruptedException {
        if (!(ratePerS > 0) || workers.isEmpty()) {
            throw new IllegalArgumentException("an open loop needs a rate > 0 and at least one worker");
        }
        int n = workers.size();
        long intervalNanos = Math.round(1e9 * n / ratePerS);
        long perWorker = Math.max(1, Math.round(duration.toNanos() / (double) intervalNanos));
        long start = System.nanoTime() + 50_000_000L; // every worker parked before the first send
        Histogram service = new Histogram(3);
        Histogram late = new Histogram(3);
        Histogram beans = new Histogram(3);
        AtomicLong errors = new AtomicLong();
        AtomicReference<String> firstError = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < n; w++) {
            Call call = workers.get(w);
            long offset = Math.round(1e9 * w / ratePerS);
            Thread t = new Thread(() -> {
                Histogram myService = new Histogram(3);
                Histogram myLate = new Histogram(3);
                Histogram myBean = new Histogram(3);
                for (long k = 0; k < perWorker && !Thread.currentThread().isInterrupted(); k++) {
                    long intended = start + offset + k * intervalNanos;
                    long wait;
                    while ((wait = intended - System.nanoTime()) > 0) {
                        LockSupport.parkNanos(wait);
                    }
                    long sent = System.nanoTime();
                    try {
                        Object answer = call.call();
                        long answered = System.nanoTime();
                        myService.recordValue(answered - sent);
                        myLate.recordValue(sent - intended);
                        long beanMicros = bean.beanMicros(answer);
                        if (beanMicros >= 0) {
                            myBean.recordValue(beanMicros * 1000);
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } catch (Exception e) {
                        errors.incrementAndGet();
                        firstError.compareAndSet(null, e.toString());
                    }
                }
                synchronized (service) {
                    service.add(myService);
                    late.add(myLate);
                    beans.add(myBean);
                }
            }, "open-loop-" + w);
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
        try {
            for (Thread t : threads) {
                t.join();
            }
        } catch (InterruptedException e) {
            threads.forEach(Thread::interrupt);
            throw e;
        }
        synchronized (service) {
            return new Result(service, late, beans, errors.get(), firstError.get());
        }
    }
}
