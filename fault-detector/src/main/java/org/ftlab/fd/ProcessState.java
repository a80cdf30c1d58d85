package org.ftlab.fd;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A process's state from /proc: gone (or a zombie), stopped (SIGSTOP), or running. */
public enum ProcessState {
    GONE, STOPPED, RUNNING;

    /** The state of process {@code pid} of this machine. */
    public static ProcessState of(long pid) {
        try {
            return ofStat(Files.readString(Path.of("/proc", Long.toString(pid), "stat")));
        } catch (IOException e) {
            return GONE;
        }
    }

    /** The state a {@code /proc/PID/stat} line says (read here or on another machine); empty: the process is gone. */
    public static ProcessState ofStat(String stat) {
        int paren = stat.lastIndexOf(')');
        if (paren < 0 || paren + 2 >= stat.length()) {
            return GONE;
        }
        return switch (stat.charAt(paren + 2)) {
            case 'Z', 'X' -> GONE;
            case 'T', 't' -> STOPPED;
            default -> RUNNING;
        };
    }
}
