package org.ftlab.harness.analysis;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.util.Locale;
import org.ftlab.harness.probe.DatabaseWorkRecord;

/** The database's work per request, from a run's {@code database.json}: its part of the text report and summary. */
final class DatabaseWorkSection {
    private DatabaseWorkSection() {
    }

    /** The section's line, for the text report. */
    static void print(PrintWriter out, DatabaseWorkRecord db) {
        out.printf(Locale.ROOT, "database per request (%d requests): %.2f statements (%.2f selects, "
                + "%.2f inserts, %.2f updates, %.2f commits), %.3f row-lock waits%n", db.requests(),
                db.statementsPerRequest(), db.perRequest("Com_select"), db.perRequest("Com_insert"),
                db.perRequest("Com_update"), db.perRequest("Com_commit"), db.perRequest("Innodb_row_lock_waits"));
    }

    /** The section for summary.json ({@code database}): each recorded counter per request. */
    static ObjectNode json(DatabaseWorkRecord db) {
        ObjectNode d = SummaryJson.JSON.createObjectNode();
        d.put("requests", db.requests()).put("statements_per_request", db.statementsPerRequest());
        ObjectNode per = d.putObject("per_request");
        for (String c : DatabaseWorkRecord.COUNTERS) {
            if (db.counters().containsKey(c)) {
                per.put(c, db.perRequest(c));
            }
        }
        return d;
    }
}
