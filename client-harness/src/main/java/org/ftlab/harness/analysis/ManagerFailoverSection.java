package org.ftlab.harness.analysis;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.ftlab.harness.probe.ManagerFailoverRecord;
import org.ftlab.harness.probe.ManagerFailoverRecord.Failover;

/**
 * A lab of several managers' changes of leader in a run, from its {@code manager-failovers.json}: each one's phases —
 * the fault that failed the leader, the new leader's election (its first change of the view), its taking the lab over
 * until it acted again — and the replica failures it handled that nobody could while no manager acted; for the text
 * report, the summary and the page.
 */
final class ManagerFailoverSection {
    private ManagerFailoverSection() {
    }

    /** The phases, in order: name and its length in µs (negative: a step that did not happen). */
    static Map<String, Long> phases(Failover f) {
        Map<String, Long> p = new LinkedHashMap<>();
        p.put("injected->elected", f.injectedEpochUs() > 0 ? f.electedEpochUs() - f.injectedEpochUs() : -1);
        p.put("elected->acting", f.actingEpochUs() > 0 ? f.actingEpochUs() - f.electedEpochUs() : -1);
        p.put("injected->acting", f.injectedEpochUs() > 0 && f.actingEpochUs() > 0
                ? f.actingEpochUs() - f.injectedEpochUs() : -1);
        return p;
    }

    /** The median of a phase over the fail-overs where it happened, µs; -1 if it never did. */
    static long median(List<Failover> failovers, String phase) {
        return Phases.median(failovers, ManagerFailoverSection::phases, phase);
    }

    private static String ms(long us) {
        return Phases.ms(us);
    }

    private static String cause(Failover f) {
        return f.faultId() == null ? "no fault injected" : f.faultId() + " " + f.kind();
    }

    /** The section's lines, for the text report. */
    static void print(PrintWriter out, ManagerFailoverRecord r) {
        List<Failover> all = r.failovers();
        out.printf(Locale.ROOT, "managers %s: %d change%s of leader", String.join(", ", r.members()), all.size(),
                all.size() == 1 ? "" : "s");
        if (all.isEmpty()) {
            out.println();
            return;
        }
        out.print("; median ms:");
        for (String phase : phases(all.get(0)).keySet()) {
            out.printf(Locale.ROOT, " %s %s", phase, ms(median(all, phase)));
        }
        out.println();
        for (Failover f : all) {
            out.printf(Locale.ROOT, "  %s: %s (term %d) -> %s (term %d);", cause(f), f.from(), f.fromTerm(), f.to(),
                    f.term());
            phases(f).forEach((phase, us) -> out.printf(Locale.ROOT, " %s %s", phase, ms(us)));
            out.println(f.failuresHandled().isEmpty() ? "" : "; replica failures it handled: "
                    + String.join(", ", f.failuresHandled()));
        }
    }

    /** The section for summary.json ({@code manager_failovers}). */
    static ObjectNode json(ManagerFailoverRecord r) {
        ObjectNode d = SummaryJson.JSON.createObjectNode();
        d.put("members", String.join(",", r.members())).put("failovers", r.failovers().size());
        ObjectNode medians = d.putObject("median_ms");
        if (!r.failovers().isEmpty()) {
            for (String phase : phases(r.failovers().get(0)).keySet()) {
                long m = median(r.failovers(), phase);
                if (m >= 0) {
                    medians.put(phase, m / 1e3);
                }
            }
        }
        ArrayNode each = d.putArray("each");
        for (Failover f : r.failovers()) {
            ObjectNode o = each.addObject();
            o.put("fault", f.faultId()).put("kind", f.kind()).put("from", f.from()).put("to", f.to())
                    .put("term", f.term()).put("failures_handled", String.join(",", f.failuresHandled()));
            phases(f).forEach((phase, us) -> {
                if (us >= 0) {
                    o.put(phase + "_ms", us / 1e3);
                }
            });
        }
        return d;
    }

    /** The section of the page. */
    static void html(StringBuilder h, ManagerFailoverRecord r) {
        h.append("<h2 id=\"managers\">The managers' fail-overs</h2>\n<p>The lab is kept by ")
                .append(r.members().size()).append(" Replication Managers (")
                .append(HtmlPage.esc(String.join(", ", r.members()))).append(") replicated with Raft (jgroups-raft): "
                        + "one leads and acts. When it fails, the others elect a new leader, which takes the lab over "
                        + "(adopts its processes, finishes what its predecessor began) and acts again "
                        + "(docs/architecture.md). Each row is one change of leader; times in ms.</p>\n"
                        + "<table><tr><th>cause</th><th>from</th><th>to</th>");
        Phases.headerCells(h, r.failovers(), ManagerFailoverSection::phases);
        h.append("<th>replica failures it handled</th></tr>\n");
        for (Failover f : r.failovers()) {
            h.append("<tr><td>").append(HtmlPage.esc(cause(f))).append("</td><td>").append(HtmlPage.esc(f.from()))
                    .append(" (term ").append(f.fromTerm()).append(")</td><td>").append(HtmlPage.esc(f.to()))
                    .append(" (term ").append(f.term()).append(")</td>");
            phases(f).values().forEach(us -> h.append("<td>").append(ms(us)).append("</td>"));
            h.append("<td>").append(HtmlPage.esc(f.failuresHandled().isEmpty() ? "-"
                    : String.join(", ", f.failuresHandled()))).append("</td></tr>\n");
        }
        h.append("</table>\n");
    }
}
