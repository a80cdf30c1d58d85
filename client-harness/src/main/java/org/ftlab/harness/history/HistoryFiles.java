package org.ftlab.harness.history;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Reads a run's history back: its parts ({@code history/part-NNNNNN.jsonl}) in order, one event per line
 * ({@link HistoryEvent}). A history that is missing, malformed or out of order is refused in one line that names the
 * file and line.
 */
public final class HistoryFiles {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PREFIX = "part-";
    private static final String SUFFIX = ".jsonl";

    private HistoryFiles() {
    }

    /** The file name of part {@code n} (from 0). */
    static String partName(int n) {
        return String.format(Locale.ROOT, "%s%06d%s", PREFIX, n, SUFFIX);
    }

    /** What the parts already written end with: the next index and process, the last time, how many parts. */
    record Tail(int parts, long nextIndex, long nextProcess, long lastTimeNanos) {
    }

    static Tail tail(Path dir) throws IOException {
        List<Path> parts = parts(dir);
        if (parts.isEmpty()) {
            return new Tail(0, 0, 0, 0);
        }
        long maxProcess = -1;
        HistoryEvent last = null;
        for (HistoryEvent e : read(dir)) {
            maxProcess = Math.max(maxProcess, e.process());
            last = e;
        }
        return last == null ? new Tail(parts.size(), 0, 0, 0)
                : new Tail(parts.size(), last.index() + 1, maxProcess + 1, last.timeNanos());
    }

    /**
     * Writes {@code events} as the next part of the history in {@code dir} (a history made elsewhere: a synthetic
     * one, a converted one), in one rename.
     */
    public static void write(Path dir, List<HistoryEvent> events) throws IOException {
        Files.createDirectories(dir);
        writePart(dir.resolve(partName(parts(dir).size())), events);
    }

    /** Writes {@code events} as the part {@code file}, one JSON object a line, in one rename: the format's one writer. */
    static void writePart(Path file, List<HistoryEvent> events) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try (JsonGenerator g = JSON.createGenerator(Files.newBufferedWriter(tmp))) {
            g.setRootValueSeparator(null);
            for (HistoryEvent e : events) {
                g.writeStartObject();
                g.writeNumberField("index", e.index());
                g.writeStringField("type", e.type().wireName());
                g.writeStringField("f", e.f());
                if (e.value() != null) {
                    g.writeFieldName("value");
                    g.writeTree(e.value());
                }
                if (e.isNemesis()) {
                    g.writeStringField("process", "nemesis");
                } else {
                    g.writeNumberField("process", e.process());
                }
                g.writeNumberField("time", e.timeNanos());
                if (e.key() != null) {
                    g.writeStringField("key", e.key());
                }
                if (e.client() != null) {
                    g.writeStringField("client", e.client());
                    g.writeNumberField("seq", e.seq());
                }
                if (e.replica() != null) {
                    g.writeStringField("replica", e.replica());
                }
                if (e.fault() != null) {
                    g.writeStringField("fault", e.fault());
                }
                g.writeEndObject();
                g.writeRaw('\n');
            }
        }
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
    }

    /** Whether the run in {@code runDir} has a history. */
    public static boolean exists(Path runDir) throws IOException {
        return !parts(runDir.resolve(History.DIR)).isEmpty();
    }

    /** The history of the run in {@code runDir}; one line when it has none or it cannot be read. */
    public static List<HistoryEvent> readRun(Path runDir) throws IOException {
        Path dir = runDir.resolve(History.DIR);
        if (!Files.isDirectory(dir) || parts(dir).isEmpty()) {
            throw new IllegalArgumentException(runDir + " has no history (" + History.DIR + "/" + PREFIX
                    + "*" + SUFFIX + "): give the directory of a run made by ftlab grid since histories were recorded");
        }
        return read(dir);
    }

    /** The events of every part in {@code dir}, in order. */
    public static List<HistoryEvent> read(Path dir) throws IOException {
        List<HistoryEvent> events = new ArrayList<>();
        for (Path part : parts(dir)) {
            readPart(part, events);
        }
        for (int i = 1; i < events.size(); i++) {
            HistoryEvent a = events.get(i - 1);
            HistoryEvent b = events.get(i);
            if (b.index() <= a.index() || b.timeNanos() < a.timeNanos()) {
                throw new IllegalArgumentException("the history in " + dir + " is out of order at index "
                        + b.index() + " (after " + a.index() + "): each event's index and time must grow");
            }
        }
        return events;
    }

    private static List<Path> parts(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> {
                String n = p.getFileName().toString();
                return n.startsWith(PREFIX) && n.endsWith(SUFFIX);
            }).sorted().toList();
        }
    }

    private static void readPart(Path part, List<HistoryEvent> into) throws IOException {
        try (JsonParser p = JSON.createParser(part.toFile())) {
            JsonToken t;
            while ((t = p.nextToken()) != null) {
                int line = p.currentLocation().getLineNr();
                if (t != JsonToken.START_OBJECT) {
                    throw bad(part, line, "each line must be one JSON object");
                }
                into.add(event(p, part, line));
            }
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(part + " line " + e.getLocation().getLineNr()
                    + ": not JSON (" + e.getOriginalMessage() + "); the history is damaged or truncated");
        }
    }

    private static HistoryEvent event(JsonParser p, Path part, int line) throws IOException {
        long index = -1;
        long process = Long.MIN_VALUE;
        long time = -1;
        long seq = -1;
        String type = null;
        String f = null;
        String key = null;
        String client = null;
        String replica = null;
        String fault = null;
        JsonNode value = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken v = p.nextToken();
            switch (name) {
                case "index" -> index = p.getValueAsLong(-1);
                case "type" -> type = p.getValueAsString();
                case "f" -> f = p.getValueAsString();
                case "value" -> value = v == JsonToken.VALUE_NULL ? null : p.readValueAsTree();
                case "process" -> process = v == JsonToken.VALUE_STRING
                        ? ("nemesis".equals(p.getText()) ? HistoryEvent.NEMESIS : Long.MIN_VALUE)
                        : p.getValueAsLong(Long.MIN_VALUE);
                case "time" -> time = p.getValueAsLong(-1);
                case "key" -> key = p.getValueAsString();
                case "client" -> client = p.getValueAsString();
                case "seq" -> seq = p.getValueAsLong(-1);
                case "replica" -> replica = p.getValueAsString();
                case "fault" -> fault = p.getValueAsString();
                default -> p.skipChildren();
            }
        }
        if (index < 0 || type == null || f == null || process == Long.MIN_VALUE || time < 0) {
            throw bad(part, line, "an event needs index, type, f, process (a number or \"nemesis\") and time");
        }
        HistoryEvent.Type t;
        try {
            t = HistoryEvent.Type.parse(type);
        } catch (IllegalArgumentException e) {
            throw bad(part, line, e.getMessage());
        }
        return new HistoryEvent(index, t, f, value, process, time, key, client, seq, replica, fault);
    }

    private static IllegalArgumentException bad(Path part, int line, String what) {
        return new IllegalArgumentException(part + " line " + line + ": " + what);
    }
}
