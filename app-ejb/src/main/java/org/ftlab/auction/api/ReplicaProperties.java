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

    /** Whether this JVM's replica keeps the request log. */
    public static boolean requestLogOn() {
        return !"off".equals(System.getProperty(REQUEST_LOG, "on"));
    }
}
