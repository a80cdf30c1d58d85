package org.ftlab.harness.failover;

/**
 * A plug-in strategy broke the contract of {@link FailoverStrategy}: it threw, returned nothing, or did not return.
 * Not a failure of the service: the run stops, keeps what it finished, and reports this one line.
 */
public final class PluginFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public PluginFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
