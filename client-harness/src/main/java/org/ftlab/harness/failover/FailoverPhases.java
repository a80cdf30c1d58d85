package org.ftlab.harness.failover;

/**
 * The three phases of a faulty invocation (seed 004), in microseconds of the client's clock:
 * fault detection (from sending the request until the client knows the call failed), fail-over (until it has a
 * working target) and the successful retry.
 *
 * @param failedReplica the replica whose failure the client saw first
 * @param attempts invocations made, the successful retry included (2 for a single fail-over)
 */
public record FailoverPhases(String failedReplica, long detectMicros, long failoverMicros, long retryMicros,
        int attempts) {

    public long totalMicros() {
        return detectMicros + failoverMicros + retryMicros;
    }
}
