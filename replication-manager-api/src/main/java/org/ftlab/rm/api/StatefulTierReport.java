package org.ftlab.rm.api;

import org.ftlab.auction.api.TierStatus;

/** The primary's stateful tier, as the manager reports it, and the checkpoint stored for the call (0: none asked). */
public record StatefulTierReport(TierStatus status, long checkpointId) {
}
