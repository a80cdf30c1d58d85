package org.ftlab.harness.probe;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A run's {@code database.json} (docs/probe-format.md): the database's work while the run's clients sent their
 * requests, as the change of the server's own counters ({@code SHOW GLOBAL STATUS}: statements, commits, row-lock
 * waits) from just before the first request the run measures (its lab warm-up, or its first block) to just after its
 * last, and the requests sent in that time (every probe row, warm-ups included). The counters are the whole server's:
 * they count every statement of the tier (a stateful tier's input log and checkpoints, its standby's reads as well as
 * a stateless tier's transactions), and nothing of the harness's own audit, which runs after. Written once, whole.
 *
 * @param requests the requests the counters' change is divided by
 * @param counters counter name to its change over the run
 */
public record DatabaseWorkRecord(long requests, Map<String, Long> counters) {
    public static final String FILE = "database.json";
    /** The counters recorded: statements, their kinds, transactions and row-lock waits. */
    public static final List<String> COUNTERS = List.of("Questions", "Com_select", "Com_insert", "Com_update",
            "Com_delete", "Com_commit", "Com_rollback", "Handler_commit", "Handler_rollback", "Innodb_row_lock_waits");

    public DatabaseWorkRecord {
        if (requests < 0) {
            throw new IllegalArgumentException("requests must be >= 0, was " + requests);
        }
        counters = Map.copyOf(counters);
    }

    /** The record of {@code requests} over the change from {@code before} to {@code after} (counter by counter). */
    public static DatabaseWorkRecord between(Map<String, Long> before, Map<String, Long> after, long requests) {
        Map<String, Long> change = new LinkedHashMap<>();
        after.forEach((k, v) -> change.put(k, v - before.getOrDefault(k, v)));
        return new DatabaseWorkRecord(requests, change);
    }

    /** A counter's change per request (0 with no request or no such counter). */
    public double perRequest(String counter) {
        Long n = counters.get(counter);
        return n == null || requests == 0 ? 0 : (double) n / requests;
    }

    /** Statements per request (the server's {@code Questions}: every statement a client sent it). */
    public double statementsPerRequest() {
        return perRequest("Questions");
    }

    public void writeTo(Path runDir) throws IOException {
        RunRecordFiles.write(runDir, FILE, this);
    }

    /** The record in {@code runDir}, or null when the run has none (a run from before it, or one that measured none). */
    public static DatabaseWorkRecord readFrom(Path runDir) throws IOException {
        return RunRecordFiles.read(runDir, FILE, DatabaseWorkRecord.class, "a database work record");
    }

}
