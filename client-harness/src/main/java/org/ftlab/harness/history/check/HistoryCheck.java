package org.ftlab.harness.history.check;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.ftlab.harness.history.HistoryEvent;

/**
 * Checks a history for linearizability, key by key (a history is linearizable iff each key's is: Herlihy and Wing's
 * locality, which Knossos calls P-compositionality), the keys in parallel. Pairs each invocation with its process's
 * next completion; leaves out operations that certainly took no effect ({@code fail}) and those the model does not
 * check; gives operations without a completion, or with an {@code info}, an unknown outcome.
 */
public final class HistoryCheck {
    /**
     * What the check may take: threads (keys checked at once), configurations each key's search may remember (the
     * memory bound: about {@value #BYTES_PER_CONFIGURATION} bytes each), and a deadline for the whole check.
     */
    public record Limits(int threads, long maxConfigurationsPerKey, long seconds) {
        public static final Limits DEFAULT = of(Runtime.getRuntime().availableProcessors(), 1024, 600);

        /** {@code threads} at once within about {@code memoryMiB} of memory for their searches. */
        public static Limits of(int threads, long memoryMiB, long seconds) {
            if (threads < 1 || memoryMiB < 1 || seconds < 1) {
                throw new IllegalArgumentException("threads, memory and time must each be at least 1, were "
                        + threads + ", " + memoryMiB + " MiB, " + seconds + " s");
            }
            return new Limits(threads, memoryMiB * 1024 * 1024 / BYTES_PER_CONFIGURATION / threads, seconds);
        }
    }

    /** What one remembered configuration costs, roughly (object, holes, hash-set entry; the state shared). */
    public static final long BYTES_PER_CONFIGURATION = 128;

    /** One key's result. */
    public record KeyResult(String key, Linearizability.Result result) {
    }

    /**
     * The run's verdict: {@code invalid} if any key is, else {@code unknown} if any key is, else {@code valid}; each
     * key's result (invalid keys first), and how many operations it checked and left out.
     *
     * @param skipped operations the model does not check (say, sign-ups), by name
     * @param failed operations that certainly took no effect, left out
     * @param unknown operations whose outcome is unknown
     */
    public record Report(String model, Linearizability.Verdict verdict, int operations, int failed, int unknown,
            Map<String, Integer> skipped, List<KeyResult> keys, double seconds) {
        public List<KeyResult> invalidKeys() {
            return keys.stream().filter(k -> k.result().verdict() == Linearizability.Verdict.INVALID).toList();
        }
    }

    private HistoryCheck() {
    }

