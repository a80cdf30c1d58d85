package org.ftlab.rm.db;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.ftlab.os.access.DatabaseEndpoint;

/** Applies {@code sql/schema.sql} (shipped in this jar). Every statement is idempotent, so applying twice is safe. */
public final class DatabaseSchema {
    private static final String RESOURCE = "/org/ftlab/rm/sql/schema.sql";

    private DatabaseSchema() {
    }

    public static void apply(DatabaseEndpoint endpoint) throws SQLException {
        try (Connection c = endpoint.connect(); Statement st = c.createStatement()) {
            for (String sql : statements()) {
                st.execute(sql);
            }
        }
    }

    /** The schema's statements: split at semicolons that end a line, with comment lines removed. */
    static List<String> statements() {
        String text;
        try (InputStream in = DatabaseSchema.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("schema resource " + RESOURCE + " is missing from the jar");
            }
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + RESOURCE, e);
        }
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : text.split("\n")) {
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("--")) {
                continue;
            }
            current.append(line).append('\n');
            if (trimmed.endsWith(";")) {
                String sql = current.toString().strip();
                out.add(sql.substring(0, sql.length() - 1));
                current.setLength(0);
            }
        }
        if (!current.toString().isBlank()) {
            throw new IllegalStateException("schema.sql ends with an unterminated statement");
        }
        return out;
    }
}
