package org.ftlab.rm.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.ftlab.rm.api.DatabaseTier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The servers' settings: what the field recommends for each mode. */
class ReplicatedDatabaseTest {
    private static final DatabaseTier SEMISYNC = DatabaseTier.parse("semisync");
    private static final DatabaseTier ASYNC = DatabaseTier.parse("async");

    @Test
    void theJanitorsScriptEndsEveryProcessNamingTheTiersDirectoryAndDeletesItsServersFilesOnly(@TempDir Path lab)
            throws Exception {
        Path dir = lab.resolve("db");
        for (String d : List.of("db1/data", "db2/data", "galera-bin")) {
            Files.createDirectories(dir.resolve(d));
        }
        Files.writeString(dir.resolve("db.properties"), "kept");
        // as a joiner's rsync daemon: its configuration in a server's data directory, named on its command line
        Process daemon = new ProcessBuilder("sh", "-c", "sleep 60", "rsync", "--config",
                dir.resolve("db2/data/rsync_sst.conf").toString()).start();
        Process other = new ProcessBuilder("sh", "-c", "sleep 60", "other", lab.resolve("elsewhere").toString())
                .start();
        try {
            Process janitor = new ProcessBuilder("sh", "-c", ReplicatedDatabase.leftoversScript(dir, 2)).start();
            assertTrue(janitor.waitFor(30, TimeUnit.SECONDS));
            assertTrue(daemon.waitFor(5, TimeUnit.SECONDS), "the process naming the tier's directory was ended");
            assertTrue(other.isAlive(), "a process naming another directory was not");
            try (Stream<Path> left = Files.list(dir)) {
                assertEquals(List.of("db.properties"), left.map(p -> p.getFileName().toString()).toList());
            }
        } finally {
            daemon.destroyForcibly();
            other.destroyForcibly();
        }
    }

    @Test
    void everyServerLogsWithGtidsDurablyAndLogsWhatItReplicatesSoAnyCanBecomeTheWriter() {
        for (DatabaseTier tier : List.of(SEMISYNC, ASYNC)) {
            List<String> args = ReplicatedDatabase.serverArgs(tier, new ReplicatedDatabase.Server("db2", 2), true);
            assertTrue(args.containsAll(List.of("--server-id=2", "--log-bin=db2-bin", "--log-slave-updates=ON",
                    "--binlog-format=ROW", "--gtid-strict-mode=ON", "--sync-binlog=1",
                    "--innodb-flush-log-at-trx-commit=1", "--skip-slave-start", "--read-only=ON")), args.toString());
        }
        assertTrue(ReplicatedDatabase.serverArgs(ASYNC, new ReplicatedDatabase.Server("db1", 1), false)
                .contains("--read-only=OFF"));
    }

    @Test
    void semiSyncWaitsAfterSyncAndOnlyTheWriterWaits() {
        List<String> replica = ReplicatedDatabase.serverArgs(SEMISYNC, new ReplicatedDatabase.Server("db2", 2), true);
        assertTrue(replica.containsAll(List.of("--rpl-semi-sync-slave-enabled=ON",
                "--rpl-semi-sync-master-wait-point=AFTER_SYNC", "--rpl-semi-sync-master-enabled=OFF")), replica.toString());
        assertFalse(ReplicatedDatabase.serverArgs(ASYNC, new ReplicatedDatabase.Server("db2", 2), true).stream()
                .anyMatch(a -> a.contains("semi-sync")), "async is the same without semi-sync");
    }

    @Test
    void aRebuiltServerHasAnIdOfItsOwnForAReplicaSkipsEventsCarryingItsOwnId() {
        ReplicatedDatabase.Server s = new ReplicatedDatabase.Server("db1", 1);
        s.generation = 2;
        assertTrue(ReplicatedDatabase.serverArgs(ASYNC, s, true).contains("--server-id=21"));
    }
}
