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

    /** The section of the HTML report, with its heading ({@code id="stateful"}). */
    static void html(StringBuilder h, StatefulTierRecord r) {
        TierStatus s = r.status();
        h.append("<h2 id=\"stateful\">The stateful tier (seed 003)</h2>\n<p>On ").append(HtmlPage.esc(s.replica()))
                .append(" at epoch ").append(s.epoch()).append(" when the run ended: what determinism cost each of its ")
                .append(s.messages()).append(" messages, what its soft checkpoints and input log cost, and how each "
                        + "new primary recovered (restore the newest checkpoint, replay the inputs logged after it, "
                        + "then serve).</p>\n<table><tr><th>figure</th><th>value</th></tr>\n");
        row(h, "pessimism delay, mean a message", String.format(Locale.ROOT, "%.1f µs", perMessage(
                s.pessimismDelayMicros(), s)));
        row(h, "messages that waited for silence", String.format(Locale.ROOT, "%.1f%%", 100.0 * share(s.delayed(), s)));
        row(h, "curiosity probes a message", String.format(Locale.ROOT, "%.2f", perMessage(s.curiosityProbes(), s)));
        row(h, "messages out of order", String.format(Locale.ROOT, "%.1f%%", 100.0 * share(s.outOfOrder(), s)));
        row(h, "soft checkpoints (the last one's size; capture, mean)", String.format(Locale.ROOT,
                "%d (%.1f KiB; %.2f ms)", s.checkpoints(), s.lastCheckpointBytes() / 1024.0, s.checkpoints() == 0 ? 0
                        : s.checkpointCaptureMicros() / 1000.0 / s.checkpoints()));
        row(h, "input log commits (inputs a commit)", String.format(Locale.ROOT, "%d (%.2f)", s.logCommits(),
                s.inputsPerCommit()));
        row(h, "estimator changes (determinism faults)", Integer.toString(s.recalibrations()));
        h.append("</table>\n");
        if (r.recoveries().isEmpty()) {
            return;
        }
        h.append("<table><tr><th>fault</th><th>new primary</th><th>recovery ms</th><th>restore ms</th>"
                + "<th>inputs replayed</th><th>replay ms</th></tr>\n");
        for (StatefulTierRecord.Recovery rec : r.recoveries()) {
            TierRecovery t = rec.recovery();
            h.append("<tr><td>").append(HtmlPage.esc(rec.faultId())).append("</td>");
            if (t == null || t.error() != null) {
                h.append("<td colspan=\"5\">").append(t == null ? "not recorded" : "FAILED: " + HtmlPage.esc(t.error()))
                        .append("</td></tr>\n");
                continue;
            }
            h.append(String.format(Locale.ROOT, "<td>%s</td><td>%.1f</td><td>%.1f</td><td>%d</td><td>%.1f</td></tr>%n",
                    HtmlPage.esc(t.replica()), (t.recoveredEpochUs() - t.startedEpochUs()) / 1000.0,
                    t.restoreMicros() / 1000.0, t.replayInputs(), t.replayMicros() / 1000.0));
        }
        h.append("</table>\n");
    }

    private static void row(StringBuilder h, String name, String value) {
        h.append("<tr><td>").append(HtmlPage.esc(name)).append("</td><td>").append(HtmlPage.esc(value))
                .append("</td></tr>\n");
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
