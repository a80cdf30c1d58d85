package org.ftlab.harness.failover;

/** No replica answered within the client's bound: the request could not be completed. */
public final class AllReplicasDownException extends Exception {
    private static final long serialVersionUID = 1L;

    public AllReplicasDownException(String message, Throwable lastFailure) {
        super(message, lastFailure);
    }
}
