package org.ftlab.rm.api;

import java.util.List;
import java.util.Optional;

/**
 * The database tier as the manager keeps it, as {@link PrimaryBackupView} is the replicas': which server is the writer,
 * what each server is now, and every fail-over of the writer so far.
 *
 * @param tier what the lab runs
 * @param writer the writer's name, null while there is none (between a failure and a promotion)
 * @param nodes every server, in name order
 * @param failovers every fail-over of the writer, oldest first
 */
public record DatabaseView(DatabaseTier tier, String writer, List<DatabaseNode> nodes, List<DatabaseFailover> failovers) {

    public DatabaseView {
        nodes = List.copyOf(nodes);
        failovers = List.copyOf(failovers);
    }

    /** The view of a tier of one server, which the manager does not fail over. */
    public static DatabaseView single(String name, long pid) {
        return new DatabaseView(DatabaseTier.SINGLE, name, List.of(new DatabaseNode(name, DatabaseNode.Role.WRITER,
                pid, "")), List.of());
    }

    /** The server called {@code name}, if it is one of this tier's. */
    public Optional<DatabaseNode> node(String name) {
        return nodes.stream().filter(n -> n.name().equals(name)).findFirst();
    }

    /** Whether every server is a writer or an up-to-date replica: nothing failed or still rejoining. */
    public boolean whole() {
        return writer != null && nodes.stream().allMatch(n -> n.role() == DatabaseNode.Role.WRITER
                || n.role() == DatabaseNode.Role.REPLICA);
    }
}
