package org.ftlab.stateful;

import java.io.Serializable;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import org.ftlab.tart.ConstantEstimator;
import org.ftlab.tart.DeterminismFault;
import org.ftlab.tart.Estimator;
import org.ftlab.tart.EstimatorHistory;
import org.ftlab.tart.ExternalSender;
import org.ftlab.tart.LinearEstimator;
import org.ftlab.tart.MergeScheduler;
import org.ftlab.tart.Message;
import org.ftlab.tart.Order;
import org.ftlab.tart.RegressionFit;
import org.ftlab.tart.SilenceMode;

/**
 * The stateful tier running: seed 003's Figure 1 for the auction. Gateways (senders, one thread each) take the
 * external inputs: each is stamped on arrival, logged synchronously, then checked (work whose iterations are known
 * before it runs) and sent to the auction engine (the merger, one thread) at its dequeue time plus its gateway's
 * estimate. The engine handles the gateways' messages in virtual-time order (or, with determinism off, as they
 * arrive), answers each input's caller, and every {@code checkpointEvery} messages takes a soft checkpoint that a
 * {@link CheckpointSink} ships asynchronously.
 *
 * <p>Exactly once: an input whose reply the book has gets it again ({@code replayed}); a retry of an input in flight
 * waits for the same reply; the log refuses a second copy of an input.
 *
 * <p>Recovery ({@link #start} from a checkpoint and the inputs logged after it): the book and scheduler are restored,
 * each gateway goes on from the last message it had delivered, and the logged inputs stamped after that are handled
 * again, with the estimator changes logged, before anything new: {@link #awaitReplayed}.
 */
public final class StatefulNetwork implements AutoCloseable {
    /** Samples between two fits of a gateway's estimator. */
    static final int REFIT_EVERY = 200;
    /** How far a new fit must be from the estimator in effect to be worth a determinism fault. */
    static final double REFIT_CHANGE = 0.05;

    /** Where soft checkpoints go: called on the engine's thread, so it must hand the bytes on and return. */
    @FunctionalInterface
    public interface CheckpointSink {
        void accept(Checkpoint checkpoint, byte[] bytes, long captureNanos);
    }

    /**
     * The answer to one input, with what the tier did for it.
     *
     * @param replayed the book had answered it before (a retry)
     * @param gateway the gateway that took it; -1 for a replayed answer
     * @param logNanos how long its synchronous log write took
     * @param pessimismDelayNanos how long the engine, free to handle it, waited for silence
     * @param probes curiosity probes sent while it waited
     * @param outOfOrder it reached the engine after a message of another gateway with a later virtual time
     */
    public record Result(Output output, boolean replayed, int gateway, long stamp, long vt, long logNanos,
            long pessimismDelayNanos, int probes, boolean outOfOrder) {
        static Result again(Output o) {
            return new Result(o, true, -1, 0, 0, 0, 0, 0, false);
        }

        Result withLogNanos(long nanos) {
            return new Result(output, replayed, gateway, stamp, vt, nanos, pessimismDelayNanos, probes, outOfOrder);
        }
    }

    private final TierSettings settings;
    private final InputLog log;
    private final CheckpointSink sink;
    private final ExternalSender[] senders;
    private final Gateway[] gateways;
    private final MergeScheduler<Step> scheduler;
    private final AuctionBook book;
    private final Object bookLock = new Object();
    private final Object deliveryLock = new Object();
    private final long[] deliveredStamp;
    private final long[] deliveredVt;
    private final Map<String, CompletableFuture<Result>> inFlight = new ConcurrentHashMap<>();
    private final Map<String, Integer> gatewayOf = new ConcurrentHashMap<>();
    private final AtomicInteger nextGateway = new AtomicInteger();
    private final Thread engine;
    private final CompletableFuture<Void> replayed = new CompletableFuture<>();
    private final AtomicInteger replayLeft = new AtomicInteger();
    private volatile boolean running = true;
    private volatile String failure;
    private long messages;
    private long checkpoints;
    private long checkpointBytes;
    private long checkpointNanos;
    private final AtomicInteger recalibrations = new AtomicInteger();
    private final int replayInputs;
    private final long startedNanos = System.nanoTime();
    private volatile long replayNanos = -1;

