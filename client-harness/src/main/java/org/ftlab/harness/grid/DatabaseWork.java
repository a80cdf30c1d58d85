package org.ftlab.harness.grid;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.ftlab.harness.lab.DatabaseCounters;
import org.ftlab.harness.probe.DatabaseWorkRecord;

/**
 * The database's work during a run: its counters before the run's first measured request and after its last,
 * recorded as {@code database.json}. A database that keeps none (or cannot be read) leaves it out, as a figure not
 * measured.
 */
final class DatabaseWork {
    private final Path labRunDir;
    private final PrintWriter progress;
    private final Map<String, Long> before;
    private final long beforeNanos = System.nanoTime();

    private DatabaseWork(Path labRunDir, PrintWriter progress, Map<String, Long> before) {
        this.labRunDir = labRunDir;
        this.progress = progress;
        this.before = before;
    }

    /** The counters of the database of the lab in {@code labRunDir} now; null where they cannot be read. */
    static DatabaseWork before(Path labRunDir, PrintWriter progress) {
        Map<String, Long> now = read(labRunDir, progress);
        return now == null ? null : new DatabaseWork(labRunDir, progress, now);
    }

    /** Writes {@code runDir}'s {@code database.json}: the work since {@link #before}, over {@code requests}. */
    void recordAfter(long requests, Path runDir) throws IOException {
        Map<String, Long> after = read(labRunDir, progress);
        if (after == null) {
            return;
        }
        long elapsedS = (System.nanoTime() - beforeNanos) / 1_000_000_000L;
        if (!DatabaseCounters.sameServerThroughout(before, after, elapsedS)) {
            // the counters are each server incarnation's own: a difference across two is no figure
            progress.println("note: the database's writer changed or restarted during the run (a fail-over); the run "
                    + "records no database.json");
            return;
        }
        Map<String, Long> work = new LinkedHashMap<>(after);
        work.remove(DatabaseCounters.SERVER_ID);
        work.remove(DatabaseCounters.UPTIME_S);
        DatabaseWorkRecord.between(before, work, requests).writeTo(runDir);
    }

    private static Map<String, Long> read(Path labRunDir, PrintWriter progress) {
        try {
            return DatabaseCounters.read(labRunDir, DatabaseWorkRecord.COUNTERS);
        } catch (IOException | SQLException e) {
            progress.println("note: the database's work counters cannot be read (" + e.getMessage()
                    + "); the run records no database.json");
            return null;
        }
    }
}
