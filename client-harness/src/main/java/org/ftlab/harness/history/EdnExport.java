package org.ftlab.harness.history;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.ftlab.os.AtomicFiles;

/**
 * A history as Jepsen writes one ({@code history.edn}): one EDN map per line, keywords for the type, the operation and
 * the names in values, so Knossos ({@code knossos.history/read-history}) and Elle read it unchanged. The nemesis'
 * process is {@code :nemesis}; ftlab's own fields ({@code :key}, {@code :client}, {@code :seq}, {@code :replica},
 * {@code :fault}) ride along, as Jepsen's histories carry extra keys; a completion's value also carries its
 * invocation's arguments.
 */
public final class EdnExport {
    private EdnExport() {
    }

    /** Writes {@code history} to {@code file} in one rename. */
    public static void write(List<HistoryEvent> history, Path file) throws IOException {
        StringWriter out = new StringWriter(history.size() * 160);
        Map<Long, JsonNode> invoked = new HashMap<>();
        for (HistoryEvent e : history) {
            HistoryEvent written = e;
            if (e.isInvocation()) {
                invoked.put(e.process(), e.value());
            } else if (!e.isNemesis()) {
                written = withArguments(e, invoked.remove(e.process()));
            }
            out.write(line(written));
            out.write('\n');
        }
        AtomicFiles.write(file, out.toString());
    }

    /**
     * A completion whose value also holds its invocation's arguments (its own fields win): Knossos gives an
     * invocation its completion's value, and a model needs both.
     */
    private static HistoryEvent withArguments(HistoryEvent completion, JsonNode arguments) {
        if (arguments == null || !arguments.isObject()
                || completion.value() != null && !completion.value().isObject()) {
            return completion;
        }
        ObjectNode merged = ((ObjectNode) arguments).deepCopy();
        if (completion.value() != null) {
            merged.setAll((ObjectNode) completion.value());
        }
        return new HistoryEvent(completion.index(), completion.type(), completion.f(), merged, completion.process(),
                completion.timeNanos(), completion.key(), completion.client(), completion.seq(),
                completion.replica(), completion.fault());
    }

    /** One event as an EDN map. */
    static String line(HistoryEvent e) {
        StringBuilder b = new StringBuilder(160);
        b.append("{:index ").append(e.index());
        b.append(", :time ").append(e.timeNanos());
        b.append(", :type :").append(e.type().wireName());
        b.append(", :process ");
        if (e.isNemesis()) {
            b.append(":nemesis");
        } else {
            b.append(e.process());
        }
        b.append(", :f ").append(keyword(e.f()));
        b.append(", :value ");
        value(b, e.value());
        if (e.key() != null) {
            b.append(", :key ");
            string(b, e.key());
        }
        if (e.client() != null) {
            b.append(", :client ");
            string(b, e.client());
            b.append(", :seq ").append(e.seq());
        }
        if (e.replica() != null) {
            b.append(", :replica ");
            string(b, e.replica());
        }
        if (e.fault() != null) {
            b.append(", :fault ");
            string(b, e.fault());
        }
        return b.append('}').toString();
    }

    private static void value(StringBuilder b, JsonNode v) {
        if (v == null || v.isNull() || v.isMissingNode()) {
            b.append("nil");
        } else if (v.isObject()) {
            b.append('{');
            Iterator<Map.Entry<String, JsonNode>> fields = v.fields();
            boolean first = true;
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> f = fields.next();
                if (!first) {
                    b.append(", ");
                }
                first = false;
                b.append(keyword(f.getKey())).append(' ');
                value(b, f.getValue());
            }
            b.append('}');
        } else if (v.isArray()) {
            b.append('[');
            for (int i = 0; i < v.size(); i++) {
                if (i > 0) {
                    b.append(' ');
                }
                value(b, v.get(i));
            }
            b.append(']');
        } else if (v.isBoolean()) {
            b.append(v.booleanValue());
        } else if (v.isIntegralNumber()) {
            b.append(v.asText());
        } else if (v.isNumber()) {
            double d = v.doubleValue();
            b.append(Double.isFinite(d) ? Double.toString(d) : "nil");
        } else {
            string(b, v.asText());
        }
    }

    /** A keyword of {@code name}: underscores (and anything else a keyword cannot hold) become hyphens. */
    private static String keyword(String name) {
        StringBuilder k = new StringBuilder(name.length() + 1).append(':');
        for (char c : name.toCharArray()) {
            k.append(Character.isLetterOrDigit(c) || c == '-' || c == '?' || c == '!' || c == '*' ? c : '-');
        }
        return k.toString();
    }

    private static void string(StringBuilder b, String s) {
        b.append('"');
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> b.append(c);
            }
        }
        b.append('"');
    }
}
