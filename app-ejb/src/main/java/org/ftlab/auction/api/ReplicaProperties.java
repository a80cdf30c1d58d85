package org.ftlab.auction.api;

/** System properties a replica reads at start, set by the Replication Manager that launches it. */
public final class ReplicaProperties {
    private ReplicaProperties() {
    }

    /**
     * {@code off} turns the request log off, for the exactly-once exercise (docs/labs/04-exactly-once.md) only: each
     * copy of a request that reaches a replica (a retry after a fail-over, a hedge, an active replica's copy) then
     * runs again, and the audit counts the duplicates. Default {@code on}.
     */
    public static final String REQUEST_LOG = "ftlab.request_log";

    /**
     * {@code on} makes the replica answer {@code auctionStatus} from a cache it fills at an auction's first status
     * read and never invalidates: stale reads on purpose, the negative control of the history's linearizability check
     * (docs/labs/12-linearizable.md) and nothing else. Default off. Set through {@code FTLAB_REPLICA_JAVA_OPTS}.
     */
    public static final String STALE_READS = "ftlab.stale_reads";

    /** Whether this JVM's replica answers status reads from its never-invalidated cache (a negative control). */
    public static boolean staleReadsOn() {
        return "on".equals(System.getProperty(STALE_READS, "off"));
    }

    /**
     * How many rounds of the service's database paths the replica runs in itself at deployment, before it reports
     * ready (the manager's remote warm-up comes after): the lab's warm rounds ({@code --warm-rounds}). Default
     * {@value #DEFAULT_WARM_ROUNDS}; 0 deploys the replica cold.
     */
    public static final String WARM_ROUNDS = "ftlab.warm_rounds";
    public static final int DEFAULT_WARM_ROUNDS = 300;

    /**
     * The database server's process id, when it runs on this replica's machine (the embedded database): the replica
     * then reads its connection threads' scheduler statistics for the probes. Absent otherwise.
     */
    public static final String DB_PID = "ftlab.db.pid";

    /** The database server's process id on this machine, or -1. */
    public static long databasePid() {
        return Long.getLong(DB_PID, -1);
    }

    /**
     * {@code on} when the lab records events ({@code --observe on}): the replica's probes then also read its threads'
     * and the database connection's scheduler counters for the attribution of slow requests. Default {@code off}.
     */
    public static final String OBSERVE = "ftlab.observe";

    /** Whether this JVM's replica reads scheduler counters in its probes. */
    public static boolean observeOn() {
        return "on".equals(System.getProperty(OBSERVE, "off"));
    }

    /** Whether this JVM's replica keeps the request log. */
    public static boolean requestLogOn() {
        return !"off".equals(System.getProperty(REQUEST_LOG, "on"));
    }

    /** The rounds of this JVM's replica's own warm-up at deployment (set by the manager, which validates it). */
    public static int warmRounds() {
        return Math.max(0, Integer.getInteger(WARM_ROUNDS, DEFAULT_WARM_ROUNDS));
    }
}
