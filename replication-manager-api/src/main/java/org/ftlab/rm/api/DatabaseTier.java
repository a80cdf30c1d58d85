package org.ftlab.rm.api;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The database tier a lab runs: one server (the default), or {@code nodes} MariaDB servers replicated by one of
 * MariaDB's own engines, written as users give it: {@code single}, {@code semisync:3}, {@code async:3},
 * {@code galera:3} (docs/running.md, "The database tier").
 *
 * @param mode how the servers replicate
 * @param nodes how many servers; 1 for {@link Mode#SINGLE}, at least 2 otherwise
 */
public record DatabaseTier(Mode mode, int nodes) {

    /** The default: one server, no replication. */
    public static final DatabaseTier SINGLE = new DatabaseTier(Mode.SINGLE, 1);

    /** Servers a replicated mode runs when the user names none: a writer and two replicas. */
    public static final int DEFAULT_NODES = 3;

    /** How the servers replicate. */
    public enum Mode {
        /** One server: the database is a single point of failure. */
        SINGLE,
        /**
         * Semi-synchronous replication with GTIDs, {@code rpl_semi_sync_master_wait_point=AFTER_SYNC}: the writer
         * answers a commit once a replica has the transaction in its relay log.
         */
        SEMISYNC,
        /** The same replication without semi-sync: the writer answers at once. The negative control. */
        ASYNC,
        /** Galera Cluster (wsrep, Debian's {@code galera-4}): certification-based, every node has every commit. */
        GALERA;

        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** Whether the mode's servers are a writer and replicas fed from its binary log. */
        public boolean binlogReplication() {
            return this == SEMISYNC || this == ASYNC;
        }
    }

    public DatabaseTier {
        if (mode == null) {
            throw new IllegalArgumentException("a database tier needs a mode");
        }
        if (mode == Mode.SINGLE && nodes != 1) {
            throw new IllegalArgumentException("--database single runs one server, was single:" + nodes
                    + "; name a replicated mode (semisync:" + nodes + ", async:" + nodes + ", galera:"
                    + Math.max(3, nodes) + ")");
        }
        if (mode == Mode.GALERA && nodes == 2) {
            throw new IllegalArgumentException("--database galera needs 3 to 9 servers, was galera:2 (a crash must "
                    + "leave a majority, or the cluster stops taking writes); e.g. galera:3");
        }
        if (mode != Mode.SINGLE && (nodes < 2 || nodes > 9)) {
            throw new IllegalArgumentException("--database " + mode.wireName() + " needs 2 to 9 servers, was "
                    + nodes + " (e.g. " + mode.wireName() + ":3)");
        }
    }

    /** Whether more than one server keeps the data. */
    public boolean replicated() {
        return mode != Mode.SINGLE;
    }

    /** As users write it: {@code single}, {@code semisync:3}. */
    @JsonValue
    public String wireName() {
        return mode == Mode.SINGLE ? mode.wireName() : mode.wireName() + ":" + nodes;
    }

    /**
     * Parses {@code MODE[:N]}; a replicated mode without {@code N} runs {@value #DEFAULT_NODES} servers.
     *
     * @throws IllegalArgumentException one line saying what is wrong and what is allowed
     */
    @JsonCreator
    public static DatabaseTier parse(String text) {
        String t = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
        int colon = t.indexOf(':');
        String name = colon < 0 ? t : t.substring(0, colon);
        Mode mode = Arrays.stream(Mode.values()).filter(m -> m.wireName().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("--database must be one of " + Arrays.stream(
                        Mode.values()).map(Mode::wireName).collect(Collectors.joining(", "))
                        + " (optionally :N servers, e.g. semisync:3), was '" + text + "'"));
        if (colon < 0) {
            return new DatabaseTier(mode, mode == Mode.SINGLE ? 1 : DEFAULT_NODES);
        }
        int nodes;
        try {
            nodes = Integer.parseInt(t.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--database " + name + ":N needs a number of servers, was '" + text
                    + "'");
        }
        return new DatabaseTier(mode, nodes);
    }
}
