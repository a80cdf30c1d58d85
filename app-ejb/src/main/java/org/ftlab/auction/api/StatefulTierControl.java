package org.ftlab.auction.api;

import jakarta.ejb.Remote;

/**
 * The Replication Manager's handle on a replica's stateful tier (seed 003): only the primary runs it; the manager
 * starts a run of it, recovers it on a new primary, and stops it on a replica that is no longer primary.
 *
 * <p>Remote lookup name: {@value #JNDI_NAME}.
 */
@Remote
public interface StatefulTierControl {
    String JNDI_NAME = "ejb:/app-ejb/StatefulTierBean!org.ftlab.auction.api.StatefulTierControl";

    /**
     * Starts a new run of the tier on this replica at {@code epoch}: the log, estimator changes and checkpoints are
     * emptied and the settings stored; whatever ran here before stops.
     */
    TierStatus configure(long epoch, StatefulTierSettings settings);

    /**
     * Makes this replica the tier's primary at {@code epoch} (later than any before: an older primary can append
     * nothing from then on), restores the newest checkpoint, replays the inputs logged after it, and returns once
     * they are handled: then it serves.
     */
    TierStatus recover(long epoch);

    /** Stops the tier on this replica (it is no longer primary); nothing is stored. */
    void deactivate();

    /** What the tier on this replica has done; {@link TierStatus#active()} false where it does not run. */
    TierStatus status();

    /** Stores a checkpoint of the tier now, synchronously (for a run's end); returns its id, 0 if the tier is off. */
    long checkpointNow();
}
