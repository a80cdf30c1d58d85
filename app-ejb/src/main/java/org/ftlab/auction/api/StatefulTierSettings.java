package org.ftlab.auction.api;

import java.io.Serializable;

/**
 * The stateful tier's settings as they cross the doors between processes — from the harness to the Replication
 * Manager ({@code /stateful}) and from the manager to a replica ({@link StatefulTierControl#configure}) — in the words
 * a run records them with. The replica turns them into the tier's own settings and refuses, in one line, a value it
 * does not know.
 *
 * @param determinism {@code on} (messages handled in virtual-time order) or {@code off} (in arrival order: the
 *     negative control)
 * @param silence how the engine learns its gateways are silent: {@code curiosity} or {@code lazy}
 * @param estimator the gateways' estimators: {@code regression} or {@code constant}
 * @param checkpointEvery messages between two soft checkpoints
 * @param gateways senders feeding the engine
 * @param workSpread the gateways' work variability: 10 ± this many loop iterations per input
 */
public record StatefulTierSettings(String determinism, String silence, String estimator, int checkpointEvery,
        int gateways, int workSpread) implements Serializable {
    /** What a run gets for every setting it does not give. */
    public static final StatefulTierSettings DEFAULTS = new StatefulTierSettings("on", "curiosity", "regression", 500,
            2, 9);
}
