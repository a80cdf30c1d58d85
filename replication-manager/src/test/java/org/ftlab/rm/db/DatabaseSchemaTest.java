package org.ftlab.rm.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class DatabaseSchemaTest {

    @Test
    void schemaIsTenIdempotentCreateTableStatementsFiveStatelessTheManagersEpochAndFourOfTheStatefulTier() {
        List<String> statements = DatabaseSchema.statements();
        assertEquals(10, statements.size());
        assertEquals(4, statements.stream().filter(s -> s.startsWith("CREATE TABLE IF NOT EXISTS tart_")).count());
        assertEquals(1, statements.stream().filter(s -> s.startsWith("CREATE TABLE IF NOT EXISTS manager_epoch"))
                .count());
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

    @Test
    void theStatefulTiersInputLogLogsARequestIdentityOnce() {
        String inputLog = DatabaseSchema.statements().stream()
                .filter(s -> s.startsWith("CREATE TABLE IF NOT EXISTS tart_input")).findFirst().orElseThrow();
        assertTrue(inputLog.contains("UNIQUE KEY uk_tart_input_request (client_id, seq)"), inputLog);
    }
}
