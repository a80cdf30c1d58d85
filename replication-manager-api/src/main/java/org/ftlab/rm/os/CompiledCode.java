package org.ftlab.os;

import java.io.IOException;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The methods a JVM has compiled and at which tier, from its code cache ({@code jcmd PID Compiler.codelist}: one line
 * per compiled method, {@code <compile id> <tier> <state> <method>(<signature>) [<addresses>]}). HotSpot's tiers: 0
 * the interpreter's stubs, 1–3 C1 (3 with full profiling), {@value #TOP_TIER} C2, the code a JVM runs at full speed.
 * A method is named as the JDK names it, less what differs from one JVM to the next for the same code (the numbers
 * and addresses of lambdas and hidden classes), so that two JVMs' lists can be compared.
 *
 * <p>A method inlined into a compiled caller runs at its caller's tier although the list names only the caller:
 * {@link #shareAtTier(Set, int, Inlining)} counts it, given what was inlined into each compilation
 * ({@link InlinedCode}).
 *
 * @param tiers each method's highest tier in the code cache
 * @param compiles the tier of each compilation whose code is in use (by compile id; not made not entrant)
 */
public record CompiledCode(Map<String, Integer> tiers, Map<Long, Integer> compiles) {
    /** HotSpot's top tier (C2). */
    public static final int TOP_TIER = 4;
    private static final Pattern LINE = Pattern.compile("^(\\d+) (\\d) (-?\\d+) (\\S+)", Pattern.MULTILINE);
    /** HotSpot's nmethod states in use or usable again: in use (0), not used (1); not entrant (2) and on are not. */
    private static final int LAST_LIVE_STATE = 1;
    /** {@code $$Lambda$2000/0x00007fee851b0658}, {@code Foo$$Lambda$12}: one lambda, named per JVM. */
    private static final Pattern PER_JVM = Pattern.compile("(\\$\\$Lambda)\\$\\d+|/0x[0-9a-f]+");

    public CompiledCode {
        tiers = Collections.unmodifiableMap(tiers);
        compiles = Collections.unmodifiableMap(compiles);
    }

    /** Methods at tiers, without compile ids (nothing inlined is known of them). */
    public CompiledCode(Map<String, Integer> tiers) {
        this(tiers, Map.of());
    }

    /** What was inlined into each compilation: its methods, named as here. */
    @FunctionalInterface
    public interface Inlining {
        /** Nothing known inlined. */
        Inlining NONE = compileId -> Set.of();

        Set<String> inlinedInto(long compileId);
    }

    /** Reads the output of {@code Compiler.codelist}. */
    public static CompiledCode parse(String codelist) {
        Map<String, Integer> tiers = new HashMap<>();
        Map<Long, Integer> compiles = new HashMap<>();
        Matcher m = LINE.matcher(codelist);
        while (m.find()) {
            int tier = Integer.parseInt(m.group(2));
            if (Integer.parseInt(m.group(3)) > LAST_LIVE_STATE) {
                continue; // its code is no longer entered: the method runs elsewhere
            }
            tiers.merge(canonical(m.group(4)), tier, Math::max);
            compiles.put(Long.parseLong(m.group(1)), tier);
        }
        return new CompiledCode(tiers, compiles);
    }

    /**
     * The code cache of JVM {@code pid} of this machine, read now (the JVM lists it under its code cache's lock: a few
     * ms for ten thousand methods, while it goes on running).
     *
     * @throws IOException if the JVM is gone or refuses to attach (the message says why)
     */
    public static CompiledCode of(long pid) throws IOException {
        return parse(Jcmd.run(pid, "Compiler.codelist"));
    }

    /** The highest tier of any method here (-1: none compiled); below {@value #TOP_TIER} in a JVM that caps it. */
    public int highestTier() {
        return tiers.values().stream().mapToInt(Integer::intValue).max().orElse(-1);
    }

    /** The methods {@code include} accepts that are compiled at {@code tier} or above. */
    public Set<String> atTier(int tier, Predicate<String> include) {
        return tiers.entrySet().stream().filter(e -> e.getValue() >= tier && include.test(e.getKey()))
                .map(Map.Entry::getKey).collect(Collectors.toUnmodifiableSet());
    }

    /** The share of {@code reference} compiled here at {@code tier} or above; NaN for an empty reference. */
    public double shareAtTier(Set<String> reference, int tier) {
        return shareAtTier(reference, tier, Inlining.NONE);
    }

    /**
     * The share of {@code reference} that runs here at {@code tier} or above: compiled there itself, or inlined
     * into a compilation there ({@code inlining}); NaN for an empty reference.
     */
    public double shareAtTier(Set<String> reference, int tier, Inlining inlining) {
        if (reference.isEmpty()) {
            return Double.NaN;
        }
        Set<String> inlined = new HashSet<>();
        compiles.forEach((id, t) -> {
            if (t >= tier) {
                inlined.addAll(inlining.inlinedInto(id));
            }
        });
        long top = reference.stream().filter(m -> tiers.getOrDefault(m, -1) >= tier || inlined.contains(m)).count();
        return top / (double) reference.size();
    }

    /** The highest compile id here (-1: none): compilations below it that are not here are gone. */
    public long highestCompileId() {
        return compiles.keySet().stream().mapToLong(Long::longValue).max().orElse(-1);
    }

    static String canonical(String method) {
        return PER_JVM.matcher(method).replaceAll("$1");
    }
}
