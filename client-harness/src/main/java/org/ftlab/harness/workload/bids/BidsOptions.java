package org.ftlab.harness.workload.bids;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Arrays;
import org.ftlab.auction.api.StatefulTierSettings;
import org.ftlab.harness.workload.GridLine;
import org.ftlab.harness.workload.WorkloadOptions;
import org.ftlab.harness.workload.Workloads;
import picocli.CommandLine.Option;

/**
 * The bids workload's options of {@code ftlab grid}: {@code --bids N} chooses it ({@code --workload bids --posts N
 * --views 0}, original replies unless {@code --reply} says otherwise), {@code --hot-auctions} sets its race, and
 * {@code --tier} with the stateful tier's settings says where its state lives. They record {@link BidsParameters}.
 */
final class BidsOptions implements WorkloadOptions {
    @Option(names = "--bids", paramLabel = "N",
            description = "Runs the bids workload, a race of every client on a few shared hot auctions, with N bids "
                    + "per client and configuration: --workload bids --posts N --views 0.")
    Integer bids;

    @Option(names = "--hot-auctions", paramLabel = "K",
            description = "The bids workload's hot auctions, which every client bids on (default: 4).")
    Integer hotAuctions;

    @Option(names = "--tier", paramLabel = "TIER",
            description = "Where the bids workload's state lives: stateless (default: transactions on the database) "
                    + "or stateful (seed 003: deterministic components on the primary, recovered from checkpoints and "
                    + "the input log on a new primary).")
    String tier;

    @Option(names = "--determinism", paramLabel = "on|off",
            description = "The stateful tier's scheduling: on (virtual-time order, default) or off (arrival order: "
                    + "the negative control, which the replay oracle must catch).")
    String determinism;

    @Option(names = "--silence", paramLabel = "MODE",
            description = "How the stateful tier's engine learns its gateways are silent: curiosity (default) or "
                    + "lazy.")
    String silence;

    @Option(names = "--estimator", paramLabel = "KIND",
            description = "The stateful tier's gateways' estimators: regression (default) or constant.")
    String estimator;

    @Option(names = "--checkpoint-every", paramLabel = "N",
            description = "Messages between two soft checkpoints of the stateful tier (default: 500).")
    Integer checkpointEvery;

    @Option(names = "--work-spread", paramLabel = "S",
            description = "The stateful tier's gateway work variability: 10 ± S loop iterations per input, S 0 to 9 "
                    + "(default: 9, the paper's widest).")
    Integer workSpread;

    @Override
    public boolean given() {
        return bids != null || hotAuctions != null || tier != null || tierSettingsGiven();
    }

    private boolean tierSettingsGiven() {
        return determinism != null || silence != null || estimator != null || checkpointEvery != null
                || workSpread != null;
    }

    /** {@code --bids N}: the line runs this workload, {@code N} bids per client, original replies by default. */
    @Override
    public GridLine applyTo(GridLine line) {
        if (bids == null) {
            return line;
        }
        if (!line.workload().equals(Workloads.DEFAULT) && !line.workload().equals(BidsWorkload.NAME)) {
            throw new IllegalArgumentException("--bids runs the bids workload; --workload " + line.workload()
                    + " is another: give one of them");
        }
        if (line.posts() != null || line.views() != null) {
            throw new IllegalArgumentException("--bids N gives the bids per client: leave out --posts and --views");
        }
        if (bids < 1) {
            throw new IllegalArgumentException("--bids must be at least 1, was " + bids);
        }
        // it reads its replies: original ones, unless --reply says otherwise (which the workload refuses)
        return line.withWorkload(BidsWorkload.NAME).withCounts(bids, 0)
                .withReply(line.reply() == null ? "orig" : line.reply());
    }

    /** Hot auctions, and the tier with its settings; the stateful tier checked against the line's infrastructure. */
    @Override
    public ObjectNode parameters(GridLine line) {
        boolean stateful = "stateful".equals(tier);
        if (tier != null && !stateful && !tier.equals("stateless")) {
            throw new IllegalArgumentException("--tier must be stateless or stateful, was '" + tier + "'");
        }
        if (!stateful && tierSettingsGiven()) {
            throw new IllegalArgumentException("--determinism, --silence, --estimator, --checkpoint-every and "
                    + "--work-spread set the stateful tier: add --tier stateful");
        }
        if (stateful) {
            String strategy = line.strategy();
            if (strategy != null && Arrays.stream(strategy.split(",")).map(String::strip)
                    .anyMatch(s -> !s.equals("preconnected") && !s.equals("reactive"))) {
                throw new IllegalArgumentException("--tier stateful is passive replication (only the primary "
                        + "executes): run it with --strategy preconnected or reactive, not " + strategy);
            }
            if (line.platform() != null && !line.platform().strip().equals("ejb")) {
                throw new IllegalArgumentException("--tier stateful runs over --platform ejb only");
            }
            StatefulTierSettings d = StatefulTierSettings.DEFAULTS;
            BidsParameters.StatefulTier s = new BidsParameters.StatefulTier(determinism == null ? "on" : determinism,
                    silence == null ? d.silence() : silence,
                    estimator == null ? d.estimator() : estimator,
                    checkpointEvery == null ? d.checkpointEvery() : checkpointEvery, d.gateways(),
                    workSpread == null ? d.workSpread() : workSpread);
            return new BidsParameters(hotAuctions, "stateful", s).json();
        }
        return hotAuctions == null && tier == null ? null : new BidsParameters(hotAuctions, tier, null).json();
    }

    @Override
    public void refuseFor(String workload) {
        if (hotAuctions != null) {
            throw new IllegalArgumentException("--hot-auctions is the bids workload's; workload " + workload
                    + " has no hot auctions");
        }
        if ("stateful".equals(tier)) {
            throw new IllegalArgumentException("--tier stateful runs the bids workload (add --bids N); workload "
                    + workload + " runs on the stateless tier only");
        }
    }
}