    private StatefulNetwork(TierSettings settings, InputLog log, CheckpointSink sink, LongSupplier realVt,
            Checkpoint from, List<LoggedInput> logged, List<GatewayFault> faults) {
        this.settings = settings;
        this.log = log;
        this.sink = sink;
        int n = settings.gateways();
        if (from.gateways() != n) {
            throw new IllegalArgumentException("a checkpoint of " + from.gateways() + " gateways for " + n);
        }
        this.book = from.book();
        this.deliveredStamp = from.deliveredStamp().clone();
        this.deliveredVt = from.deliveredVt().clone();
        this.senders = new ExternalSender[n];
        this.gateways = new Gateway[n];
        for (int g = 0; g < n; g++) {
            EstimatorHistory h = new EstimatorHistory(gatewayName(g), settings.firstEstimator());
            for (GatewayFault f : faults) {
                if (f.gateway() == g) {
                    h.apply(f.fault());
                }
            }
            senders[g] = ExternalSender.restore(gatewayName(g), h, realVt,
                    new ExternalSender.State(deliveredVt[g], deliveredStamp[g]));
            gateways[g] = new Gateway(g);
        }
        this.scheduler = MergeScheduler.restore(from.scheduler(), settings.order(), settings.silence(),
                w -> senders[w].silentThrough(), System::nanoTime);
        this.messages = from.messages();
        // the inputs logged after the checkpoint, each gateway's in stamp order, before anything new
        List<LoggedInput> again = new ArrayList<>();
        for (LoggedInput in : logged) {
            if (in.gateway() < 0 || in.gateway() >= n) {
                throw new IllegalArgumentException("an input logged by gateway " + in.gateway() + " of " + n);
            }
            if (in.stamp() > deliveredStamp[in.gateway()]
                    && book.replyTo(in.input().clientId(), in.input().seq()) == null) {
                again.add(in);
            }
        }
        again.sort(Comparator.comparingInt(LoggedInput::gateway).thenComparingLong(LoggedInput::stamp));
        replayInputs = again.size();
        replayLeft.set(again.size());
        for (LoggedInput in : again) {
            senders[in.gateway()].replayStamp(in.stamp());
            CompletableFuture<Result> f = new CompletableFuture<>();
            f.whenComplete((r, e) -> replayedOne());
            inFlight.put(in.input().key(), f);
            gatewayOf.putIfAbsent(in.input().clientId(), in.gateway());
            gateways[in.gateway()].queue.addLast(new Entry(in.stamp(), in.input(), f, true, true));
        }
        if (again.isEmpty()) {
            replayNanos = 0;
            replayed.complete(null);
        }
        this.engine = new Thread(this::engineLoop, "tart-engine");
        engine.setDaemon(true);
        engine.start();
        for (Gateway gw : gateways) {
            gw.thread.start();
        }
    }

    /** A new tier, nothing handled yet. */
    public static StatefulNetwork start(TierSettings settings, InputLog log, CheckpointSink sink,
            LongSupplier realVt) {
        return new StatefulNetwork(settings, log, sink, realVt, Checkpoint.empty(settings.gateways()), List.of(),
                List.of());
    }

    /**
     * A tier recovered from {@code checkpoint} (the newest; {@link Checkpoint#empty} if none): the inputs logged after
     * it are handled again, with the estimator changes {@code faults}, before anything new.
     */
    public static StatefulNetwork start(TierSettings settings, InputLog log, CheckpointSink sink, LongSupplier realVt,
            Checkpoint checkpoint, List<LoggedInput> logged, List<GatewayFault> faults) {
        return new StatefulNetwork(settings, log, sink, realVt, checkpoint, logged, faults);
    }

    /** An estimator change of gateway {@code gateway}, as the log keeps it. */
    public record GatewayFault(int gateway, DeterminismFault fault) implements Serializable {
    }

    public static String gatewayName(int g) {
        return "gateway-" + (g + 1);
    }

