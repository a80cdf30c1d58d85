package org.ftlab.harness.analysis;

import static org.ftlab.harness.analysis.HtmlPage.esc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The report's section on the run's history ({@code check.json}, written by {@link LinearizabilityCheck}): the
 * verdict, what was checked, and for each key that is not linearizable its anomaly — the operation no order could
 * place, the state every order reached before it, and a timeline of it and the operations around it, one row per
 * process, as Knossos draws its {@code linear.svg}.
 */
final class LinearizabilitySection {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int WIDTH = 900;
    private static final int ROW = 26;
    private static final int LEFT = 110;

    private LinearizabilitySection() {
    }

    /** The run's verdict, or null when the run has none ({@code ftlab check} or analyze not run on a history). */
    static JsonNode read(Path runDir) throws IOException {
        Path f = runDir.resolve(LinearizabilityCheck.FILE);
        return Files.isRegularFile(f) ? JSON.readTree(f.toFile()) : null;
    }

    /** The section, with its heading ({@code id="linearizable"}). */
    static void html(StringBuilder h, JsonNode check) {
        String verdict = check.path("verdict").asText();
        h.append("<h2 id=\"linearizable\">Is it linearizable?</h2>\n<p>The run's history (every invocation and "
                + "completion the clients saw, warm-up and setup included) checked against the model <b>")
                .append(esc(check.path("model").asText())).append("</b>, key by key (Wing &amp; Gong's search with "
                        + "Lowe's memoization, as Knossos and Porcupine): <b class=\"verdict-").append(esc(verdict))
                .append("\">").append(esc(verdict.toUpperCase(Locale.ROOT))).append("</b>.</p>\n<table><tr><th>figure"
                        + "</th><th>value</th></tr>\n");
        row(h, "operations checked", String.format(Locale.ROOT, "%,d on %,d keys", check.path("operations").asLong(),
                check.path("keys").asLong()));
        row(h, "keys valid / invalid / unknown", check.path("keys_valid").asLong() + " / "
                + check.path("keys_invalid").asLong() + " / " + check.path("keys_unknown").asLong());
        row(h, "operations of unknown outcome (info, or never completed)", Long.toString(
                check.path("unknown_outcome").asLong()));
        row(h, "operations that failed (took no effect), left out", Long.toString(
                check.path("failed_left_out").asLong()));
        List<String> skipped = new ArrayList<>();
        check.path("not_modelled").fields().forEachRemaining(e -> skipped.add(e.getKey() + " " + e.getValue()));
        row(h, "operations the model does not check", skipped.isEmpty() ? "none" : String.join(", ", skipped));
        row(h, "time to check", String.format(Locale.ROOT, "%.2f s", check.path("seconds").asDouble()));
        h.append("</table>\n");
        for (JsonNode k : check.path("not_valid")) {
            h.append("<h3>key ").append(esc(k.path("key").asText())).append(": ")
                    .append(esc(k.path("verdict").asText())).append("</h3>\n");
            if (k.has("why")) {
                h.append("<p>").append(esc(k.path("why").asText())).append(" (").append(k.path("operations").asLong())
                        .append(" operations). Unknown is never valid: raise <code>--memory-mib</code> or "
                                + "<code>--time-limit-s</code> of <code>ftlab check</code>.</p>\n");
                continue;
            }
            JsonNode a = k.path("anomaly");
            h.append("<p><b>").append(esc(a.path("explanation").asText())).append("</b><br>The state every order of "
                    + "the operations before it reaches: ").append(esc(a.path("state").asText())).append(".</p>\n");
            timeline(h, a);
        }
    }

    /** The anomaly's operations as bars on a time axis, one row per process; the one no order could place in red. */
    private static void timeline(StringBuilder h, JsonNode a) {
        List<JsonNode> ops = new ArrayList<>();
        a.path("placed_before").forEach(ops::add);
        a.path("concurrent").forEach(ops::add);
        ops.add(a.path("operation"));
        long t0 = Long.MAX_VALUE;
        long t1 = Long.MIN_VALUE;
        Map<Long, Integer> rows = new LinkedHashMap<>();
        for (JsonNode o : ops) {
            t0 = Math.min(t0, o.path("invoke_time_ns").asLong());
            t1 = Math.max(t1, end(o));
            rows.putIfAbsent(o.path("process").asLong(), rows.size());
        }
        double span = Math.max(1, t1 - t0);
        int height = ROW * rows.size() + 30;
        h.append("<svg class=\"history\" width=\"").append(WIDTH).append("\" height=\"").append(height)
                .append("\" viewBox=\"0 0 ").append(WIDTH).append(' ').append(height)
                .append("\" role=\"img\" aria-label=\"the anomaly's operations on a time axis\">\n");
        for (Map.Entry<Long, Integer> r : rows.entrySet()) {
            h.append("<text x=\"4\" y=\"").append(ROW * r.getValue() + 17).append("\" font-size=\"11\">process ")
                    .append(r.getKey()).append("</text>\n");
        }
        for (JsonNode o : ops) {
            boolean blocked = o == a.path("operation");
            double x0 = LEFT + (WIDTH - LEFT - 10) * (o.path("invoke_time_ns").asLong() - t0) / span;
            double x1 = LEFT + (WIDTH - LEFT - 10) * (end(o) - t0) / span;
            int y = ROW * rows.get(o.path("process").asLong()) + 4;
            h.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\" "
                    + "stroke=\"#333\"><title>%s</title></rect>%n", x0, y, Math.max(2, x1 - x0), ROW - 8,
                    blocked ? "#f4a6a6" : o.has("complete_time_ns") ? "#cfe3f7" : "#eeeeee", esc(describe(o))));
            h.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" font-size=\"10\">%s</text>%n", x0 + 3,
                    y + 12, esc(o.path("what").asText())));
        }
        h.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"10\">%.3f s</text>"
                + "<text x=\"%d\" y=\"%d\" font-size=\"10\" text-anchor=\"end\">%.3f s (since the run's start)"
                + "</text>%n</svg>%n", LEFT, height - 6, t0 / 1e9, WIDTH - 10, height - 6, t1 / 1e9));
        h.append("<p class=\"note\">Red: the operation no order could place; blue: completed operations placed "
                + "before it or in flight with it; grey: operations of unknown outcome. Hover a bar for its client, "
                + "sequence number, replica and fault.</p>\n");
    }

    private static long end(JsonNode o) {
        return o.has("complete_time_ns") ? o.path("complete_time_ns").asLong() : o.path("invoke_time_ns").asLong()
                + 1;
    }

    private static String describe(JsonNode o) {
        return o.path("client").asText() + " #" + o.path("seq").asLong() + ": " + o.path("what").asText() + " ("
                + o.path("type").asText() + (o.has("replica") ? " from " + o.path("replica").asText() : "")
                + (o.has("fault") ? ", fault " + o.path("fault").asText() : "") + ")";
    }

    private static void row(StringBuilder h, String figure, String value) {
        h.append("<tr><td>").append(esc(figure)).append("</td><td>").append(esc(value)).append("</td></tr>\n");
    }
}
