package org.ftlab.harness.failover;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.ftlab.auction.api.AuctionException;

/**
 * The guard around a plug-in strategy. What the plug-in does wrong becomes a {@link PluginFailure} with one line that
 * names the plug-in, what went wrong and where in its code: an exception other than the two the contract allows, a
 * null outcome, or an invocation that has not returned {@link #HANG_MARGIN} after the client's bound on a request's
 * fail-overs (a hang: the watchdog records it for the run to read, and interrupts the stuck thread). The run stops at
 * the first such failure; what it finished is kept.
 */
final class PluginStrategy implements FailoverStrategy {
    /** How long past the give-up bound an invocation may run before it counts as hung. */
    static final Duration HANG_MARGIN = Duration.ofSeconds(10);
    private static final ScheduledExecutorService WATCHDOG = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "plugin-watchdog");
        t.setDaemon(true);
        return t;
    });

    private final String name;
    private final FailoverStrategy plugin;
    private final long hangNanos;
    /** Invocations in flight: the thread and when it entered the plug-in (nanoTime). */
    private final Map<Thread, Long> inFlight = new ConcurrentHashMap<>();
    private volatile PluginFailure failure;
    private final ScheduledFuture<?> watching;

    PluginStrategy(String name, FailoverStrategy plugin, long hangNanos) {
        this.name = name;
        this.plugin = plugin;
        this.hangNanos = hangNanos;
        long period = Math.max(10, Math.min(500, TimeUnit.NANOSECONDS.toMillis(hangNanos) / 10));
        watching = WATCHDOG.scheduleWithFixedDelay(this::watch, period, period, TimeUnit.MILLISECONDS);
    }

    /** Stops watching (the client closed). */
    void close() {
        watching.cancel(false);
    }

    @Override
    public <T> Outcome<T> invoke(String operation, Call<T> call) throws AuctionException, AllReplicasDownException {
        PluginFailure known = failure;
        if (known != null) {
            throw known;
        }
        Thread me = Thread.currentThread();
        inFlight.put(me, System.nanoTime());
        try {
            Outcome<T> o = plugin.invoke(operation, call);
            if (o == null || o.served() == null || o.servedBy() == null) {
                throw fail(new PluginFailure("plug-in strategy " + name + " returned " + (o == null ? "null"
                        : "an outcome without " + (o.served() == null ? "served" : "servedBy")) + " from invoke; "
                        + "return an Outcome (Outcome.firstChoice or Outcome.failedOver)", null));
            }
            return o;
        } catch (AuctionException | AllReplicasDownException | PluginFailure e) {
            throw e;
        } catch (RuntimeException | LinkageError | AssertionError | StackOverflowError e) {
            throw fail(new PluginFailure("plug-in strategy " + name + " threw " + describe(e), e));
        } finally {
            inFlight.remove(me);
        }
    }

    /** The first contract breach seen (thrown or hung), or null. */
    PluginFailure failure() {
        return failure;
    }

    private PluginFailure fail(PluginFailure f) {
        if (failure == null) {
            failure = f;
        }
        return failure;
    }

    private void watch() {
        long now = System.nanoTime();
        for (Map.Entry<Thread, Long> e : inFlight.entrySet()) {
            if (now - e.getValue() > hangNanos && failure == null) {
                Thread stuck = e.getKey();
                StackTraceElement at = pluginFrame(stuck.getStackTrace());
                fail(new PluginFailure("plug-in strategy " + name + " did not return from invoke in "
                        + TimeUnit.NANOSECONDS.toSeconds(hangNanos) + " s (a request may keep failing over for "
                        + TimeUnit.NANOSECONDS.toSeconds(hangNanos - HANG_MARGIN.toNanos()) + " s)"
                        + (at == null ? "" : "; stuck at " + frame(at)), null));
                stuck.interrupt();
            }
        }
    }

    /** One line: the exception's simple name, its message, and the plug-in's frame it came from. */
    static String describe(Throwable e) {
        StackTraceElement at = pluginFrame(e.getStackTrace());
        return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage().lines()
                .findFirst().orElse("")) + (at == null ? "" : " at " + frame(at));
    }

    private static String frame(StackTraceElement f) {
        return f.getClassName() + "." + f.getMethodName() + "(" + f.getFileName() + ":" + f.getLineNumber() + ")";
    }

    /** The first frame of the plug-in's own code (not the JDK's, nor the harness's). */
    private static StackTraceElement pluginFrame(StackTraceElement[] stack) {
        for (StackTraceElement f : stack) {
            if ("ftlab-plugin".equals(f.getClassLoaderName())) {
                return f;
            }
        }
        return stack.length == 0 ? null : stack[0];
    }

    @Override
    public String toString() {
        return name;
    }
}
