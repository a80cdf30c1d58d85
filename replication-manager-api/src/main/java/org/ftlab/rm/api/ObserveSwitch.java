package org.ftlab.rm.api;

import java.util.List;
import java.util.Map;

/**
 * {@code POST /observe}: every JVM of a lab that records events ({@code --observe on}) starts ({@code on}) or stops
 * its flight recording, and the manager its samplers (the database's lock waits, the host and the lab's processes)
 * — to measure what observing costs
 * in alternating blocks of one run (docs/performance.md §8). Stopping discards what was recorded and not yet dumped;
 * a spare booted while observation is off records from its start. The answer is a {@link Result}.
 */
public record ObserveSwitch(boolean on) {
    /** The processes switched ({@code r1}, {@code fd}, {@code rm}, …), and each that could not be and why. */
    public record Result(boolean on, List<String> switched, Map<String, String> failed) {
        public Result {
            switched = List.copyOf(switched);
            failed = Map.copyOf(failed);
        }

        /** Every failure, one line each ({@code r2: JVM 1234 is gone}). */
        public List<String> failures() {
            return failed.entrySet().stream().sorted(Map.Entry.comparingByKey())
                    .map(e -> e.getKey() + ": " + e.getValue()).toList();
        }
    }
}
