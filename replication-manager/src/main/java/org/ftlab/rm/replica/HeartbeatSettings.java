package org.ftlab.rm.replica;

import java.util.List;
import java.util.stream.Collectors;

/**
 * How replicas join the Fault Detectors' heartbeat group: the detectors' address, each one's TCP port (the first
 * detector's first; a lab of several managers runs one detector per manager), the heartbeat interval H and the
 * suspicion timeout T, in milliseconds.
 */
public record HeartbeatSettings(String detectorAddress, List<Integer> detectorPorts, long heartbeatMillis,
        long timeoutMillis) {
    /** One detector on 127.0.0.1. */
    public HeartbeatSettings(int detectorPort, long heartbeatMillis, long timeoutMillis) {
        this("127.0.0.1", List.of(detectorPort), heartbeatMillis, timeoutMillis);
    }

    public HeartbeatSettings {
        detectorPorts = List.copyOf(detectorPorts);
        if (detectorPorts.isEmpty()) {
            throw new IllegalArgumentException("a heartbeat group needs a detector's port");
        }
        if (heartbeatMillis <= 0 || timeoutMillis < 2 * heartbeatMillis) {
            throw new IllegalArgumentException("heartbeat timeout T must be at least twice the interval H (H="
                    + heartbeatMillis + " ms, T=" + timeoutMillis + " ms)");
        }
    }

    /** The group's initial hosts, as JGroups' TCPPING takes them: {@code address[port]} per detector. */
    public String initialHosts() {
        return detectorPorts.stream().map(p -> detectorAddress + "[" + p + "]").collect(Collectors.joining(","));
    }
}
