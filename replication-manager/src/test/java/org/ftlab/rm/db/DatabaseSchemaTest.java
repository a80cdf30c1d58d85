package org.ftlab.rm.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class DatabaseSchemaTest {

    @Test
    void schemaIsFiveIdempotentCreateTableStatements() {
        List<String> statements = DatabaseSchema.statements();
        assertEquals(5, statements.size());
        for (String sql : statements) {
            assertTrue(sql.startsWith("CREATE TABLE IF NOT EXISTS "), sql);
            assertTrue(!sql.endsWith(";"), "the terminator is stripped: " + sql);
        }
    }

    @Test
    void requestLogIsKeyedByClientAndSequenceNumber() {
        String requestLog = DatabaseSchema.statements().stream()
                .filter(s -> s.startsWith("CREATE TABLE IF NOT EXISTS request_log")).findFirst().orElseThrow();
        assertTrue(requestLog.contains("PRIMARY KEY (client_id, seq)"), requestLog);
    }
}
