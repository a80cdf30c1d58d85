package org.ftlab.fd;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** What a suspected replica's process is doing: gone (crash) or alive without heartbeats (hang). */
public enum FailureKind {
    /** The process is gone or a zombie: its sockets closed. */
    CRASH,
    /** The process exists (running or stopped, e.g. by SIGSTOP) but its heartbeats stopped. */
    HANG;

    /** Classifies by the process's state in /proc (this host's processes only). */
    public static FailureKind ofProcess(long pid) {
        Path stat = Path.of("/proc", Long.toString(pid), "stat");
        try {
            String text = Files.readString(stat);
            // Format: "pid (comm) S ..."; comm may contain spaces and parentheses, the state follows the last ')'.
            char state = text.charAt(text.lastIndexOf(')') + 2);
            return state == 'Z' || state == 'X' ? CRASH : HANG;
        } catch (IOException | RuntimeException e) {
            return CRASH;
        }
    }

    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
