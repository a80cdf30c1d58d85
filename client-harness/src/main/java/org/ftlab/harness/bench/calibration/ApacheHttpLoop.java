package org.ftlab.harness.bench.calibration;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.util.VersionInfo;
import org.ftlab.rm.api.Platform;

/** A bare loop of Apache HttpClient 5's classic (blocking) API, one client per connection. */
final class ApacheHttpLoop implements LeanClient {
    @Override
    public String name() {
        return "apache-http";
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
        VersionInfo v = VersionInfo.loadVersionInfo("org.apache.hc.client5", HttpClients.class.getClassLoader());
        return "Apache HttpClient " + (v == null ? "5" : v.getRelease()) + ", classic blocking API, a bare loop";
    }

    @Override
    public Latencies run(Endpoint endpoint, double ratePerS, Duration duration, int connections) throws Exception {
        List<String> urls = endpoint.viewUrls();
        AtomicLong next = new AtomicLong();
        List<CloseableHttpClient> clients = new ArrayList<>();
        List<OpenLoop.Call> calls = new ArrayList<>();
        try {
            for (int c = 0; c < connections; c++) {
                CloseableHttpClient http = HttpClients.custom().disableAutomaticRetries().build();
                clients.add(http);
                calls.add(() -> {
                    HttpGet get = new HttpGet(urls.get((int) (next.getAndIncrement() % urls.size())));
                    endpoint.httpHeaders().forEach(get::addHeader);
                    return http.execute(get, response -> {
                        byte[] body = EntityUtils.toByteArray(response.getEntity());
                        if (response.getCode() != 200) {
                            throw new IOException("HTTP " + response.getCode());
                        }
                        return body;
                    });
                });
            }
            OpenLoop.Result r = OpenLoop.run(ratePerS, duration, calls, body -> HttpBean.micros((byte[]) body));
            return Latencies.of(r);
        } finally {
            for (CloseableHttpClient c : clients) {
                c.close();
            }
        }
    }
}
