package org.ftlab.harness.bench.calibration;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
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
        List<HttpRequest> requests = new ArrayList<>();
        for (String url : endpoint.viewUrls()) {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).GET();
            endpoint.httpHeaders().forEach(b::header);
            requests.add(b.build());
        }
        AtomicLong next = new AtomicLong();
        List<OpenLoop.Call> calls = new ArrayList<>();
        for (int c = 0; c < connections; c++) {
            HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            calls.add(() -> {
                HttpRequest request = requests.get((int) (next.getAndIncrement() % requests.size()));
                HttpResponse<byte[]> r = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
                if (r.statusCode() != 200) {
                    throw new IOException("HTTP " + r.statusCode());
                }
                return r.body();
            });
        }
        OpenLoop.Result r = OpenLoop.run(ratePerS, duration, calls, body -> HttpBean.micros((byte[]) body));
        return Latencies.of(r);
    }
}
