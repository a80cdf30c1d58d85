package org.ftlab.rm.replica;

/**
 * How replicas join the Fault Detector's heartbeat group: the detector's TCP port on 127.0.0.1, the heartbeat
 * interval H and the suspicion timeout T, in milliseconds.
 */
public record HeartbeatSettings(int detectorPort, long heartbeatMillis, long timeoutMillis) {
    public HeartbeatSettings {
        if (heartbeatMillis <= 0 || timeoutMillis < 2 * heartbeatMillis) {
            throw new IllegalArgumentException("heartbeat timeout T must be at least twice the interval H (H="
                    + heartbeatMillis + " ms, T=" + timeoutMillis + " ms)");
        }
    }
}
