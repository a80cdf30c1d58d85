package org.ftlab.os.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A database session's wait for a lock on something larger than a row — a metadata lock in MariaDB's and MySQL's words:
 * the backup lock a backup's {@code BLOCK_COMMIT} stage holds (every commit waits), the global read lock of
 * {@code FLUSH TABLES WITH READ LOCK}, a table's metadata lock during DDL — as the Replication Manager sampled it from
 * the server's process list into its flight recording, from the first sample that saw it to the first that did not
 * (each end known to within the sampling period). The analysis joins it to the request whose transaction ran on
 * {@link #connection}. One type for both sides: the manager writes it, {@code analyze} reads it by {@link #NAME}.
 */
@Name(DatabaseMetadataLockWait.NAME)
@Label("Database Metadata Lock Wait")
@Category({"ftlab", "Database"})
@Description("A database session waited for a metadata lock (backup, global read, table) another held (sampled)")
@StackTrace(false)
public final class DatabaseMetadataLockWait extends Event {
    /** The event's name in recordings and in {@code ftlab.jfc}. */
    public static final String NAME = "ftlab.DatabaseMetadataLockWait";
    /** The field that holds {@link #connection}. */
    public static final String CONNECTION = "connection";
    /** The field that holds {@link #state}. */
    public static final String STATE = "state";
    /** The field that holds {@link #statement}. */
    public static final String STATEMENT = "statement";

    /** The waiting session's connection id (the database's process list ID, the probes' {@code db_connection}). */
    @Label("Connection")
    public long connection;

    /** What the session waited for, as the process list says it: {@code Waiting for backup lock}. */
    @Label("State")
    public String state;

    /** The start of the statement that waited ({@code commit}, {@code insert into bid …}). */
    @Label("Statement")
    public String statement;
}
