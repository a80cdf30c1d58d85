package org.ftlab.harness.failover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Loading a user's strategy, and the guard that reports, in one line, what it does wrong. */
class PluginStrategiesTest {
    private static final Duration GIVE_UP = Duration.ofSeconds(5);

    @TempDir
    Path tmp;

    /** Compiles {@code source} (class {@code pkg.Name}) into a classes directory, as 'mvn package' would. */
    private Path compile(String className, String source) throws IOException {
        Path src = tmp.resolve("src").resolve(className.replace('.', '/') + ".java");
        Files.createDirectories(src.getParent());
        Files.writeString(src, source);
        Path classes = tmp.resolve("classes");
        Files.createDirectories(classes);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        int rc = javac.run(null, null, null, "-d", classes.toString(), "-cp", System.getProperty("java.class.path"),
                src.toString());
        assertEquals(0, rc, "the plug-in compiles");
        return classes;
    }

    private static String strategy(String name, String body) {
        return "package p;\nimport org.ftlab.harness.failover.*;\n"
                + "public class " + name + " implements FailoverStrategy {\n"
                + "  private final ReplicaSet replicas;\n"
                + "  public " + name + "(ReplicaSet r) { replicas = r; }\n"
                + "  public <T> Outcome<T> invoke(String op, Call<T> call) throws org.ftlab.auction.api.AuctionException,"
                + " AllReplicasDownException {\n" + body + "\n  }\n}\n";
    }

    @Test
    void aStrategyFromADirectoryOfClassesRunsUnderItsOwnName() throws Exception {
        Path classes = compile("p.FirstOnly", strategy("FirstOnly",
                "ReplicaSet.Target t = replicas.current();"
                        + " return Outcome.firstChoice(replicas.attempt(t, op, call), t.name(), 1);"));
        Strategies.Kind kind = Strategies.resolve("class:p.FirstOnly", classes, GIVE_UP);
        assertEquals("class:p.FirstOnly", kind.name());
        SimulatedReplicas lab = SimulatedReplicas.of(2);
        try (ReplicaSet set = lab.replicaSet()) {
            assertEquals("r1", kind.factory().apply(set).invoke("ping", SimulatedReplicas.PING).result());
        }
    }

