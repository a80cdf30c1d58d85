package org.ftlab.harness.it;

import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.ftlab.rm.api.ManagerEndpoint;

/**
 * A lab kept running by {@code scripts/ftlab lab}, as a user keeps one, for the tests that share it
 * ({@code ftlab grid --lab DIR}); stopped with SIGINT, as Ctrl-C stops it, which must leave nothing behind: no process
 * using its directory, no {@code rm.json}, nothing in a janitor's script.
 */
final class KeptLab {
    private static final Path HOME = Path.of(System.getProperty("ftlab.home", "..")).toAbsolutePath().normalize();
    private final Process process;
    private final Path dir;

    private KeptLab(Process process, Path dir) {
        this.process = process;
        this.dir = dir;
    }

    /** Starts {@code ftlab lab OPTIONS} in a new directory under target/ named {@code prefix...}; returns once ready. */
    static KeptLab start(String prefix, String... options) throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), prefix);
        Path console = dir.resolveSibling(dir.getFileName() + ".log");
        List<String> command = new ArrayList<>(List.of(HOME.resolve("scripts/ftlab").toString(), "lab"));
        command.addAll(List.of(options));
        command.addAll(List.of("--out", dir.toString()));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(console.toFile())
                .start();
        while (!Files.readString(console).contains("lab ready in")) {
            if (!process.isAlive()) {
                throw new IllegalStateException(String.join(" ", command.subList(1, command.size())) + " exited "
                        + process.exitValue() + ": " + Files.readString(console));
            }
            Thread.sleep(100);
        }
        System.out.println(Files.readString(console));
        return new KeptLab(process, dir);
    }

    Path dir() {
        return dir;
    }

    /**
     * Ctrl-C (SIGINT; SIGTERM, which the lab takes the same way, where this test run ignores SIGINT, as one started in
     * the background of a shell without job control does): the lab stops everything it started, and leaves nothing
     * behind.
     */
    void stop() throws Exception {
        String signal = FtlabCommandIT.ignoresSigint(process.pid()) ? "-TERM" : "-INT";
        new ProcessBuilder("kill", signal, Long.toString(process.pid())).start().waitFor();
        if (!process.waitFor(2, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new AssertionError("ftlab lab did not stop within 2 min of kill " + signal);
        }
        FtlabCommandIT.assertNoProcessUses(dir);
        assertFalse(Files.exists(dir.resolve(ManagerEndpoint.FILE)), "rm.json removed: the lab no longer runs");
        NetnsGridIT.assertNothingLeft(dir);
    }
}
