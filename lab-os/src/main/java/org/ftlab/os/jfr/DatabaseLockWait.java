package org.ftlab.os.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * A database session's wait for a row lock another session held, as the Replication Manager sampled it into its flight
 * recording (from the first sample that saw it to the first that did not, and how long it had waited before); the analysis reads it back from the
 * manager's event file and joins it to the request whose transaction ran on {@link #connection}. One type for both
 * sides: the manager writes it, {@code analyze} reads it by {@link #NAME}.
 */
@Name(DatabaseLockWait.NAME)
@Label("Database Lock Wait")
@Category({"ftlab", "Database"})
@Description("A database session waited for a row lock held by another (InnoDB, sampled)")
@StackTrace(false)
public final class DatabaseLockWait extends Event {
    /** The event's name in recordings and in {@code ftlab.jfc}. */
    public static final String NAME = "ftlab.DatabaseLockWait";
    /** The field that holds {@link #connection}. */
    public static final String CONNECTION = "connection";
    /** The field that holds {@link #waitedBeforeMicros}. */
    public static final String WAITED_BEFORE = "waitedBeforeMicros";
    /** The field that holds {@link #transaction}. */
    public static final String TRANSACTION = "transaction";

    /** The waiting session's connection id (the database's process list ID, the probes' {@code db_connection}). */
    @Label("Connection")
    public long connection;

    /**
     * How long the session had waited when the wait was first seen, µs (the database says): the wait began that long
     * before the event's start.
     */
    @Label("Waited Before First Seen")
    @Timespan(Timespan.MICROSECONDS)
    public long waitedBeforeMicros;

    /** The waiting transaction's id in the database. */
    @Label("Transaction")
    public String transaction;
}
