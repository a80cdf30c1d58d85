package org.ftlab.rm.api;

import java.util.List;
import java.util.Map;

/**
 * {@code POST /events}: every JVM of the lab that records events (each replica on this machine, the Fault Detector,
 * the manager) writes what it recorded since {@code sinceEpochUs} to {@code dir/<process><suffix>.jfr}; the answer
 * is a {@link Files}.
 */
public record EventDump(String dir, String suffix, long sinceEpochUs) {
    public EventDump {
        if (dir == null || dir.isBlank()) {
            throw new IllegalArgumentException("an event dump needs a directory");
        }
        if (suffix == null || suffix.contains("/")) {
            throw new IllegalArgumentException("an event dump's suffix is a file name's end, was '" + suffix + "'");
        }
    }

    /** What a dump wrote: the file of each process, and each process whose recording could not be written and why. */
    public record Files(Map<String, String> written, Map<String, String> failed) {
        public Files {
            written = Map.copyOf(written);
            failed = Map.copyOf(failed);
        }

        /** Every failure, one line each ({@code r2: JVM 1234 is gone}). */
        public List<String> failures() {
            return failed.entrySet().stream().sorted(Map.Entry.comparingByKey())
                    .map(e -> e.getKey() + ": " + e.getValue()).toList();
        }
    }
}
