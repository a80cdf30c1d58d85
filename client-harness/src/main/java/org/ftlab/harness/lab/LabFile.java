package org.ftlab.harness.lab;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.ftlab.os.AtomicFiles;
import org.ftlab.rm.api.DatabaseTier;

/**
 * A lab's {@code lab.json}: what a grid run on a lab it did not start ({@code ftlab grid --lab DIR}) needs to know of
 * it and records in its manifest. Written atomically by {@link ManagedLab#start} before the lab is ready.
 *
 * @param replicas the replication degree
 * @param spares pre-booted spares the manager keeps
 * @param heartbeatMs the Fault Detector's heartbeat interval H; {@code heartbeatTimeoutMs} its suspicion timeout T
 * @param requestLog whether the replicas keep the request log
 * @param database {@code embedded MariaDB}, or the external database's URL without its password
 * @param topology {@code local}, or where the lab's processes run ({@code netns ...}, {@code hosts: ...})
 * @param wildflyCluster whether the replicas run WildFly's high-availability server as one cluster (false in files
 *     written before there was the choice)
 * @param databaseTier the embedded database's tier ({@code single}, {@code semisync:3}, …; null in files written
 *     before there was the choice: one server)
 * @param managers how many Replication Managers keep it (0 in files written before there was the choice: one)
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record LabFile(int replicas, int spares, long heartbeatMs, long heartbeatTimeoutMs, boolean requestLog,
        String database, String topology, boolean wildflyCluster, String databaseTier, int managers) {
    public static final String FILE = "lab.json";
    /** {@link #database()} of a lab on the embedded database. */
    public static final String EMBEDDED_DATABASE = "embedded MariaDB";
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    /** The description of the lab {@code o} starts. */
    static LabFile of(ManagedLab.Options o) {
        return new LabFile(o.replicas(), o.spares(), o.heartbeatMillis(), o.timeoutMillis(), o.requestLog(),
                o.externalDatabase() == null ? describe(o.databaseTier()) : o.externalDatabase().redactedUrl(),
                o.hostsFile() != null ? "hosts" : o.network() != null ? "netns" : "local", o.wildflyCluster(),
                o.databaseTier().wireName(), o.managers());
    }

    /** How many managers keep the lab. */
    public int managerCount() {
        return Math.max(1, managers);
    }

    /** How a run's manifest names an embedded database tier: {@code embedded MariaDB}, with its mode if replicated. */
    public static String describe(DatabaseTier tier) {
        return tier.replicated() ? EMBEDDED_DATABASE + " " + tier.wireName() : EMBEDDED_DATABASE;
    }

    /** Whether the lab runs the embedded database (which the database faults need). */
    public boolean embeddedDatabase() {
        return database != null && database.startsWith(EMBEDDED_DATABASE);
    }

    /** The lab's database tier. */
    public DatabaseTier tier() {
        return databaseTier == null ? DatabaseTier.SINGLE : DatabaseTier.parse(databaseTier);
    }

    void write(Path labDir) throws IOException {
        AtomicFiles.write(labDir.resolve(FILE), JSON.writeValueAsString(this));
    }

    /** The lab's description; empty if {@code labDir} holds none. */
    public static Optional<LabFile> read(Path labDir) throws IOException {
        Path file = labDir.resolve(FILE);
        return Files.isRegularFile(file) ? Optional.of(JSON.readValue(file.toFile(), LabFile.class))
                : Optional.empty();
    }
}
