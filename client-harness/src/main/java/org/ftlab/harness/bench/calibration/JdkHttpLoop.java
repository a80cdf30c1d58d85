package org.ftlab.harness.bench.calibration;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.ftlab.rm.api.Platform;

/** A bare loop of the JDK's {@code java.net.http.HttpClient} (HTTP/1.1, keep-alive), one client per connection. */
final class JdkHttpLoop implements LeanClient {
    @Override
    public String name() {
        return "jdk-http";
    }

    @Override
    public Platform platform() {
        return Platform.REST;
    }

    @Override
    public boolean external() {
        return false;
    }

    @Override
    public String description() {
        return "the JDK's java.net.http.HttpClient (Java " + Runtime.version().feature() + "), HTTP/1.1, a bare loop";
    }

    @Override
    public Latencies run(Endpoint endpoint, double ratePerS, Duration duration, int connections) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(endpoint.viewUrl())).GET();
        endpoint.httpHeaders().forEach(b::header);
        HttpRequest request = b.build();
        List<OpenLoop.Call> calls = new ArrayList<>();
        for (int c = 0; c < connections; c++) {
            HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            calls.add(() -> {
                HttpResponse<byte[]> r = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
                if (r.statusCode() != 200) {
                    throw new IOException("HTTP " + r.statusCode());
                }
            });
        }
        OpenLoop.Result r = OpenLoop.run(ratePerS, duration, calls);
        return Latencies.ofNanos(r.serviceNanos(), r.lateNanos(), r.errors());
    }
}
