package org.ftlab.os;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Undoes faults even when this JVM is killed: every fault in effect has its undo commands in a shell script
 * ({@code undo.sh}, rewritten atomically at every change), and a tiny watcher process runs that script as soon as
 * this JVM is gone. The JVM undoes faults itself when it can (after their duration, at shutdown); the watcher covers
 * {@code kill -9}, after which a frozen cgroup or a stopped database would otherwise stay that way.
 */
public final class Janitor implements AutoCloseable {
    /** The watcher's name in its command line ({@code sh -c LOOP ftlab-janitor …}). */
    public static final String NAME = "ftlab-janitor";

    private final Path script;
    private final Map<String, String> undo = new LinkedHashMap<>();
    private final Process watcher;

    private Janitor(Path script, Process watcher) {
        this.script = script;
        this.watcher = watcher;
    }

    /** Starts watching this JVM; the script lives at {@code script}. */
    public static Janitor start(Path script) throws IOException {
        return start(script, ProcessHandle.current().pid());
    }

    /** Runs the script once process {@code ownerPid} is gone. */
    static Janitor start(Path script, long ownerPid) throws IOException {
        Files.createDirectories(script.toAbsolutePath().getParent());
        Janitor j = new Janitor(script, DeadMansSwitch.start(NAME, ownerPid, "", "[ -f \"$2\" ] && sh \"$2\"",
                script.toAbsolutePath().toString()));
        j.save();
        return j;
    }

    /** Registers how to undo {@code key} (a fault id) if this JVM dies before it does. */
    public synchronized void register(String key, String shellCommands) throws IOException {
        undo.put(key, shellCommands);
        save();
    }

    /** {@code key} was undone here. */
    public synchronized void done(String key) {
        if (undo.remove(key) != null) {
            try {
                save();
            } catch (IOException e) {
                // the script undoes it once more at worst: every command in it is idempotent
            }
        }
    }

    public synchronized boolean pending() {
        return !undo.isEmpty();
    }

    private void save() throws IOException {
        StringBuilder s = new StringBuilder("# ftlab: undoes the faults still in effect if the manager is killed\n");
        undo.forEach((k, v) -> s.append("# ").append(k).append('\n').append(v).append('\n'));
        AtomicFiles.write(script, s.toString());
    }

    /** The watcher process (for tests). */
    Process watcher() {
        return watcher;
    }

    /** Stops the watcher; call after undoing every fault. */
    @Override
    public void close() {
        watcher.destroy();
    }
}
