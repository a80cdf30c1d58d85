package org.ftlab.harness.workload.bids;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.ftlab.harness.probe.Manifest;

/**
 * What the bids workload was given beyond its name, as a run records it ({@code workload_parameters} in
 * {@code manifest.json}, docs/probe-format.md): its options write it, the workload reads it back.
 *
 * @param hotAuctions the shared auctions every client bids on; null: not given (then
 *     {@value BidsWorkload#DEFAULT_HOT_AUCTIONS})
 * @param tier {@code stateless} (the default: transactions on the database) or {@code stateful} (seed 003's
 *     deterministic components on the primary, recovered by checkpoint and replay); null: not given
 * @param stateful the stateful tier's settings; null on the stateless tier
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record BidsParameters(Integer hotAuctions, String tier, StatefulTier stateful) {
    public boolean onStatefulTier() {
        return "stateful".equals(tier);
    }

    /** These parameters as {@code workload_parameters} records them. */
    public ObjectNode json() {
        return Manifest.workloadParametersOf(this);
    }

    /** The parameters a run recorded; null when none were. */
    public static BidsParameters of(ObjectNode recorded) {
        return Manifest.readWorkloadParameters(recorded, BidsParameters.class);
    }

    /**
     * The stateful tier's settings as a run records them ({@code workload_parameters.stateful}).
     *
     * @param determinism {@code on} (virtual-time order) or {@code off} (arrival order: the negative control)
     * @param silence {@code lazy} or {@code curiosity}
     * @param estimator {@code regression} or {@code constant}
     * @param checkpointEvery messages between two soft checkpoints
     * @param gateways senders feeding the engine
     * @param workSpread the gateways' work variability (iterations 10 ± spread)
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record StatefulTier(String determinism, String silence, String estimator, int checkpointEvery,
            int gateways, int workSpread) {
    }
}
