package org.ftlab.os;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What another JVM's compilers inline, followed from its Flight Recorder repository. */
class InlinedCodeTest {
    private static final String HELPER = "org.ftlab.os.InlinedCodeTest$Inliner.helper(J)J";
    private static final String LOOP = "org.ftlab.os.InlinedCodeTest$Inliner.loop(J)J";

    /**
     * A child that, once told to on its standard input, runs a loop calling a tiny helper until C2 has compiled the
     * loop (the helper inlined into it), then idles until its standard input closes.
     */
    public static final class Inliner {
        static long sum;

        static long helper(long x) {
            return x * 31 + (x >>> 3);
        }

        static long loop(long n) {
            long s = 0;
            for (long i = 0; i < n; i++) {
                s += helper(i);
            }
            return s;
        }

        public static void main(String[] args) throws Exception {
            System.out.println("waiting");
            System.out.flush();
            System.in.read();
            for (int r = 0; r < 20_000; r++) {
                sum += loop(10_000);
            }
            System.out.println("ready " + sum);
            System.out.flush();
            System.in.read();
        }
    }

    @TempDir
    Path dir;

    @Test
    void aMethodInlinedIntoACallerCompiledAtTheTopTierBeforeFollowingIsKnownAndFollowingLeavesThatCodeInUse()
            throws Exception {
        Path console = dir.resolve("console.log");
        Path repository = dir.resolve("repo");
        List<String> options = new ArrayList<>(InlinedCode.jvmOptions(dir));
        options.add(FlightRecording.repositoryOption(repository));
        Process child = new ProcessBuilder(ChildJvm.command(Inliner.class.getName(),
                options.toArray(String[]::new))).redirectErrorStream(true).redirectOutput(console.toFile()).start();
        try (var out = child.getOutputStream()) {
            ProcessTools.awaitOutput(child, console, Duration.ofSeconds(60), o -> o.contains("waiting") ? true : null);
            out.write('\n');
            out.flush();
            assertTrue(ProcessTools.awaitOutput(child, console, Duration.ofSeconds(120),
                    o -> o.contains("ready") ? true : null) != null, "the child ran its loop: "
                    + ProcessTools.readOutput(console));
            CompiledCode before = CompiledCode.of(child.pid());
            assertEquals(4, before.tiers().get(LOOP), before.tiers().toString());
            try (InlinedCode inlined = InlinedCode.follow(child.pid(), repository, m -> m.contains("Inliner"))) {
                // the recording reaches the repository about once a second
                long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                CompiledCode code = CompiledCode.of(child.pid());
                while (!helperInlinedAtTopTier(code, inlined) && System.nanoTime() < deadline) {
                    Thread.sleep(200);
                    code = CompiledCode.of(child.pid());
                }
                assertTrue(helperInlinedAtTopTier(code, inlined), "the helper runs at C2 inside a compilation of the "
                        + "loop made before it was followed: " + inlined.compilations()
                        + " compilations with kept methods inlined");
                // following changed nothing in the JVM: the loop still runs at the top tier, and the top-tier code in
                // use before is in use still (a recording started in a JVM without the Flight Recorder would have
                // made all of it not entrant; a JVM replaces a compilation of its own now and then)
                assertEquals(4, code.tiers().get(LOOP), code.tiers().toString());
                Set<Long> inUse = code.compiles().keySet();
                List<Long> topTierBefore = before.compiles().entrySet().stream()
                        .filter(e -> e.getValue() == CompiledCode.TOP_TIER).map(Map.Entry::getKey).toList();
                long kept = topTierBefore.stream().filter(inUse::contains).count();
                assertTrue(kept * 2 >= topTierBefore.size(), kept + " of the " + topTierBefore.size()
                        + " top-tier compilations in use before following are in use after it");
                // what it inlined makes the helper count at the top tier, whatever the helper's own code
                Map<String, Integer> withoutHelper = new HashMap<>(code.tiers());
                withoutHelper.remove(HELPER);
                assertEquals(1.0, new CompiledCode(withoutHelper, code.compiles()).shareAtTier(Set.of(LOOP, HELPER),
                        CompiledCode.TOP_TIER, inlined::inlinedInto), 1e-9);
                // the code cache without the loop's compilations: what was inlined into them is forgotten
                inlined.forgetGone(Long.MAX_VALUE, id -> false);
                assertEquals(0, inlined.compilations());
            }
        } finally {
            child.waitFor();
            Jcmd.forget(child.pid());
        }
    }

    private static boolean helperInlinedAtTopTier(CompiledCode code, InlinedCode inlined) {
        return code.compiles().entrySet().stream().filter(e -> e.getValue() == CompiledCode.TOP_TIER)
                .anyMatch(e -> inlined.inlinedInto(e.getKey()).contains(HELPER));
    }

    @Test
    void aJvmThatRecordsIntoNoRepositoryHereCannotBeFollowedAndTheErrorSaysWhere() throws Exception {
        Path console = dir.resolve("console.log");
        Process child = new ProcessBuilder(ChildJvm.command(Inliner.class.getName())).redirectErrorStream(true)
                .redirectOutput(console.toFile()).start();
        try (var out = child.getOutputStream()) {
            ProcessTools.awaitOutput(child, console, Duration.ofSeconds(60), o -> o.contains("waiting") ? true : null);
            Path elsewhere = dir.resolve("elsewhere");
            IOException e = assertThrows(IOException.class,
                    () -> InlinedCode.follow(child.pid(), elsewhere, m -> true));
            assertTrue(e.getMessage().contains(elsewhere.toString()), e.getMessage());
        } finally {
            child.destroy();
            child.waitFor();
            Jcmd.forget(child.pid());
        }
    }

    @Test
    void aCompilationAtALowerTierLendsItsInlinedMethodsNoTopTier() {
        CompiledCode code = new CompiledCode(Map.of(LOOP, 3), Map.of(5L, 3));
        assertEquals(0.0, code.shareAtTier(Set.of(HELPER), CompiledCode.TOP_TIER, id -> Set.of(HELPER)), 1e-9);
        assertEquals(1.0, code.shareAtTier(Set.of(HELPER), 3, id -> id == 5 ? Set.of(HELPER) : Set.of()), 1e-9);
    }
}
