package org.ftlab.rm.api;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * One database server as the manager sees it.
 *
 * @param name {@code db1}, {@code db2}, … (the writer at the start is {@code db1})
 * @param role what it is now
 * @param pid its {@code mariadbd} process, 0 if none runs
 * @param position its replication position as the engine states it (a GTID list, or Galera's last committed seqno),
 *     as last read; empty if never read
 */
public record DatabaseNode(String name, Role role, long pid, String position) {

    /** What a server is to the tier. */
    public enum Role {
        /** Takes every write: the replicas' datasource reaches it. */
        WRITER,
        /** Has every commit the writer acknowledged (semi-sync, Galera) or some of them (async); takes no write. */
        REPLICA,
        /** Failed and fenced; the manager rebuilds it. */
        FAILED,
        /** Being rebuilt (re-seeded or rejoining) as a replica. */
        REJOINING;

        @JsonValue
        public String wireName() {
            return WireNames.of(this);
        }

        @JsonCreator
        public static Role parse(String s) {
            return WireNames.parse(Role.class, s);
        }
    }
}
