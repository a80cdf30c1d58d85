package org.ftlab.auction.api;

import java.io.Serializable;

/**
 * What the stateful tier did for one request (seed 003's costs of determinism), beside the {@link ServerProbes}.
 *
 * @param logMicros the synchronous write of the input to the log (0: a retry answered from the engine's book)
 * @param pessimismDelayMicros how long the engine, free to handle the request's message, waited for its gateways'
 *     silence
 * @param curiosityProbes probes the engine sent while it waited
 * @param outOfOrder the message reached the engine after one of another gateway with a later virtual time
 * @param gateway the gateway that took the input (1, 2, …); 0 for a retry answered from the book
 * @param recoveryWaitMicros how long the request waited for the tier to recover on this replica (a new primary's
 *     replay), 0 if it did not
 * @param virtualTimeNanos the message's virtual time at the engine (0 for a retry)
 */
public record TierProbes(long logMicros, long pessimismDelayMicros, int curiosityProbes, boolean outOfOrder,
        int gateway, long recoveryWaitMicros, long virtualTimeNanos) implements Serializable {
}