    /** Checks {@code history} against {@code model}, within {@code limits}. */
    public static <S> Report check(List<HistoryEvent> history, Model<S> model, Limits limits)
            throws InterruptedException {
        long start = System.nanoTime();
        Paired paired = pair(history, model);
        long deadline = start + limits.seconds() * 1_000_000_000L;
        Linearizability.Budget budget = new Linearizability.Budget(limits.maxConfigurationsPerKey(), deadline);
        List<Map.Entry<String, List<Operation>>> keys = new ArrayList<>(paired.byKey.entrySet());
        keys.sort(Comparator.comparingInt((Map.Entry<String, List<Operation>> e) -> e.getValue().size()).reversed());
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(limits.threads(), Math.max(1, keys.size())),
                r -> {
                    Thread t = new Thread(r, "history-check");
                    t.setDaemon(true);
                    return t;
                });
        List<KeyResult> results = new ArrayList<>();
        try {
            List<Future<KeyResult>> futures = new ArrayList<>();
            for (Map.Entry<String, List<Operation>> k : keys) {
                futures.add(pool.submit(() -> new KeyResult(k.getKey(),
                        Linearizability.check(model, k.getValue(), budget))));
            }
            for (Future<KeyResult> f : futures) {
                results.add(f.get());
            }
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } finally {
            pool.shutdownNow();
        }
        results.sort(Comparator.comparingInt((KeyResult k) -> order(k.result().verdict()))
                .thenComparing(KeyResult::key));
        Linearizability.Verdict verdict = Linearizability.Verdict.VALID;
        for (KeyResult k : results) {
            if (k.result().verdict() == Linearizability.Verdict.INVALID) {
                verdict = Linearizability.Verdict.INVALID;
                break;
            }
            if (k.result().verdict() == Linearizability.Verdict.UNKNOWN) {
                verdict = Linearizability.Verdict.UNKNOWN;
            }
        }
        return new Report(model.name(), verdict, paired.operations, paired.failed, paired.unknown, paired.skipped,
                results, (System.nanoTime() - start) / 1e9);
    }

    private static int order(Linearizability.Verdict v) {
        return switch (v) {
            case INVALID -> 0;
            case UNKNOWN -> 1;
            case VALID -> 2;
        };
    }

    /** The operations of each key, in the order they were invoked, numbered from 0. */
    private static final class Paired {
        final Map<String, List<Operation>> byKey = new LinkedHashMap<>();
        final Map<String, Integer> skipped = new TreeMap<>();
        int operations;
        int failed;
        int unknown;
    }

    /** An invocation waiting for its completion. */
    private record Open(HistoryEvent invoke, Object input) {
    }

    private static <S> Paired pair(List<HistoryEvent> history, Model<S> model) {
        Paired p = new Paired();
        Map<Long, Open> open = new HashMap<>();
        for (HistoryEvent e : history) {
            if (e.isNemesis()) {
                continue;
            }
            if (e.isInvocation()) {
                Object input = model.input(e);
                Open was = open.put(e.process(), new Open(e, input));
                if (was != null) {
                    throw new IllegalArgumentException("history index " + e.index() + ": process " + e.process()
                            + " invokes " + e.f() + " while its " + was.invoke().f() + " (index "
                            + was.invoke().index() + ") has not completed; a process does one thing at a time");
                }
                continue;
            }
            Open o = open.remove(e.process());
            if (o == null) {
                throw new IllegalArgumentException("history index " + e.index() + ": a completion (" + e.type()
                        .wireName() + " " + e.f() + ") of process " + e.process() + ", which invoked nothing");
            }
            if (!o.invoke().f().equals(e.f())) {
                throw new IllegalArgumentException("history index " + e.index() + ": process " + e.process()
                        + " completes " + e.f() + " but invoked " + o.invoke().f());
            }
            add(p, model, o, e);
        }
        for (Open o : open.values().stream().sorted(Comparator.comparingLong(x -> x.invoke().index())).toList()) {
            add(p, model, o, null); // never completed: its outcome is unknown
        }
        for (Map.Entry<String, List<Operation>> k : p.byKey.entrySet()) {
            List<Operation> ops = k.getValue();
            ops.sort(Comparator.comparingLong(Operation::callIndex));
            for (int i = 0; i < ops.size(); i++) {
                ops.set(i, ops.get(i).withId(i));
            }
        }
        return p;
    }

    private static <S> void add(Paired p, Model<S> model, Open o, HistoryEvent completion) {
        if (o.input() == null) {
            p.skipped.merge(o.invoke().f(), 1, Integer::sum);
            return;
        }
        if (completion != null && completion.type() == HistoryEvent.Type.FAIL) {
            p.failed++;
            return;
        }
        boolean known = completion != null && completion.type() == HistoryEvent.Type.OK;
        String key = o.invoke().key() != null ? o.invoke().key() : completion != null ? completion.key() : null;
        if (key == null) {
            // an operation that never said what it acts on (a post without a reply): nobody can have seen it
            p.skipped.merge(o.invoke().f() + " (no key)", 1, Integer::sum);
            return;
        }
        p.operations++;
        if (!known) {
            p.unknown++;
        }
        Object output = known ? model.output(o.input(), completion) : null;
        p.byKey.computeIfAbsent(key, k -> new ArrayList<>()).add(new Operation(-1, o.input(), output,
                o.invoke().index(), known ? completion.index() : Long.MAX_VALUE, o.invoke(), completion));
    }
}
