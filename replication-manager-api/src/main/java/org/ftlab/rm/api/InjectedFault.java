package org.ftlab.rm.api;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * A fault the manager injected and what became of it; times in µs since the epoch on the manager's clock, 0 where a
 * step has not happened (yet). What the service did meanwhile (detection, promotion, restored degree) is in the
 * {@link FailureRecord}s with the same {@code faultId}, if the fault made the manager fail a replica at all.
 *
 * @param faultId {@code f1}, {@code f2}, … in order of injection (failures nobody injected share the sequence)
 * @param replica the replica the target resolved to at injection (a replica's host, either side of a partition),
 *     or null when the fault touches no replica
 * @param pid the process the fault acted on (the replica's or the database server's), or 0 (network faults)
 * @param repairedEpochUs when the lab undid the fault (or the manager fenced its replica); 0 while it lasts
 */
public record InjectedFault(String faultId, FaultSpec spec, String replica, long pid, long injectedEpochUs,
        long repairedEpochUs, Repair repair) {

    /** How a fault ended. */
    public enum Repair {
        /** Still in effect. */
        NONE,
        /** Undone by the lab after its duration (SIGCONT, thawed, quota lifted, link up, rules removed). */
        UNDONE,
        /** Its replica was fenced (SIGKILL) by the manager before the duration ended; the rest was undone. */
        FENCED,
        /** A crash: the manager repairs it by restoring the degree; nothing to undo. */
        REPLACED,
        /** Undone early because the lab stopped. */
        AT_SHUTDOWN,
        /**
         * Undone early because the manager that made it stopped leading (by itself, or by its janitor when it died);
         * recorded by the next leader.
         */
        HANDED_OVER;

        @JsonValue
        public String wireName() {
            return WireNames.of(this);
        }

        @JsonCreator
        public static Repair parse(String s) {
            return WireNames.parse(Repair.class, s);
        }
    }

    public FaultKind kind() {
        return spec.kind();
    }

    public boolean active() {
        return repair == Repair.NONE;
    }

    public InjectedFault repaired(long epochUs, Repair how) {
        return new InjectedFault(faultId, spec, replica, pid, injectedEpochUs, epochUs, how);
    }
}
