package org.ftlab.os;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;

/** Small process chores: pid files, polite then forceful termination, real POSIX signals. */
public final class ProcessTools {
    private ProcessTools() {
    }

    public static Optional<Long> readPid(Path pidFile) {
        try {
            return Optional.of(Long.parseLong(Files.readString(pidFile, StandardCharsets.US_ASCII).strip()));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** SIGTERM, wait up to {@code grace}, then SIGKILL; waits for the process to be gone. */
    public static void terminate(ProcessHandle process, Duration grace) {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        try {
            process.onExit().get(grace.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception timedOutOrInterrupted) {
            process.destroyForcibly();
            try {
                process.onExit().get(5, TimeUnit.SECONDS);
            } catch (Exception e) {
                // A process that survives SIGKILL for 5 s is stuck in the kernel; nothing more a user process can do.
            }
        }
    }

    /**
     * Sets the nice value of every thread of {@code pid} (Linux nices threads, not processes: renice of the pid alone
     * would leave the JVM's other threads where they were). Lowering a nice value needs root (CAP_SYS_NICE).
     */
    public static void renice(long pid, int niceness) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("renice", "-n",
                Integer.toString(niceness), "-p"));
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            tasks.forEach(t -> cmd.add(t.getFileName().toString()));
        }
        try {
            run(cmd, null);
        } catch (IOException e) {
            throw new IOException("renice " + niceness + " of " + pid + " failed: " + e.getMessage()
                    .replaceFirst("^.* failed: ", ""), e);
        }
    }

    /**
     * Sends a real signal ({@code KILL}, {@code STOP}, {@code CONT}, {@code TERM}) with kill(1): the JDK can send
     * only TERM and KILL, and fault injection needs STOP/CONT too.
     */
    public static void signal(long pid, String signalName) throws IOException {
        run(List.of("kill", "-" + signalName, Long.toString(pid)), null); // "kill -STOP 42 failed: …" on error
    }

    /**
     * Waits for a started process to say something in its output file {@code console}: every 50 ms the whole output
     * so far goes to {@code match}; its first non-null answer is returned. Null if the process exited, or
     * {@code timeout} passed, first (the caller tells which, and quotes {@link #readOutput}).
     */
    public static <T> T awaitOutput(Process process, Path console, Duration timeout,
            Function<String, T> match) throws IOException, InterruptedException {
        return awaitOutput(process.toHandle(), console, timeout, match);
    }

    /** As {@link #awaitOutput(Process, Path, Duration, Function)}, for a process this JVM need not have started. */
    public static <T> T awaitOutput(ProcessHandle process, Path console, Duration timeout,
            Function<String, T> match) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            T found = match.apply(readOutput(console));
            if (found != null) {
                return found;
            }
            if (!process.isAlive() || System.nanoTime() > deadline) {
                return null;
            }
            Thread.sleep(50);
        }
    }

    /** A process's output file so far; empty if it has none yet. */
    public static String readOutput(Path console) throws IOException {
        return Files.exists(console) ? Files.readString(console, StandardCharsets.UTF_8) : "";
    }

    /**
     * Runs a system command ({@code ip}, {@code nft}, {@code tc}) to its end with {@code stdin} as its input (null:
     * none) and returns its output; a non-zero exit is an {@link IOException} quoting the command's first line of
     * output.
     */
    public static String run(List<String> command, String stdin) throws IOException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        try (OutputStream in = p.getOutputStream()) {
            if (stdin != null) {
                in.write(stdin.getBytes(StandardCharsets.UTF_8));
            }
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (p.waitFor() != 0) {
                throw new IOException(String.join(" ", command) + " failed: "
                        + out.lines().findFirst().orElse("(no output)"));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running " + command.get(0), e);
        }
        return out;
    }
}
