package org.ftlab.harness.analysis;

import java.util.List;

/**
 * The one skeleton of ftlab's self-contained HTML pages (a run's report, runs side by side, the demo's index): the
 * head with the reports' style sheet, the title as the first heading, tables, and the end.
 */
public final class HtmlPage {
    private HtmlPage() {
    }

    /**
     * A page's beginning, up to its first heading, {@code title}. {@code plots}: the page's script draws plots and
     * counts them on the body ({@code data-plots-rendered} of {@code data-plots-expected}), which the headless
     * browser check reads.
     */
    public static StringBuilder start(String title, boolean plots) {
        StringBuilder h = new StringBuilder(1 << 16);
        h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
                .append("<title>").append(esc(title)).append("</title><style>").append(CSS).append("</style></head>\n")
                .append(plots ? "<body data-plots-rendered=\"0\" data-plots-expected=\"0\">\n" : "<body>\n")
                .append("<h1>").append(esc(title)).append("</h1>\n");
        return h;
    }

    /** A table of {@code rows} under {@code headers}, every cell escaped; "-" for an empty cell, "FAILED" marked. */
    public static void table(StringBuilder h, List<String> headers, List<List<String>> rows) {
        h.append("<table><tr>");
        headers.forEach(c -> h.append("<th>").append(esc(c)).append("</th>"));
        h.append("</tr>\n");
        for (List<String> r : rows) {
            h.append("<tr>");
            for (String v : r) {
                h.append(v.equals("FAILED") ? "<td class=\"bad\">" : "<td>").append(esc(v.isEmpty() ? "-" : v))
                        .append("</td>");
            }
            h.append("</tr>\n");
        }
        h.append("</table>\n");
    }

    /** The page's end; returns the whole page. */
    public static String end(StringBuilder h) {
        return h.append("</body></html>\n").toString();
    }

    /** Text as HTML. */
    public static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    private static final String CSS = """
            body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:1.5em auto;max-width:1200px;\
            padding:0 1em;color:#222}
            h1{font-size:1.5em}h2{margin-top:2em;border-bottom:1px solid #ccc}h3{margin-top:1.5em}
            table{border-collapse:collapse;font-size:.85em;margin:.5em 0}
            td,th{border:1px solid #ddd;padding:2px 6px;text-align:right;white-space:nowrap}th{background:#f4f4f4}
            td:first-child{text-align:left}.good{color:#1a7f37}.bad{color:#c62828;font-weight:bold}
            tr.total{font-weight:bold;background:#fafafa}
            .warn{background:#fff4e5;border:1px solid #f0a020;padding:.5em 1em}.errors{color:#c62828}
            .meta,.note{color:#555;font-size:.9em}
            figure{margin:.5em 0;height:380px;position:relative}
            table{display:block;overflow-x:auto;max-width:100%}
            .grid2{display:grid;grid-template-columns:1fr 1fr;gap:1em}
            footer{margin-top:3em;color:#777;font-size:.8em}
            """;
}
