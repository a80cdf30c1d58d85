package org.ftlab.rm.net;

import java.util.ArrayList;
import java.util.List;

/**
 * Where a process of the lab runs and listens: on this machine's loopback ({@link #LOCAL}, the local topology), or in
 * a network namespace of the lab's virtual network with the address of its host there.
 *
 * @param namespace the network namespace, or null for the machine's own
 * @param address the address it listens on and is reached at
 */
public record Placement(String namespace, String address) {
    public static final Placement LOCAL = new Placement(null, "127.0.0.1");

    /**
     * {@code command} as it must be started to run here: in a namespace, {@code nsenter --net=/run/netns/NS --},
     * which execs the command with only its network namespace changed. Not {@code ip netns exec}: that also mounts a
     * fresh /sys for the command, hiding the cgroup hierarchies the manager's faults need.
     */
    public List<String> wrap(List<String> command) {
        if (namespace == null) {
            return command;
        }
        List<String> wrapped = new ArrayList<>(List.of("nsenter", "--net=/run/netns/" + namespace, "--"));
        wrapped.addAll(command);
        return wrapped;
    }

    public boolean isLocal() {
        return namespace == null;
    }
}
