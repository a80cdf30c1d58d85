package org.ftlab.auction.api;

import java.io.Serializable;

/**
 * Server-side probe timestamps of one invocation, in microseconds since the Unix epoch on the serving replica's
 * wall clock (see {@link MicroClock}).
 *
 * <p>They travel in the reply rather than in a server log, because a crashed replica loses its logs. Differences
 * between two of these are meaningful on their own; comparing them with a client's timestamps is only meaningful
 * when client and replica share a clock (the same host).
 */
public final class ServerProbes implements Serializable {
    private static final long serialVersionUID = 1L;

    private final long receivedMicros;
    private final long dbStartMicros;
    private final long dbEndMicros;
    private final long replySentMicros;
    /** Added after the first four; a reply from an older replica reads 0 (no commit) and -1 (no thread). */
    private final long commitStartMicros;
    private final long threadId;
    private final long cpuMicros;
    private final long runQueueMicros;
    private final long dbCpuMicros;
    private final long dbRunQueueMicros;
    /** Added after the first four; a reply from an older replica reads 0 (unknown). */
    private final long dbConnection;
    /** Added last: a reply from an older replica, or from the EJB door, reads 0 or -1 (unknown). */
    private final long arrivedMicros;

    public ServerProbes(long receivedMicros, long dbStartMicros, long dbEndMicros, long replySentMicros) {
        this(receivedMicros, dbStartMicros, 0, dbEndMicros, replySentMicros, -1, -1, -1, -1, -1, -1);
    }

    public ServerProbes(long receivedMicros, long dbStartMicros, long commitStartMicros, long dbEndMicros,
            long replySentMicros, long threadId, long cpuMicros, long runQueueMicros, long dbCpuMicros,
            long dbRunQueueMicros, long dbConnection) {
        this(receivedMicros, dbStartMicros, commitStartMicros, dbEndMicros, replySentMicros, threadId, cpuMicros,
                runQueueMicros, dbCpuMicros, dbRunQueueMicros, dbConnection, -1);
    }

    /** With {@code arrivedMicros}: when the replica's I/O thread had read the request ({@link #arrivedMicros()}). */
    public ServerProbes(long receivedMicros, long dbStartMicros, long commitStartMicros, long dbEndMicros,
            long replySentMicros, long threadId, long cpuMicros, long runQueueMicros, long dbCpuMicros,
            long dbRunQueueMicros, long dbConnection, long arrivedMicros) {
        this.arrivedMicros = arrivedMicros;
        this.dbConnection = dbConnection;
        this.dbCpuMicros = dbCpuMicros;
        this.dbRunQueueMicros = dbRunQueueMicros;
        this.cpuMicros = cpuMicros;
        this.runQueueMicros = runQueueMicros;
        this.receivedMicros = receivedMicros;
        this.dbStartMicros = dbStartMicros;
        this.commitStartMicros = commitStartMicros;
        this.dbEndMicros = dbEndMicros;
        this.replySentMicros = replySentMicros;
        this.threadId = threadId;
    }

    /**
     * When the bean asked the database to commit: {@code dbStart → commitStart} is the transaction's statements
     * (Hibernate, the pool, Connector/J and the database running them), {@code commitStart → dbEnd} its commit (the
     * database's redo log flush among it). 0 for a request without a commit (a read, a rehearsal).
     */
    public long commitStartMicros() {
        return commitStartMicros;
    }

    /**
     * The id of the replica's thread that ran the bean ({@code Thread.getId()}: JDK Flight Recorder's
     * {@code javaThreadId}, which joins that thread's recorded events to this request); -1 if unknown.
     */
    public long threadId() {
        return threadId;
    }

    /**
     * The id of the database connection the request's transaction ran on (the database's process list ID, which its
     * row-lock waits are recorded by); -1 if unknown (no transaction, no events, an older replica).
     */
    public long dbConnection() {
        return dbConnection > 0 ? dbConnection : -1;
    }

    /**
     * When the replica's I/O thread had read the request's head, before handing it to a worker thread (the HTTP door:
     * Undertow's request start time); -1 where the server does not say (the EJB door: JBoss Remoting records no
     * arrival time). {@code arrived → received} is the request's wait for a worker (the pool's queue, and the
     * dispatch to it); on one host, {@code client send → arrived} is the client's sending, the loopback and the
     * request's time in the replica's socket before its I/O thread read it.
     */
    public long arrivedMicros() {
        return arrivedMicros > 0 ? arrivedMicros : -1;
    }

    /** These probes with the time the request arrived ({@link #arrivedMicros()}), as the door measured it. */
    public ServerProbes withArrivedMicros(long micros) {
        return new ServerProbes(receivedMicros, dbStartMicros, commitStartMicros, dbEndMicros, replySentMicros,
                threadId, cpuMicros, runQueueMicros, dbCpuMicros, dbRunQueueMicros, dbConnection, micros);
    }

    /** How long the bean's thread ran on a CPU from arrival to reply, µs ({@link ThreadSchedstat}); -1: unknown. */
    public long cpuMicros() {
        return cpuMicros;
    }

    /**
     * How long the bean's thread waited in a run queue for a CPU from arrival to reply, µs: a request delayed by the
     * replica's host being busy ({@link ThreadSchedstat}); -1: unknown.
     */
    public long runQueueMicros() {
        return runQueueMicros;
    }

    /**
     * How long the database server's thread serving the transaction's connection ran on a CPU during the
     * transaction, µs (the embedded database on the replica's machine only); -1: unknown.
     */
    public long dbCpuMicros() {
        return dbCpuMicros;
    }

    /** How long that database thread waited in a run queue for a CPU during the transaction, µs; -1: unknown. */
    public long dbRunQueueMicros() {
        return dbRunQueueMicros;
    }

    /** When the bean began handling the request. */
    public long receivedMicros() {
        return receivedMicros;
    }

    /** When the bean started its database work (first statement of the transaction). */
    public long dbStartMicros() {
        return dbStartMicros;
    }

    /** When the bean's database work ended (after commit or rollback). */
    public long dbEndMicros() {
        return dbEndMicros;
    }

    /** When the reply left the bean, the last thing the bean does. */
    public long replySentMicros() {
        return replySentMicros;
    }

    @Override
    public String toString() {
        return "ServerProbes[arrived=" + arrivedMicros + ", recv=" + receivedMicros + ", dbStart=" + dbStartMicros + ", commitStart="
                + commitStartMicros + ", dbEnd=" + dbEndMicros + ", sent=" + replySentMicros + ", thread=" + threadId
                + ", cpu=" + cpuMicros + ", runQueue=" + runQueueMicros + ", dbCpu=" + dbCpuMicros + ", dbRunQueue="
                + dbRunQueueMicros + "]";
    }
}
