package org.ftlab.fd;

import java.util.Locale;

/** What a suspected replica's process is doing: gone (crash) or alive without heartbeats (hang). */
public enum FailureKind {
    /** The process is gone or a zombie: its sockets closed. */
    CRASH,
    /** The process exists (running or stopped, e.g. by SIGSTOP) but its heartbeats stopped. */
    HANG;

    /** Classifies by the process's state in /proc (this host's processes only). */
    public static FailureKind ofProcess(long pid) {
        return ProcessState.of(pid) == ProcessState.GONE ? CRASH : HANG;
    }

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
