package org.ftlab.harness.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A user's own fail-over strategy in the real harness: the template {@code ftlab new-strategy} writes, built, runs a
 * crash grid under its own name (on the test run's {@link RunningLab}) and is in the report; a plug-in that throws
 * stops the run, and the lab it started, with one line.
 */
@ExtendWith(RunningLab.class)
class PluginStrategyIT {
    private static InProcessFtlab.Result ftlab(String... args) {
        return InProcessFtlab.run(args);
    }

    /** Compiles {@code sources} into DIR/target/classes, as 'mvn package' in DIR does. */
    private static Path build(Path dir, Path... sources) throws Exception {
        Path classes = Files.createDirectories(dir.resolve("target/classes"));
        String[] args = new String[4 + sources.length];
        args[0] = "-d";
        args[1] = classes.toString();
        args[2] = "-cp";
        args[3] = System.getProperty("java.class.path");
        for (int i = 0; i < sources.length; i++) {
            args[4 + i] = sources[i].toString();
        }
        assertEquals(0, ToolProvider.getSystemJavaCompiler().run(null, null, null, args), "the plug-in compiles");
        return classes;
    }

    @Test
    void theNewStrategyTemplateRunsACrashGridAndIsReportedUnderItsOwnName() throws Exception {
        Path work = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "plugin-");
        Path project = work.resolve("mine");
        assertEquals(0, ftlab("new-strategy", project.toString(), "--class", "edu.course.Mine").code());
        Path classes = build(project, project.resolve("src/main/java/edu/course/Mine.java"));
        Path run = work.resolve("run");
        InProcessFtlab.Result grid = ftlab("grid", "--strategy", "class:edu.course.Mine", "--plugin-dir", classes.toString(),
                "--clients", "2", "--think", "0", "--reply", "orig", "--posts", "300", "--views", "0",
                "--lab-warmup", "100", "--faults", "crash", "--faults-per-config", "1",
                "--invocation-timeout-ms", "200", "--lab", RunningLab.dir().toString(), "--out", run.toString());
        assertEquals(0, grid.code(), grid.err());
        JsonNode manifest = new ObjectMapper().readTree(run.resolve("manifest.json").toFile());
        assertEquals("complete", manifest.path("status").asText());
        assertEquals("class:edu.course.Mine", manifest.path("failover_strategy").asText());
        assertEquals(200, manifest.path("settings").path("invocation_timeout_ms").asInt(), "the knob is recorded");
        assertEquals(classes.toString(), manifest.path("settings").path("plugin").asText());
        assertTrue(manifest.path("audit").path("passed").asBoolean(), "exactly once across the crash");
        assertTrue(Files.readString(run.resolve("faults.csv")).lines().skip(1).anyMatch(l -> l.contains(",crash,")),
                "the crash was injected");

        InProcessFtlab.Result analysis = ftlab("analyze", run.toString());
        assertEquals(0, analysis.code(), analysis.err());
        assertTrue(analysis.out().contains("fail-over (class:edu.course.Mine)"), analysis.out());
        String report = Files.readString(run.resolve("report/index.html"));
        assertTrue(report.contains("fail-over strategy <b>class:edu.course.Mine</b>"), "named in the report");
        assertTrue(report.contains("invocation timeout 200 ms"), "the knobs in the report's header");
    }

    /**
     * A run that fails: its lab (with a replicated database, so that a failed run's stop is seen to take the database's
     * servers and files too) stops with it.
     */
    @Test
    void aPluginThatThrowsStopsTheRunWithOneLineAndLeavesNothingRunning() throws Exception {
        Path work = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "plugin-");
        Path src = work.resolve("src/p/Thrower.java");
        Files.createDirectories(src.getParent());
        Files.writeString(src, """
                package p;
                import org.ftlab.auction.api.AuctionException;
                import org.ftlab.harness.failover.*;
                public class Thrower implements FailoverStrategy {
                  private final ReplicaSet replicas;
                  private final java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
                  public Thrower(ReplicaSet replicas) { this.replicas = replicas; }
                  public <T> Outcome<T> invoke(String op, Call<T> call) throws AuctionException {
                    if (calls.incrementAndGet() > 150) {
                      throw new IllegalStateException("my bug");
                    }
                    ReplicaSet.Target t = replicas.current();
                    return Outcome.firstChoice(replicas.attempt(t, op, call), t.name(), 1);
                  }
                }
                """);
        Path classes = build(work, src);
        Path run = work.resolve("run");
        InProcessFtlab.Result grid = ftlab("grid", "--strategy", "class:p.Thrower", "--plugin-dir", classes.toString(),
                "--clients", "1", "--think", "0", "--reply", "orig", "--posts", "300", "--views", "0",
                "--lab-warmup", "100", "--replicas", "1", "--spares", "0", "--database", "semisync:2", "--out",
                run.toString());
        assertEquals(1, grid.code());
        String err = grid.err().strip();
        assertEquals(1, err.lines().count(), "one line: " + err);
        assertTrue(err.startsWith("ftlab: plug-in strategy class:p.Thrower threw IllegalStateException: my bug at "
                + "p.Thrower.invoke(Thrower.java:10)"), err);
        JsonNode manifest = new ObjectMapper().readTree(run.resolve("manifest.json").toFile());
        assertEquals("aborted", manifest.path("status").asText(), "not passed off as complete");
        assertTrue(manifest.path("error").asText().contains("my bug"), manifest.toString());
        try (var probes = Files.list(run.resolve("probes"))) {
            assertTrue(probes.noneMatch(p -> p.toString().endsWith(".csv")), "no block counted as done");
        }
        // the lab was stopped with the run, not left for the JVM's exit
        List<String> left = List.of();
        for (int attempt = 0; attempt < 100; attempt++) {
            left = ProcessHandle.allProcesses().filter(ph -> ph.info().commandLine()
                    .map(c -> c.contains(run.toString())).orElse(false))
                    .map(ph -> ph.pid() + " " + ph.info().commandLine().orElse("")).toList();
            if (left.isEmpty()) {
                break;
            }
            Thread.sleep(200);
        }
        assertEquals(List.of(), left, "processes of the run left running");
        try (var files = Files.list(run.resolve("db"))) {
            assertEquals(List.of(), files.filter(Files::isDirectory).toList(), "no database server's data is left");
        }
    }
}
