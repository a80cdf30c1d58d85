package org.ftlab.rm.api;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * What a fault acts on, by role (the replica that is the primary when the fault is injected, not a fixed name): one
 * {@link Node}, or for a kind that {@link FaultKind#takesTwoSides() takes two sides} a pair written
 * {@code primary|clients}.
 *
 * @param node the host or side
 * @param peer the other side of a partition, null otherwise
 */
public record FaultTarget(Node node, Node peer) {

    /** The hosts of a lab, by role. */
    public enum Node {
        /** The replica that is the primary at injection. */
        PRIMARY("primary"),
        /** The first backup (the next to be promoted) at injection. */
        BACKUP("backup"),
        /** The database server. */
        DB("db"),
        /** The clients' host. */
        CLIENTS("clients"),
        /** The Fault Detector with the Replication Manager. */
        FD("fd"),
        /** The Replication Manager that leads at injection. */
        LEADER("leader"),
        /** The Replication Managers that do not lead at injection (a lab of several managers). */
        MANAGERS("managers");

        private final String wireName;

        Node(String wireName) {
            this.wireName = wireName;
        }

        public String wireName() {
            return wireName;
        }

        /** Whether this role names a replica (resolved to one at injection). */
        public boolean isReplica() {
            return this == PRIMARY || this == BACKUP;
        }

        public static Node parse(String name) {
            for (Node n : values()) {
                if (n.wireName.equalsIgnoreCase(name.strip())) {
                    return n;
                }
            }
            throw new IllegalArgumentException("unknown target '" + name + "'; use one of "
                    + Arrays.stream(values()).map(Node::wireName).collect(Collectors.joining(", ")));
        }
    }

    public FaultTarget {
        if (node == null) {
            throw new IllegalArgumentException("a fault needs a target");
        }
        if (peer == node) {
            throw new IllegalArgumentException("a partition needs two different sides, was " + node.wireName()
                    + "|" + node.wireName());
        }
    }

    public static FaultTarget of(Node node) {
        return new FaultTarget(node, null);
    }

    public static FaultTarget between(Node a, Node b) {
        return new FaultTarget(a, b);
    }

    /** Parses {@code primary} or {@code primary|clients}. */
    @JsonCreator
    public static FaultTarget parse(String text) {
        int bar = text.indexOf('|');
        return bar < 0 ? of(Node.parse(text)) : between(Node.parse(text.substring(0, bar)),
                Node.parse(text.substring(bar + 1)));
    }

    public boolean isPair() {
        return peer != null;
    }

    /** Whether either side is {@code n}. */
    public boolean touches(Node n) {
        return node == n || peer == n;
    }

    @JsonValue
    @Override
    public String toString() {
        return peer == null ? node.wireName() : node.wireName() + "|" + peer.wireName();
    }
}
