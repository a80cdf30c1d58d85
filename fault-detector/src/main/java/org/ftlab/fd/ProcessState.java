package org.ftlab.fd;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A local process's state from /proc: gone (or a zombie), stopped (SIGSTOP), or running. */
public enum ProcessState {
    GONE, STOPPED, RUNNING;

    public static ProcessState of(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            char state = stat.charAt(stat.lastIndexOf(')') + 2);
            return switch (state) {
                case 'Z', 'X' -> GONE;
                case 'T', 't' -> STOPPED;
                default -> RUNNING;
            };
        } catch (IOException | RuntimeException e) {
            return GONE;
        }
    }
}
