package org.ftlab.auction.api;

import java.time.Instant;

/**
 * The probe clock: wall-clock microseconds since the Unix epoch, read the same way by clients and replicas so that
 * timestamps taken on one host can be compared across its processes.
 */
public final class MicroClock {
    private MicroClock() {
    }

    public static long nowEpochMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }
}