    @Test
    void aMissingClassIsOneLineNamingTheClassAndTheDirectory() throws Exception {
        Path classes = compile("p.FirstOnly", strategy("FirstOnly", "return null;"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Strategies.resolve("class:p.Missing", classes, GIVE_UP));
        assertTrue(e.getMessage().startsWith("no class p.Missing in " + classes), e.getMessage());
        assertEquals(1, e.getMessage().lines().count());
    }

    @Test
    void aClassThatIsNotAStrategyOrHasNoReplicaSetConstructorIsRefused() throws Exception {
        Path classes = compile("p.NotOne", "package p; public class NotOne { }");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Strategies.resolve("class:p.NotOne", classes,
                GIVE_UP)).getMessage().contains("is not a fail-over strategy"));
        Path other = compile("p.NoCtor", strategy("NoCtor", "return null;").replace("public NoCtor(ReplicaSet r)",
                "public NoCtor()").replace("replicas = r;", "replicas = null;"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Strategies.resolve("class:p.NoCtor", other,
                GIVE_UP)).getMessage().contains("needs a public constructor taking"));
    }

    @Test
    void aPluginNeedsItsDirectoryAndABuiltInStrategyTakesNone() throws Exception {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Strategies.resolve("class:p.X", null, GIVE_UP))
                .getMessage().contains("needs --plugin-dir"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Strategies.resolve("class:p.X",
                tmp.resolve("nowhere"), GIVE_UP)).getMessage().contains("does not exist"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Strategies.resolve("hedged", tmp, GIVE_UP))
                .getMessage().contains("--plugin-dir goes with --strategy class:NAME"));
    }

    @Test
    void aPluginThatThrowsIsReportedInOneLineWithItsOwnCodeLine() throws Exception {
        Path classes = compile("p.Thrower", strategy("Thrower", "String s = null;\n    return Outcome.firstChoice("
                + "null, s.trim(), 1);"));
        Strategies.Kind kind = Strategies.resolve("class:p.Thrower", classes, GIVE_UP);
        SimulatedReplicas lab = SimulatedReplicas.of(2);
        try (ReplicaSet set = lab.replicaSet()) {
            FailoverStrategy s = kind.factory().apply(set);
            PluginFailure f = assertThrows(PluginFailure.class, () -> s.invoke("ping", SimulatedReplicas.PING));
            assertTrue(f.getMessage().startsWith("plug-in strategy class:p.Thrower threw NullPointerException"),
                    f.getMessage());
            assertTrue(f.getMessage().contains("at p.Thrower.invoke(Thrower.java:8)"), f.getMessage());
            assertEquals(1, f.getMessage().lines().count());
            assertEquals(f, ((PluginStrategy) s).failure(), "kept for the run to stop on");
        }
    }

    @Test
    void aPluginWhoseConstructorThrowsFailsWhenTheClientIsMade() throws Exception {
        Path classes = compile("p.BadCtor", strategy("BadCtor", "return null;").replace("{ replicas = r; }",
                "{ replicas = r; if (r != null) throw new IllegalStateException(\"not ready\"); }"));
        Strategies.Kind kind = Strategies.resolve("class:p.BadCtor", classes, GIVE_UP);
        SimulatedReplicas lab = SimulatedReplicas.of(1);
        try (ReplicaSet set = lab.replicaSet()) {
            PluginFailure f = assertThrows(PluginFailure.class, () -> kind.factory().apply(set));
            assertTrue(f.getMessage().contains("its constructor threw IllegalStateException: not ready"),
                    f.getMessage());
        }
    }

    @Test
    void aPluginThatReturnsNoOutcomeIsABreachOfContract() throws Exception {
        Path classes = compile("p.Nothing", strategy("Nothing", "return null;"));
        Strategies.Kind kind = Strategies.resolve("class:p.Nothing", classes, GIVE_UP);
        SimulatedReplicas lab = SimulatedReplicas.of(1);
        try (ReplicaSet set = lab.replicaSet()) {
            FailoverStrategy s = kind.factory().apply(set);
            assertTrue(assertThrows(PluginFailure.class, () -> s.invoke("ping", SimulatedReplicas.PING))
                    .getMessage().contains("returned null from invoke"));
        }
    }

    @Test
    void aPluginThatDoesNotReturnIsCaughtByTheWatchdogAndInterrupted() throws Exception {
        CountDownLatch never = new CountDownLatch(1);
        AtomicBoolean interrupted = new AtomicBoolean();
        FailoverStrategy stuck = new FailoverStrategy() {
            @Override
            public <T> Outcome<T> invoke(String operation, Call<T> call) {
                try {
                    never.await(); // nothing counts it down: only an interrupt ends this
                } catch (InterruptedException e) {
                    interrupted.set(true);
                    throw new IllegalStateException("interrupted by the watchdog");
                }
                return null;
            }
        };
        PluginStrategy guarded = new PluginStrategy("class:p.Stuck", stuck, Duration.ofMillis(200).toNanos());
        try {
            assertThrows(PluginFailure.class, () -> guarded.invoke("ping", SimulatedReplicas.PING));
            assertTrue(interrupted.get(), "the stuck thread was interrupted");
            assertTrue(guarded.failure().getMessage().contains("did not return from invoke"),
                    guarded.failure().getMessage());
        } finally {
            guarded.close();
        }
    }

    @Test
    void everyBuiltInNameStillResolvesWithoutAPlugin() {
        for (String n : List.of("reactive", "preconnected", "hedged", "active")) {
            assertEquals(n, Strategies.resolve(n, null, GIVE_UP).name());
        }
    }
}
