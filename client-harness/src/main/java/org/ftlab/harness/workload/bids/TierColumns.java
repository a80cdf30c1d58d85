package org.ftlab.harness.workload.bids;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.ftlab.harness.probe.Manifest;
import org.ftlab.harness.probe.StatefulTierRecord;
import org.ftlab.harness.workload.RunColumns;
import org.ftlab.rm.api.TierRecovery;

/**
 * What the side-by-side view of runs shows of the bids workload's tiers: the tier each run ran on, and the stateful
 * tier's recovery time. Any run has both; a run of another workload ran on the stateless tier.
 */
final class TierColumns {
    static final RunColumns COLUMNS = new RunColumns(
            List.of(new RunColumns.Label("tier", "tier", TierColumns::tier)),
            List.of(new RunColumns.Figure("tier_recovery_ms", "tier recovery ms", "recovery ms",
                    "stateful tier's recovery (restore + replay), ms (median)", TierColumns::recoveryMillis)));

    private TierColumns() {
    }

    /** The run's tier as its manifest records it: stateless, stateful (determinism on or off), or "-". */
    static String tier(Path runDir) throws IOException {
        if (!Manifest.existsIn(runDir)) {
            return "-";
        }
        Manifest m = Manifest.readAny(runDir);
        BidsParameters w = m.workload().equals(BidsWorkload.NAME) ? BidsParameters.of(m.workloadParameters()) : null;
        if (w == null || !w.onStatefulTier()) {
            return "stateless";
        }
        return w.stateful() != null && "off".equals(w.stateful().determinism()) ? "stateful, determinism off"
                : "stateful";
    }

    /** The median, ms, of the stateful tier's recoveries (restore and replay) after the run's failures; null: none. */
    static Double recoveryMillis(Path runDir) throws IOException {
        StatefulTierRecord stateful = StatefulTierRecord.readFrom(runDir);
        List<Double> recoveries = new ArrayList<>();
        if (stateful != null) {
            for (StatefulTierRecord.Recovery rc : stateful.recoveries()) {
                TierRecovery r = rc.recovery();
                if (r != null && r.error() == null) {
                    recoveries.add((r.recoveredEpochUs() - r.startedEpochUs()) / 1000.0);
                }
            }
        }
        if (recoveries.isEmpty()) {
            return null;
        }
        recoveries.sort(null);
        return recoveries.get((recoveries.size() - 1) / 2);
    }
}
