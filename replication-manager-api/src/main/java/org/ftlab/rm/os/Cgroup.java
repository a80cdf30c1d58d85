package org.ftlab.os;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One control group of a cgroup v1 controller ({@code cpu}, {@code freezer}) made for one fault: processes are moved
 * in, the controller's files set, and on {@link #remove()} the processes are moved back to the root group and the
 * group is deleted. Needs root (the controllers' hierarchies are writable by root only).
 */
public final class Cgroup {
    private final Path root;
    private final Path dir;

    private Cgroup(Path root, Path dir) {
        this.root = root;
        this.dir = dir;
    }

    /** Where {@code controller}'s v1 hierarchy is mounted, if it is. */
    public static Optional<Path> mountOf(String controller) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/mounts"), StandardCharsets.UTF_8)) {
                String[] f = line.split(" ");
                if (f.length > 3 && f[2].equals("cgroup") && List.of(f[3].split(",")).contains(controller)) {
                    return Optional.of(Path.of(f[1]));
                }
            }
        } catch (IOException e) {
            // no /proc: no cgroups either
        }
        return Optional.empty();
    }

    /**
     * Why {@code controller} cannot be used here, or empty if it can: its v1 hierarchy must be mounted and writable
     * (as root).
     */
    public static Optional<String> unusable(String controller) {
        Optional<Path> mount = mountOf(controller);
        if (mount.isEmpty()) {
            return Optional.of("the cgroup v1 '" + controller + "' controller is not mounted");
        }
        if (!Files.isWritable(mount.get())) {
            return Optional.of("the cgroup v1 '" + controller + "' controller (" + mount.get()
                    + ") is not writable: run as root");
        }
        return Optional.empty();
    }

    /** Creates group {@code name} under {@code controller}'s root. */
    public static Cgroup create(String controller, String name) throws IOException {
        Path root = mountOf(controller).orElseThrow(() -> new IOException(unusable(controller).orElseThrow()));
        Path dir = root.resolve(name);
        Files.createDirectories(dir);
        return new Cgroup(root, dir);
    }

    public Path dir() {
        return dir;
    }

    /** Moves process {@code pid} (all its threads) into this group. */
    public void add(long pid) throws IOException {
        write("cgroup.procs", Long.toString(pid));
    }

    /** Writes a control file of this group ({@code freezer.state}, {@code cpu.cfs_quota_us}, …). */
    public void write(String file, String value) throws IOException {
        Files.writeString(dir.resolve(file), value + "\n", StandardCharsets.US_ASCII);
    }

    public String read(String file) throws IOException {
        return Files.readString(dir.resolve(file), StandardCharsets.US_ASCII).strip();
    }

    /** Moves every process still in the group back to the root group and deletes the group; best effort. */
    public void remove() throws IOException {
        IOException first = null;
        for (int attempt = 0; attempt < 50 && Files.isDirectory(dir); attempt++) {
            for (String pid : procs()) {
                try {
                    Files.writeString(root.resolve("cgroup.procs"), pid + "\n", StandardCharsets.US_ASCII);
                } catch (IOException e) {
                    // gone meanwhile
                }
            }
            try {
                Files.delete(dir);
                return;
            } catch (IOException e) {
                first = first == null ? e : first;
                try {
                    Thread.sleep(20); // a task that is exiting still counts for a moment
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        if (Files.isDirectory(dir)) {
            throw new IOException("could not remove cgroup " + dir + (first == null ? "" : ": " + first.getMessage()));
        }
    }

    private List<String> procs() {
        try {
            return new ArrayList<>(Files.readAllLines(dir.resolve("cgroup.procs"), StandardCharsets.US_ASCII));
        } catch (IOException e) {
            return List.of();
        }
    }

    /** Shell commands that do what {@link #remove()} does, for a clean-up script run when this JVM is gone. */
    public String removeScript() {
        return removeScript("'" + root + "'", "'" + dir + "'");
    }

    /**
     * Shell commands that move every process of group {@code dir} back to {@code root} and delete the group, retried
     * while an exiting task still counts; both are shell words (a quoted path, or a variable such as {@code "$g"}).
     */
    public static String removeScript(String root, String dir) {
        return "i=0; while [ -d " + dir + " ] && [ $i -lt 50 ]; do for p in $(cat " + dir + "/cgroup.procs "
                + "2>/dev/null); do echo $p > " + root + "/cgroup.procs 2>/dev/null; done; rmdir " + dir
                + " 2>/dev/null || sleep 0.02; i=$((i+1)); done";
    }
}