    /** Waits until the inputs replayed at the start are handled; returns how long their replay took, ns. */
    public long awaitReplayed(long timeout, TimeUnit unit) throws InterruptedException {
        try {
            replayed.get(timeout, unit);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("the replay of " + replayInputs + " logged inputs did not end in "
                    + unit.toMillis(timeout) + " ms (" + replayLeft.get() + " left)");
        }
        if (!running) {
            // a stop fails what is in flight, replayed inputs too: that is not a replay that ended
            throw new IllegalStateException("the tier stopped during its replay: " + failure);
        }
        return replayNanos;
    }

    private void replayedOne() {
        if (replayLeft.decrementAndGet() == 0) {
            replayNanos = System.nanoTime() - startedNanos;
            replayed.complete(null);
        }
    }

    /**
     * Takes an input: answers a retry from the book or joins it to its original in flight; otherwise stamps it at a
     * gateway, logs it and queues it there. The future fails if this tier is fenced or stopped.
     */
    public CompletableFuture<Result> submit(Input in) {
        String key = in.key();
        synchronized (bookLock) {
            Output known = book.replyTo(in.clientId(), in.seq());
            if (known != null) {
                return CompletableFuture.completedFuture(Result.again(known));
            }
            if (book.forgotten(in.clientId(), in.seq())) {
                // a stale copy of a request answered long ago: its input is logged, its reply no longer kept; it is
                // refused here, not logged again (the log would refuse it, and nothing may be handled twice)
                return CompletableFuture.completedFuture(Result.again(new Output.Refused("request " + key + " was "
                        + "answered long ago and its reply is no longer kept (a stale copy)")));
            }
        }
        CompletableFuture<Result> mine = new CompletableFuture<>();
        CompletableFuture<Result> earlier = inFlight.putIfAbsent(key, mine);
        if (earlier != null && running) {
            return earlier;
        }
        if (earlier != null) {
            return earlier.isDone() ? earlier : CompletableFuture.failedFuture(new IllegalStateException(
                    failure != null ? failure : "the stateful tier is stopped"));
        }
        if (!running) {
            inFlight.remove(key, mine);
            mine.completeExceptionally(new IllegalStateException(failure != null ? failure
                    : "the stateful tier is stopped"));
            return mine;
        }
        synchronized (bookLock) { // handled between the first look and the registration?
            Output known = book.replyTo(in.clientId(), in.seq());
            if (known != null) {
                inFlight.remove(key, mine);
                return CompletableFuture.completedFuture(Result.again(known));
            }
        }
        int g = gatewayOf.computeIfAbsent(in.clientId(), c -> nextGateway.getAndIncrement() % gateways.length);
        Gateway gw = gateways[g];
        Entry e;
        synchronized (gw) {
            e = new Entry(senders[g].stamp(), in, mine, false, false);
            gw.queue.addLast(e);
        }
        long t0 = System.nanoTime();
        try {
            log.append(new LoggedInput(g, e.stamp, in));
            long logNanos = System.nanoTime() - t0;
            gw.logged(e);
            return mine.thenApply(r -> r.withLogNanos(logNanos));
        } catch (InputLog.Fenced ex) {
            gw.withdraw(e);
            fail(key, mine, ex);
            stop("fenced: " + ex.getMessage());
        } catch (InputLog.AlreadyLogged | RuntimeException ex) {
            // logged by an attempt whose answer this tier lost, or unknown: what the log holds and what this tier
            // handled may differ from here on, so it stops (fail-stop) and a recovery from the log takes over
            gw.withdraw(e);
            fail(key, mine, ex);
            stop("the input log failed: " + ex.getMessage());
        }
        return mine;
    }

    private void fail(String key, CompletableFuture<Result> f, Exception e) {
        inFlight.remove(key, f);
        f.completeExceptionally(e);
    }

    /** Stops the tier: nothing more is taken or answered. */
    public void stop(String why) {
        if (failure == null) {
            failure = why;
        }
        running = false;
        engine.interrupt();
        for (Gateway gw : gateways) {
            gw.thread.interrupt();
        }
        // nothing in flight will be answered now: its callers learn it at once, not when they time out
        for (Map.Entry<String, CompletableFuture<Result>> f : inFlight.entrySet()) {
            f.getValue().completeExceptionally(new IllegalStateException(failure));
        }
    }

