package org.ftlab.harness.it;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One lab kept running by {@code scripts/ftlab lab} (2 replicas, 1 spare, the default knobs, its JVMs recording events
 * although the suite's labs record none by default) for every grid of the
 * test run that can share it ({@code ftlab grid --lab DIR}): booted once, when a class that uses it starts, and stopped
 * with SIGTERM, as Ctrl-C stops it, when the test JVM's root context closes. Stopping it must leave nothing behind.
 */
public final class RunningLab implements BeforeAllCallback, ExtensionContext.Store.CloseableResource {
    private static final Path HOME = Path.of(System.getProperty("ftlab.home", "..")).toAbsolutePath().normalize();
    private static Process process;
    private static Path dir;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        synchronized (RunningLab.class) {
            if (process != null) {
                return;
            }
            dir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "running-lab-");
            Path console = dir.resolveSibling(dir.getFileName() + ".log");
            process = new ProcessBuilder(HOME.resolve("scripts/ftlab").toString(), "lab", "--observe", "on", "--out",
                    dir.toString())
                    .redirectErrorStream(true).redirectOutput(console.toFile()).start();
            context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL).put(RunningLab.class.getName(), this);
            while (!Files.readString(console).contains("lab ready in")) {
                if (!process.isAlive()) {
                    throw new IllegalStateException("ftlab lab exited " + process.exitValue() + ": "
                            + Files.readString(console));
                }
                Thread.sleep(100);
            }
            System.out.println(Files.readString(console));
        }
    }

    /** The running lab's directory, for {@code --lab}. */
    static Path dir() {
        return dir;
    }

    @Override
    public void close() throws Exception {
        synchronized (RunningLab.class) {
            if (process == null) {
                return;
            }
            process.destroy(); // SIGTERM, as Ctrl-C: the lab stops everything it started
            if (!process.waitFor(2, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new AssertionError("ftlab lab did not stop within 2 min of SIGTERM");
            }
            process = null;
            NetnsGridIT.assertNothingLeft(dir);
        }
    }
}
