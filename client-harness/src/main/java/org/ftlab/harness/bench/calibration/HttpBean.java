package org.ftlab.harness.bench.calibration;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;

/** The bean's own time in the HTTP door's JSON reply ({@code probes}: from the bean's start to its reply). */
final class HttpBean {
    private static final ObjectMapper JSON = new ObjectMapper();

    private HttpBean() {
    }

    /** The bean's time in µs, or -1 when the reply carries no probes. */
    static long micros(byte[] body) throws IOException {
        JsonNode probes = JSON.readTree(body).path("probes");
        if (!probes.has("receivedMicros") || !probes.has("replySentMicros")) {
            return -1;
        }
        return probes.path("replySentMicros").asLong() - probes.path("receivedMicros").asLong();
    }
}
