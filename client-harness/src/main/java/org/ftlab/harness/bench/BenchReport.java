package org.ftlab.harness.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.ftlab.os.AtomicFiles;

/**
 * One bench's results in their two forms, each suite adding its own to both: the figures of {@code bench.json}, in
 * the order they are put, and the table of {@code bench.txt}, which the command prints at the end. bench.json spells
 * every figure in snake case, records' components included; maps' keys stay as they are.
 */
public final class BenchReport {
    private final ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE);
    private final ObjectNode figures = json.createObjectNode();
    private final StringBuilder table = new StringBuilder();
    private final Path dir;

    /** A report written to {@code dir}, the bench's directory. */
    public BenchReport(Path dir) {
        this.dir = dir;
    }

    /** Puts {@code value} under {@code key} of bench.json; a tree as it is. */
    public void put(String key, Object value) {
        figures.set(key, value instanceof JsonNode tree ? tree : tree(value));
    }

    /** {@code value} as bench.json spells it, for a suite that adds to it before it puts it. */
    public <T extends JsonNode> T tree(Object value) {
        return json.valueToTree(value);
    }

    /** A new, empty object under {@code key} of bench.json, for figures a suite puts one by one. */
    public ObjectNode object(String key) {
        return figures.putObject(key);
    }

    /** A new, empty array under {@code key} of bench.json. */
    public ArrayNode array(String key) {
        return figures.putArray(key);
    }

    /** A figure put before, by its path of keys from the top of bench.json; missing: a missing node. */
    public JsonNode figure(String... path) {
        JsonNode node = figures;
        for (String key : path) {
            node = node.path(key);
        }
        return node;
    }

    /** The printed table, to which a suite appends its own part. */
    public StringBuilder table() {
        return table;
    }

    /**
     * Writes bench.json with the figures so far (whole or not at all), so that a suite's figures stay measured when
     * what follows fails or is stopped.
     */
    public void keepFigures() throws IOException {
        AtomicFiles.write(benchJson(), json.writeValueAsString(figures));
    }

    /** Stamps bench.json with {@code when_finished} and writes it and bench.txt; returns bench.json's path. */
    public Path write() throws IOException {
        figures.put("when_finished", Instant.now().toString());
        keepFigures();
        Files.writeString(dir.resolve("bench.txt"), table.toString());
        return benchJson();
    }

    private Path benchJson() {
        return dir.resolve("bench.json");
    }
}
