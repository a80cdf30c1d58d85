package org.ftlab.rm.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which sessions wait for a row lock, read from InnoDB's status text. */
class LockWaitRecorderTest {
    @Test
    void everyTransactionInLockWaitIsNamedByItsSessionsThreadIdWithHowLongItWaited() throws Exception {
        String status;
        try (InputStream in = getClass().getResourceAsStream("innodb-status-mariadb.txt")) {
            status = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        Map<Long, LockWaitRecorder.Waiting> waiting = LockWaitRecorder.waiting(status);
        // MariaDB 11.4: an INSERT … SELECT and two posts wait for a session holding the accounts (thread 44, which
        // holds locks but waits for none)
        assertEquals(Map.of(45L, new LockWaitRecorder.Waiting(45, "(0x7f74d8b5d880)", 418_743),
                13L, new LockWaitRecorder.Waiting(13, "8763", 553_481),
                18L, new LockWaitRecorder.Waiting(18, "8764", 552_902)), waiting);
    }

    @Test
    void mysqlsStatusGivesTheWaitInSecondsAndATextWithoutWaitsGivesNone() {
        String mysql = """
                ------------
                TRANSACTIONS
                ------------
                ---TRANSACTION 2077, ACTIVE 7 sec inserting
                mysql tables in use 1, locked 1
                LOCK WAIT 2 lock struct(s), heap size 1128, 1 row lock(s)
                MySQL thread id 12, OS thread handle 1401, query id 88 localhost 127.0.0.1 ftlab update
                insert into bid values (1)
                ------- TRX HAS BEEN WAITING 7 SEC FOR THIS LOCK TO BE GRANTED:
                ---TRANSACTION 2076, ACTIVE 9 sec
                2 lock struct(s), heap size 1128, 1 row lock(s)
                MySQL thread id 11, OS thread handle 1402, query id 80 localhost 127.0.0.1 ftlab
                """;
        assertEquals(Map.of(12L, new LockWaitRecorder.Waiting(12, "2077", 7_000_000)),
                LockWaitRecorder.waiting(mysql));
        assertEquals(Map.of(), LockWaitRecorder.waiting("TRANSACTIONS\n---TRANSACTION 5, not started\n"));
    }

    @Test
    void theProcessListGivesEachSessionWaitingForAMetadataLockAndWhetherAnotherRunsAStatement() {
        List<LockWaitRecorder.Session> list = List.of(
                new LockWaitRecorder.Session(3, "Daemon", "InnoDB purge coordinator", null),
                new LockWaitRecorder.Session(9, "Query", "Waiting for backup lock", "COMMIT"),
                new LockWaitRecorder.Session(11, "Sleep", "", null),
                new LockWaitRecorder.Session(12, "Query", "Waiting for table metadata lock", "x".repeat(200)),
                new LockWaitRecorder.Session(20, "Query", "starting", "SHOW PROCESSLIST"));
        LockWaitRecorder.Sessions seen = LockWaitRecorder.sessions(list, 20);
        assertEquals(Map.of(9L, new LockWaitRecorder.MetadataWaiting(9, "Waiting for backup lock", "COMMIT"),
                12L, new LockWaitRecorder.MetadataWaiting(12, "Waiting for table metadata lock", "x".repeat(80))),
                seen.metadataWaits(), "the statement cut to 80 characters");
        assertFalse(seen.statementRunning(), "the sampler's own statement and the waiting ones aside, none runs");

        List<LockWaitRecorder.Session> busy = List.of(new LockWaitRecorder.Session(14, "Query", "Updating",
                "update auction set …"), new LockWaitRecorder.Session(20, "Query", "starting", "SHOW PROCESSLIST"));
        assertTrue(LockWaitRecorder.sessions(busy, 20).statementRunning(), "a row-lock wait may be among them");
        assertEquals(Map.of(), LockWaitRecorder.sessions(busy, 20).metadataWaits());
    }
}
