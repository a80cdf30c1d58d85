package org.ftlab.rm.replica;

/**
 * How replicas join the Fault Detector's heartbeat group: the detector's address and TCP port, the heartbeat
 * interval H and the suspicion timeout T, in milliseconds.
 */
public record HeartbeatSettings(String detectorAddress, int detectorPort, long heartbeatMillis, long timeoutMillis) {
    /** A detector on 127.0.0.1. */
    public HeartbeatSettings(int detectorPort, long heartbeatMillis, long timeoutMillis) {
        this("127.0.0.1", detectorPort, heartbeatMillis, timeoutMillis);
    }

    public HeartbeatSettings {
        if (heartbeatMillis <= 0 || timeoutMillis < 2 * heartbeatMillis) {
            throw new IllegalArgumentException("heartbeat timeout T must be at least twice the interval H (H="
                    + heartbeatMillis + " ms, T=" + timeoutMillis + " ms)");
        }
    }
}
