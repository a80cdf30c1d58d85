package org.ftlab.harness.analysis;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToLongFunction;
import java.util.stream.Collectors;
import org.ftlab.harness.probe.DatabaseFailoverRecord.Failover;
import org.ftlab.harness.probe.DatabaseFailoverRecord;
import org.ftlab.rm.api.DatabaseFailover;

/**
 * A replicated database's fail-overs in a run, from its {@code database-failovers.json}: each one's phases — the
 * injection to its detection, the fence, the promotion, the new writer's first commit, the failed server's return as
 * a replica — and the transactions the new writer never received, for the text report, the summary and the page.
 */
final class DatabaseFailoverSection {
    private DatabaseFailoverSection() {
    }

    /** The phases, in order: name and its length in µs (negative: a step that did not happen). */
    static Map<String, Long> phases(Failover f) {
        DatabaseFailover d = f.failover();
        Map<String, Long> p = new LinkedHashMap<>();
        p.put("injected->detected", f.injectedEpochUs() > 0 ? d.detectedEpochUs() - f.injectedEpochUs() : -1);
        p.put("detected->fenced", span(d.detectedEpochUs(), d.fencedEpochUs()));
        p.put("fenced->promoted", span(d.fencedEpochUs(), d.promotedEpochUs()));
        p.put("promoted->first-commit", span(d.promotedEpochUs(), d.firstCommitEpochUs()));
        p.put("detected->first-commit", span(d.detectedEpochUs(), d.firstCommitEpochUs()));
        p.put("detected->rejoined", span(d.detectedEpochUs(), d.rejoinedEpochUs()));
        return p;
    }

    private static long span(long from, long to) {
        return from > 0 && to > 0 ? to - from : -1;
    }

    /** The median of a phase over the fail-overs where it happened, µs; -1 if it never did. */
    static long median(List<Failover> failovers, String phase) {
        return Phases.median(failovers, DatabaseFailoverSection::phases, phase);
    }

    private static long total(List<Failover> failovers, ToLongFunction<DatabaseFailover> f) {
        return failovers.stream().mapToLong(x -> f.applyAsLong(x.failover())).sum();
    }

    private static String ms(long us) {
        return Phases.ms(us);
    }

    /** The section's lines, for the text report. */
    static void print(PrintWriter out, DatabaseFailoverRecord r) {
        List<Failover> all = r.failovers();
        out.printf(Locale.ROOT, "database %s: %d fail-over%s of the writer", r.tier().wireName(), all.size(),
                all.size() == 1 ? "" : "s");
        if (all.isEmpty()) {
            out.println();
            return;
        }
        out.print("; median ms:");
        for (String phase : phases(all.get(0)).keySet()) {
            out.printf(Locale.ROOT, " %s %s", phase, ms(median(all, phase)));
        }
        out.printf(Locale.ROOT, "; transactions the new writer never received: %d%n",
                total(all, DatabaseFailover::transactionsBehind));
        out.println("  " + lossVerdict(r));
    }

    /**
     * What the run says of lost writes: for async, the lag at each crash (the writer's transactions its successor had
     * not received), and that a run without lag lost nothing by luck; for the modes that wait, what they wait for.
     */
    static String lossVerdict(DatabaseFailoverRecord r) {
        String lags = r.failovers().stream().map(f -> Long.toString(f.failover().transactionsBehind()))
                .collect(Collectors.joining(", "));
        long behind = total(r.failovers(), DatabaseFailover::transactionsBehind);
        return switch (r.tier().mode()) {
            case ASYNC -> behind == 0
                    ? "async lost no write in this run by luck, not by design: at each crash the promoted replica had "
                            + "received all the writer had logged (lag " + lags + " transactions)"
                    : "async: " + behind + " transactions the writer had logged never reached its successor (lag "
                            + lags + "); the audit and the history checker say which of them had been acknowledged";
            case SEMISYNC -> behind == 0
                    ? "semisync acknowledges a commit once a replica has it: at each crash the promoted replica had "
                            + "received all the writer had logged (lag " + lags + " transactions)"
                    : "semisync acknowledges a commit once a replica has it: "
                            + (behind == 1 ? "the transaction its successor never received (lag " + lags + ") was"
                                    : "the " + behind + " transactions its successors never received (lag " + lags
                                            + ") were")
                            + " logged by the crashed writer but never acknowledged";
            case GALERA -> "galera acknowledges a commit once the cluster has ordered it: the new writer applies all "
                    + "the cluster ordered before it takes writes";
            case SINGLE -> "";
        };
    }

