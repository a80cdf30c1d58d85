package org.ftlab.rm.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The database tier as users name it. */
class DatabaseTierTest {
    @Test
    void aReplicatedModeWithoutACountRunsAWriterAndTwoReplicas() {
        assertEquals(new DatabaseTier(DatabaseTier.Mode.SEMISYNC, 3), DatabaseTier.parse("semisync"));
        assertEquals(new DatabaseTier(DatabaseTier.Mode.ASYNC, 2), DatabaseTier.parse(" Async:2 "));
        assertEquals(DatabaseTier.SINGLE, DatabaseTier.parse("single"));
        assertEquals("semisync:3", DatabaseTier.parse("semisync").wireName());
        assertEquals("single", DatabaseTier.SINGLE.wireName());
        assertTrue(DatabaseTier.parse("galera:5").replicated());
        assertFalse(DatabaseTier.SINGLE.replicated());
        assertTrue(DatabaseTier.Mode.ASYNC.binlogReplication());
        assertFalse(DatabaseTier.Mode.GALERA.binlogReplication());
    }

    @Test
    void aBadTierIsOneLineSayingWhatIsAllowed() {
        assertEquals("--database must be one of single, semisync, async, galera (optionally :N servers, e.g. "
                + "semisync:3), was 'raft'", assertThrows(IllegalArgumentException.class,
                        () -> DatabaseTier.parse("raft")).getMessage());
        assertEquals("--database semisync needs 2 to 9 servers, was 1 (e.g. semisync:3)",
                assertThrows(IllegalArgumentException.class, () -> DatabaseTier.parse("semisync:1")).getMessage());
        assertEquals("--database semisync:N needs a number of servers, was 'semisync:x'",
                assertThrows(IllegalArgumentException.class, () -> DatabaseTier.parse("semisync:x")).getMessage());
        assertEquals("--database single runs one server, was single:2; name a replicated mode (semisync:2, async:2, "
                + "galera:3)", assertThrows(IllegalArgumentException.class, () -> DatabaseTier.parse("single:2"))
                        .getMessage());
        assertEquals("--database galera needs 3 to 9 servers, was galera:2 (a crash must leave a majority, or the "
                + "cluster stops taking writes); e.g. galera:3", assertThrows(IllegalArgumentException.class,
                        () -> DatabaseTier.parse("galera:2")).getMessage());
    }

    @Test
    void aViewIsWholeOnlyWithAWriterAndEveryOtherServerAnUpToDateReplica() {
        DatabaseNode w = new DatabaseNode("db1", DatabaseNode.Role.WRITER, 1, "0-1-5");
        DatabaseNode r = new DatabaseNode("db2", DatabaseNode.Role.REPLICA, 2, "0-1-5");
        DatabaseNode rejoining = new DatabaseNode("db2", DatabaseNode.Role.REJOINING, 2, "");
        DatabaseTier tier = DatabaseTier.parse("async:2");
        assertTrue(new DatabaseView(tier, "db1", List.of(w, r), List.of()).whole());
        assertFalse(new DatabaseView(tier, "db1", List.of(w, rejoining), List.of()).whole());
        assertFalse(new DatabaseView(tier, null, List.of(r), List.of()).whole());
    }
}
