package org.ftlab.harness.history;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Hand-written histories for tests, in the order the calls are made: each event gets the next index and time. Values
 * are JSON text ({@code "{\"amount_cents\": 1100}"}); a process's completion repeats its invocation's operation and
 * key unless told otherwise.
 */
public final class HistoryBuilder {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final List<HistoryEvent> events = new ArrayList<>();
    private final Map<Long, HistoryEvent> open = new HashMap<>();

    public HistoryBuilder invoke(long process, String f, String key, String value) {
        HistoryEvent e = event(HistoryEvent.Type.INVOKE, f, value, process, key);
        open.put(process, e);
        events.add(e);
        return this;
    }

    public HistoryBuilder ok(long process, String value) {
        return complete(HistoryEvent.Type.OK, process, value, null);
    }

    /** An {@code ok} whose reply names the key (a post). */
    public HistoryBuilder okWithKey(long process, String key, String value) {
        return complete(HistoryEvent.Type.OK, process, value, key);
    }

    public HistoryBuilder fail(long process) {
        return complete(HistoryEvent.Type.FAIL, process, "{\"error\": \"UnknownAuctionException\"}", null);
    }

    public HistoryBuilder info(long process) {
        return complete(HistoryEvent.Type.INFO, process, "{\"error\": \"AllReplicasDownException\"}", null);
    }

    private HistoryBuilder complete(HistoryEvent.Type type, long process, String value, String key) {
        HistoryEvent i = open.remove(process);
        if (i == null) {
            throw new IllegalStateException("process " + process + " has nothing in flight");
        }
        events.add(event(type, i.f(), value, process, key != null ? key : i.key()));
        return this;
    }

    private HistoryEvent event(HistoryEvent.Type type, String f, String value, long process, String key) {
        long index = events.size();
        return new HistoryEvent(index, type, f, parse(value), process, 1_000 * index, key, "c" + process, index,
                type == HistoryEvent.Type.OK ? "r1" : null, null);
    }

    private static JsonNode parse(String value) {
        try {
            return value == null ? null : JSON.readTree(value);
        } catch (Exception e) {
            throw new IllegalArgumentException(value, e);
        }
    }

    public List<HistoryEvent> build() {
        return List.copyOf(events);
    }
}