    /** The section for summary.json ({@code database_failovers}). */
    static ObjectNode json(DatabaseFailoverRecord r) {
        ObjectNode d = SummaryJson.JSON.createObjectNode();
        d.put("tier", r.tier().wireName()).put("failovers", r.failovers().size())
                .put("transactions_behind", total(r.failovers(), DatabaseFailover::transactionsBehind));
        ObjectNode medians = d.putObject("median_ms");
        ArrayNode each = d.putArray("each");
        if (!r.failovers().isEmpty()) {
            for (String phase : phases(r.failovers().get(0)).keySet()) {
                long m = median(r.failovers(), phase);
                if (m >= 0) {
                    medians.put(phase, m / 1e3);
                }
            }
        }
        for (Failover f : r.failovers()) {
            ObjectNode o = each.addObject();
            o.put("fault", f.faultId()).put("failed", f.failover().failed()).put("verdict", f.failover().verdict())
                    .put("promoted", f.failover().promoted())
                    .put("transactions_behind", f.failover().transactionsBehind());
            phases(f).forEach((phase, us) -> {
                if (us >= 0) {
                    o.put(phase + "_ms", us / 1e3);
                }
            });
        }
        return d;
    }

    /** The section of the page. */
    static void html(StringBuilder h, DatabaseFailoverRecord r) {
        h.append("<h2 id=\"database\">The database's fail-overs (").append(HtmlPage.esc(r.tier().wireName()))
                .append(")</h2>\n<p>The manager's database keeper watches every server (a query heartbeat that reads "
                        + "its replication position), fences a failed writer, promotes the replica that received the "
                        + "most, moves the service's connections to it and rebuilds the failed server as a replica "
                        + "(docs/architecture.md). Each row is one fail-over of the writer; times in ms.</p>\n"
                        + "<table><tr><th>fault</th><th>failed</th><th>verdict</th><th>promoted</th>");
        Phases.headerCells(h, r.failovers(), DatabaseFailoverSection::phases);
        h.append("<th>transactions never received</th></tr>\n");
        for (Failover f : r.failovers()) {
            DatabaseFailover d = f.failover();
            h.append("<tr><td>").append(HtmlPage.esc(f.faultId() == null ? "-" : f.faultId())).append("</td><td>")
                    .append(HtmlPage.esc(d.failed())).append("</td><td>").append(HtmlPage.esc(d.verdict()))
                    .append("</td><td>").append(HtmlPage.esc(d.promoted() == null ? "none" : d.promoted()))
                    .append("</td>");
            phases(f).values().forEach(us -> h.append("<td>").append(ms(us)).append("</td>"));
            h.append("<td>").append(d.transactionsBehind()).append("</td></tr>\n");
        }
        if (!r.failovers().isEmpty()) {
            h.append("<tr><th colspan=\"4\">median</th>");
            for (String n : phases(r.failovers().get(0)).keySet()) {
                h.append("<th>").append(ms(median(r.failovers(), n))).append("</th>");
            }
            h.append("<th>").append(total(r.failovers(), DatabaseFailover::transactionsBehind)).append("</th></tr>\n");
        }
        h.append("</table>\n<p>").append(HtmlPage.esc(lossVerdict(r))).append("</p>\n");
    }
}
