package org.ftlab.rm.os;

import java.io.IOException;
import java.util.Collections;
import java.util.HashMap;
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
 * @param tiers each method's highest tier in the code cache
 */
public record CompiledCode(Map<String, Integer> tiers) {
    /** HotSpot's top tier (C2). */
    public static final int TOP_TIER = 4;
    private static final Pattern LINE = Pattern.compile("^\\d+ (\\d) \\d+ (\\S+)", Pattern.MULTILINE);
    /** {@code $$Lambda$2000/0x00007fee851b0658}, {@code Foo$$Lambda$12}: one lambda, named per JVM. */
    private static final Pattern PER_JVM = Pattern.compile("(\\$\\$Lambda)\\$\\d+|/0x[0-9a-f]+");

    public CompiledCode {
        tiers = Collections.unmodifiableMap(tiers);
    }

    /** Reads the output of {@code Compiler.codelist}. */
    public static CompiledCode parse(String codelist) {
        Map<String, Integer> tiers = new HashMap<>();
        Matcher m = LINE.matcher(codelist);
        while (m.find()) {
            tiers.merge(canonical(m.group(2)), Integer.parseInt(m.group(1)), Math::max);
        }
        return new CompiledCode(tiers);
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
        if (reference.isEmpty()) {
            return Double.NaN;
        }
        long top = reference.stream().filter(m -> tiers.getOrDefault(m, -1) >= tier).count();
        return top / (double) reference.size();
    }

    static String canonical(String method) {
        return PER_JVM.matcher(method).replaceAll("$1");
    }
}
