package org.ftlab.harness.bench.calibration;

import java.time.Duration;
import org.ftlab.rm.api.Platform;

/**
 * A client leaner than ftlab's, run in a calibration round against the same {@link Endpoint} at the same rate: a
 * bare loop of a client library, or an external load generator. One part per client: its own class and one line in
 * {@link LeanClients}.
 */
public interface LeanClient {
    /** Its name in the table and in bench.json ({@code jdk-http}, {@code vegeta}, …). */
    String name();

    /** The door it calls. */
    Platform platform();

    /** Whether nobody here wrote it (an external load generator): the reference ftlab's client is held to. */
    boolean external();

    /** What it is, one line for the table's notes (the library and version, the generator's command). */
    String description();

    /**
     * Sends {@code ratePerS} requests per second to {@code endpoint} for {@code duration}, open loop, uniform
     * arrivals, from {@code connections} connections at once; what it measured.
     *
     * @throws Exception if it cannot run at all (its errors during the round are counted, not thrown)
     */
    Latencies run(Endpoint endpoint, double ratePerS, Duration duration, int connections) throws Exception;
}
