package org.ftlab.harness.analysis;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.util.Locale;
import org.ftlab.auction.api.TierStatus;
import org.ftlab.harness.probe.StatefulTierRecord;
import org.ftlab.rm.api.TierRecovery;

/**
 * The stateful tier's part of a run's report (seed 003's costs of determinism and of recovery): per message the
 * pessimism delay, out-of-order arrivals and curiosity probes; the soft checkpoints' size and capture cost; the input
 * log's group commit; per failure the new primary's restore and replay.
 */
final class StatefulTierSection {
    private StatefulTierSection() {
    }

    /** The section's lines, for the text report. */
    static void print(PrintWriter out, StatefulTierRecord r) {
        TierStatus s = r.status();
        out.printf(Locale.ROOT, "stateful tier (on %s, epoch %d): %d messages; pessimism delay %.1f µs a message "
                + "(%.1f%% waited), %.2f curiosity probes a message, %.1f%% out of order%n", s.replica(), s.epoch(),
                s.messages(), perMessage(s.pessimismDelayMicros(), s), 100.0 * share(s.delayed(), s),
                perMessage(s.curiosityProbes(), s), 100.0 * share(s.outOfOrder(), s));
        out.printf(Locale.ROOT, "  checkpoints: %d, the last %.1f KiB, %.2f ms each to capture; input log: %d "
                + "commits, %.2f inputs a commit; estimator changes: %d%n", s.checkpoints(),
                s.lastCheckpointBytes() / 1024.0, s.checkpoints() == 0 ? 0 : s.checkpointCaptureMicros() / 1000.0
                        / s.checkpoints(), s.logCommits(), s.inputsPerCommit(), s.recalibrations());
        for (StatefulTierRecord.Recovery rec : r.recoveries()) {
            TierRecovery t = rec.recovery();
            if (t == null) {
                out.printf(Locale.ROOT, "  recovery after %s: not recorded%n", rec.faultId());
            } else if (t.error() != null) {
                out.printf(Locale.ROOT, "  recovery after %s on %s FAILED: %s%n", rec.faultId(), t.replica(),
                        t.error());
            } else {
                out.printf(Locale.ROOT, "  recovery after %s on %s: %.1f ms (restore %.1f ms, replay of %d inputs "
                        + "%.1f ms)%n", rec.faultId(), t.replica(), (t.recoveredEpochUs() - t.startedEpochUs())
                                / 1000.0, t.restoreMicros() / 1000.0, t.replayInputs(), t.replayMicros() / 1000.0);
            }
        }
    }

    /** The section for summary.json ({@code stateful}). */
    static ObjectNode json(StatefulTierRecord r) {
        TierStatus s = r.status();
        ObjectNode n = SummaryJson.JSON.createObjectNode();
        n.put("replica", s.replica());
        n.put("epoch", s.epoch());
        n.put("messages", s.messages());
        n.put("pessimism_delay_mean_us", perMessage(s.pessimismDelayMicros(), s));
        n.put("delayed_fraction", share(s.delayed(), s));
        n.put("curiosity_probes_per_message", perMessage(s.curiosityProbes(), s));
        n.put("out_of_order_fraction", share(s.outOfOrder(), s));
        n.put("checkpoints", s.checkpoints());
        n.put("last_checkpoint_bytes", s.lastCheckpointBytes());
        n.put("checkpoint_capture_mean_us", s.checkpoints() == 0 ? 0 : (double) s.checkpointCaptureMicros()
                / s.checkpoints());
        n.put("log_commits", s.logCommits());
        n.put("inputs_per_commit", s.inputsPerCommit());
        n.put("estimator_changes", s.recalibrations());
        ArrayNode recoveries = n.putArray("recoveries");
        for (StatefulTierRecord.Recovery rec : r.recoveries()) {
            ObjectNode x = recoveries.addObject();
            x.put("fault_id", rec.faultId());
            TierRecovery t = rec.recovery();
            if (t != null) {
                x.put("replica", t.replica());
                x.put("recovery_us", t.error() == null ? t.recoveredEpochUs() - t.startedEpochUs() : -1);
                x.put("restore_us", t.restoreMicros());
                x.put("replay_inputs", t.replayInputs());
                x.put("replay_us", t.replayMicros());
                if (t.error() != null) {
                    x.put("error", t.error());
                }
            }
        }
        return n;
    }

    private static double perMessage(long total, TierStatus s) {
        return s.messages() == 0 ? 0 : (double) total / s.messages();
    }

    private static double share(long count, TierStatus s) {
        return s.messages() == 0 ? 0 : (double) count / s.messages();
    }
}
