package org.ftlab.harness.attribution;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.ftlab.harness.probe.FaultRecord;
import org.ftlab.rm.api.FaultKind;
import org.ftlab.rm.api.StallCause;

/**
 * The stalls a run injected on purpose (the kinds with a {@link FaultKind#cause() cause}: a known cause at a known time
 * and place) set against what the attribution named (docs/analysis.md, "Stalls injected on purpose"). A stall
 * <em>delayed</em> the slow requests that were in flight while it was on ({@link #overlaps}); it is <em>found</em>
 * when at least half of them name its cause, the one its kind gives, in its place: the replica it acted on
 * ({@code gc-pause(r1)}), the host ({@code cpu-outside(host)}: every host of one machine shares its CPUs) or the
 * database ({@code db}).
 */
public final class InjectedStalls {
    private InjectedStalls() {
    }

    /**
     * One injected stall and the slow requests it delayed.
     *
     * @param expected the cause the attribution should name, as a reader writes it ({@code gc-pause(r1)})
     * @param delayed how many slow requests were in flight while it was on
     * @param named how many of those name its cause
     * @param causes the delayed requests counted by the cause they name
     */
    public record Verdict(FaultRecord fault, String expected, int delayed, int named, Map<String, Integer> causes) {
        /** Whether at least half of the slow requests it delayed name its cause (false when it delayed none). */
        public boolean found() {
            return delayed > 0 && 2 * named >= delayed;
        }
    }

    /** Whether a kind is a stall of known cause, which the attribution is judged on. */
    public static boolean judged(FaultKind kind) {
        return kind.cause().isPresent();
    }

    /** Each injected stall of {@code faults} with the slow requests of {@code outliers} it delayed. */
    public static List<Verdict> judge(List<Attribution.Outlier> outliers, List<FaultRecord> faults) {
        List<Verdict> out = new ArrayList<>();
        for (FaultRecord f : faults) {
            if (f.kind() == null || !judged(f.kind())) {
                continue;
            }
            Predicate<String> expected = expected(f.kind(), f.replica());
            Map<String, Integer> causes = new TreeMap<>();
            int delayed = 0;
            int named = 0;
            for (Attribution.Outlier o : outliers) {
                if (overlaps(o, f)) {
                    delayed++;
                    named += expected.test(o.cause()) ? 1 : 0;
                    causes.merge(o.cause(), 1, Integer::sum);
                }
            }
            out.add(new Verdict(f, describe(f.kind(), f.replica()), delayed, named, causes));
        }
        return out;
    }

    /**
     * Whether a slow request was in flight while the fault was on: from when it was in place (a forced collection: from
     * when the collection was asked for, the attach to the JVM done before) to when it was undone (a forced
     * collection: when it was over).
     */
    public static boolean overlaps(Attribution.Outlier o, FaultRecord f) {
        long end = Math.max(f.repairedUs(), f.injectedUs());
        return o.sendEpochUs() < end && o.sendEpochUs() + o.latencyUs() > f.injectedUs();
    }

    /** Whether a named cause is the one a stall of {@code kind} on {@code replica} should be named by. */
    public static Predicate<String> expected(FaultKind kind, String replica) {
        return describe(kind, replica)::equals;
    }

    /** Whether a named cause is of the sort a stall of {@code kind} is named by, in any process. */
    public static Predicate<String> ofKind(FaultKind kind) {
        String prefix = cause(kind).name() + "(";
        return c -> c.startsWith(prefix);
    }

    /** The expected cause as a reader writes it. */
    public static String describe(FaultKind kind, String replica) {
        StallCause cause = cause(kind);
        return cause.name() + "(" + switch (cause.place()) {
            case REPLICA -> replica;
            case HOST -> Attribution.HOST;
            case DATABASE -> Attribution.DATABASE;
        } + ")";
    }

    private static StallCause cause(FaultKind kind) {
        return kind.cause().orElseThrow(() -> new IllegalArgumentException(kind.wireName()
                + " is not a stall of known cause"));
    }
}