    public boolean running() {
        return running;
    }

    /** Why the tier stopped on its own; null if it did not. */
    public String failure() {
        return failure;
    }

    @Override
    public void close() {
        stop("the stateful tier is stopping");
        try {
            engine.join(5_000);
            for (Gateway gw : gateways) {
                gw.thread.join(5_000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (Map.Entry<String, CompletableFuture<Result>> f : inFlight.entrySet()) {
            f.getValue().completeExceptionally(new IllegalStateException(failure));
        }
        inFlight.clear();
    }

    // ---- the engine ------------------------------------------------------------------------------------------

    private void engineLoop() {
        try {
            while (running) {
                MergeScheduler.Dispatch<Step> d = scheduler.take(50, TimeUnit.MILLISECONDS);
                if (d == null) {
                    continue;
                }
                Step step = d.message().payload();
                Output out;
                boolean checkpoint;
                synchronized (bookLock) {
                    out = book.handle(step);
                    messages++;
                    checkpoint = messages % settings.checkpointEvery() == 0;
                }
                CompletableFuture<Result> f = inFlight.remove(step.input().key());
                if (f != null) {
                    f.complete(new Result(out, false, step.gateway(), step.stamp(), d.message().vt(),
                            0, d.pessimismDelayNanos(), d.probes(), d.outOfOrder()));
                }
                if (checkpoint) {
                    checkpoint();
                }
            }
        } catch (InterruptedException e) {
            // stopping
        } catch (RuntimeException e) {
            stop("the engine failed: " + e);
        }
    }

    /** Takes a soft checkpoint now (the engine's thread, between two messages; or a caller once it has stopped). */
    private Checkpoint checkpoint() {
        long t0 = System.nanoTime();
        Checkpoint c;
        byte[] bytes;
        synchronized (deliveryLock) {
            synchronized (bookLock) {
                c = new Checkpoint(messages, book, scheduler.snapshot(), deliveredStamp.clone(), deliveredVt.clone());
                bytes = c.toBytes(); // a copy, taken while nothing changes
            }
        }
        long took = System.nanoTime() - t0;
        synchronized (this) {
            checkpoints++;
            checkpointBytes = bytes.length;
            checkpointNanos += took;
        }
        sink.accept(Checkpoint.fromBytes(bytes), bytes, took);
        return c;
    }

    /** The engine's state now, as a checkpoint (for the end of a run, or a test): a copy. */
    public Checkpoint snapshot() {
        synchronized (deliveryLock) {
            synchronized (bookLock) {
                return Checkpoint.fromBytes(new Checkpoint(messages, book, scheduler.snapshot(),
                        deliveredStamp.clone(), deliveredVt.clone()).toBytes());
            }
        }
    }

    /** What the tier has done so far. */
    public synchronized Stats stats() {
        MergeScheduler.Stats s = scheduler.stats();
        return new Stats(s.messages(), s.pessimismDelayNanos(), s.delayed(), s.probes(), s.outOfOrder(),
                checkpoints, checkpointBytes, checkpointNanos, recalibrations.get(), replayInputs, replayNanos);
    }

    /**
     * Totals: messages the engine handled, their pessimism delay and probes, out-of-order arrivals; checkpoints
     * taken, the last one's size and the time capturing them took; estimator changes; inputs replayed at the start
     * and how long that took (ns; -1 while it goes on).
     */
    public record Stats(long messages, long pessimismDelayNanos, long delayed, long probes, long outOfOrder,
            long checkpoints, long lastCheckpointBytes, long checkpointNanos, int recalibrations, int replayInputs,
            long replayNanos) {
    }

    // ---- the gateways ----------------------------------------------------------------------------------------

    private static final class Entry {
        final long stamp;
        final Input input;
        final CompletableFuture<Result> future;
        final boolean replay;
        volatile boolean logged;

        Entry(long stamp, Input input, CompletableFuture<Result> future, boolean logged, boolean replay) {
            this.stamp = stamp;
            this.input = input;
            this.future = future;
            this.logged = logged;
            this.replay = replay;
        }
    }

    private final class Gateway {
        final int number;
        final Deque<Entry> queue = new ArrayDeque<>();
        final Thread thread;
        final RegressionFit fit;
        final long[] window = new long[REFIT_EVERY];
        int samples;

        Gateway(int number) {
            this.number = number;
            this.fit = new RegressionFit(1, false, 2_000, new long[] {GatewayWork.minIterations(
                    settings.workSpread())});
            this.thread = new Thread(this::loop, "tart-" + gatewayName(number));
            thread.setDaemon(true);
        }

        synchronized void logged(Entry e) {
            e.logged = true;
            notifyAll();
        }

        synchronized void withdraw(Entry e) {
            queue.remove(e);
            senders[number].withdraw(e.stamp);
            notifyAll();
        }

        /** The next input to handle, once it is logged; null after waiting {@code nanos} for one. */
        private synchronized Entry next(long nanos) throws InterruptedException {
            long deadline = System.nanoTime() + nanos;
            while (running) {
                Entry head = queue.peekFirst();
                if (head != null && head.logged) {
                    return queue.removeFirst();
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return null;
                }
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
            return null;
        }

        private void loop() {
            ExternalSender sender = senders[number];
            try {
                while (running) {
                    Entry e = next(SilenceMode.LAZY_IDLE_ANNOUNCE_NANOS);
                    if (e == null) {
                        if (settings.silence() == SilenceMode.LAZY) {
                            // idle for a while: say so (lazy silence otherwise travels with data only)
                            scheduler.silence(number, sender.silentThrough());
                        }
                        continue;
                    }
                    long iterations = GatewayWork.iterations(e.input, settings.workSpread());
                    ExternalSender.Handling h = sender.begin(e.stamp, new long[] {iterations});
                    long t0 = System.nanoTime();
                    long score = GatewayWork.run(e.input, iterations);
                    long took = System.nanoTime() - t0;
                    synchronized (deliveryLock) {
                        scheduler.deliver(new Message<>(number, h.outputVt(), new Step(number, e.stamp, e.input,
                                score)));
                        deliveredStamp[number] = e.stamp;
                        deliveredVt[number] = h.outputVt();
                    }
                    sender.sent(h);
                    if (!e.replay) {
                        measured(iterations, took);
                    }
                }
            } catch (InterruptedException ex) {
                // stopping
            } catch (InputLog.Fenced ex) {
                stop("fenced: " + ex.getMessage());
            } catch (RuntimeException ex) {
                stop(gatewayName(number) + " failed: " + ex);
            }
        }

        /** A live handling measured: every {@value #REFIT_EVERY} samples, a refit that moved is a determinism fault. */
        private void measured(long iterations, long tookNanos) throws InputLog.Fenced {
            fit.add(new long[] {iterations}, tookNanos);
            window[samples % REFIT_EVERY] = tookNanos;
            samples++;
            if (samples % REFIT_EVERY != 0) {
                return;
            }
            ExternalSender sender = senders[number];
            Estimator now = sender.estimators().latest();
            Estimator next;
            double before;
            double after;
            if (settings.estimator() == TierSettings.EstimatorKind.REGRESSION) {
                LinearEstimator fitted = fit.fit().estimator();
                next = fitted;
                before = now instanceof LinearEstimator l ? l.ticksPerUnit()[0] : 0;
                after = fitted.ticksPerUnit()[0];
            } else {
                double mean = Arrays.stream(window).average().orElse(1);
                next = new ConstantEstimator(Math.max(1, Math.round(mean)));
                before = now.minTicks();
                after = next.minTicks();
            }
            if (before > 0 && Math.abs(after - before) / before <= REFIT_CHANGE) {
                return;
            }
            DeterminismFault f = sender.recalibrate(next);
            log.appendFault(number, f); // synchronously, before it takes effect
            sender.apply(f);
            recalibrations.incrementAndGet();
        }
    }

    /** The tier's settings. */
    public TierSettings settings() {
        return settings;
    }

    /** Messages the engine has handled. */
    public long handled() {
        synchronized (bookLock) {
            return messages;
        }
    }

    /** The order of a run: virtual time or arrival. */
    public Order order() {
        return settings.order();
    }
}
