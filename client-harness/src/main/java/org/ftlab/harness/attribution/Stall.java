package org.ftlab.harness.attribution;

/**
 * A stretch of time, recorded by a process itself, in which it could not run requests: a cause a slow request can be
 * attributed to (docs/analysis.md, "Why a request was slow").
 *
 * @param process the process that recorded it: a replica ({@code r1}, …), {@code harness} (the clients' JVM), {@code
 *        rm}, {@code fd}
 * @param cause what stalled it
 * @param startUs when it began, µs since the epoch on the process's host clock (the probes' clock)
 * @param endUs when it ended, same clock
 * @param detail what the recording says of it: {@code G1Full (Diagnostic Command)}, {@code safepoint: ICBufferFull}
 * @param connection the one database connection it held up ({@link #EVERY_REQUEST}: every request of the process)
 */
public record Stall(String process, Cause cause, long startUs, long endUs, String detail, long connection) {
    /** The {@code connection} of a stall that held up every request of its process (a pause of a JVM). */
    public static final long EVERY_REQUEST = -1;

    public Stall {
        if (endUs < startUs) {
            throw new IllegalArgumentException("a stall ends before it begins: " + startUs + " > " + endUs);
        }
    }

    /** A stall of a whole process. */
    public Stall(String process, Cause cause, long startUs, long endUs, String detail) {
        this(process, cause, startUs, endUs, detail, EVERY_REQUEST);
    }

    /** Whether it held up the request whose transaction ran on database connection {@code dbConnection}. */
    public boolean holdsUp(long dbConnection) {
        return connection == EVERY_REQUEST || connection == dbConnection;
    }

    /** The causes a stall can have, each a recorded event, with their names in summaries and reports. */
    public enum Cause {
        /** A stop-the-world garbage collection pause: every thread of the JVM stopped, from safepoint to resume. */
        GC_PAUSE("gc-pause"),
        /** Any other safepoint: every Java thread stopped for a VM operation (deoptimization, code cache, …). */
        SAFEPOINT("safepoint"),
        /** A database session waited for a row lock another held (the database's lock waits, sampled). */
        ROW_LOCK_WAIT("db-lock-wait"),
        /**
         * A database session waited for a metadata lock another held — the backup lock a backup's commit block holds,
         * the global read lock, a table's during DDL (the database's process list, sampled).
         */
        METADATA_LOCK_WAIT("db-mdl-wait");

        private final String wireName;

        Cause(String wireName) {
            this.wireName = wireName;
        }

        public String wireName() {
            return wireName;
        }
    }

    public long durationUs() {
        return endUs - startUs;
    }

    /** The cause as reports name it: {@code gc-pause(r1)}. */
    public String label() {
        return cause.wireName() + "(" + process + ")";
    }

    /** How much of {@code [fromUs, toUs]} it covers, µs. */
    public long overlapUs(long fromUs, long toUs) {
        return Math.max(0, Math.min(endUs, toUs) - Math.max(startUs, fromUs));
    }
}
