package org.ftlab.rm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

class ManagerHttpApiTest {
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private HttpResponse<String> post(ManagerHttpApi api, String path, String authorization) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(api.url() + path))
                .POST(HttpRequest.BodyPublishers.ofString("kind=crash-primary"));
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void requestsWithoutTheRunsTokenAreRefused() throws Exception {
        try (ManagerHttpApi api = ManagerHttpApi.bind(0, "s3cret")) {
            assertTrue(api.url().startsWith("http://127.0.0.1:"), "listens on loopback only");
            assertEquals(403, post(api, "/inject", null).statusCode());
            assertEquals(403, post(api, "/inject", "Bearer guess").statusCode());
            HttpResponse<String> authorized = post(api, "/inject", "Bearer s3cret");
            assertEquals(409, authorized.statusCode(), "authorized, but the manager is still starting");
            assertTrue(authorized.body().contains("still starting"), authorized.body());
        }
    }

    @Test
    void wrongMethodIsRefusedWithTheMethodToUse() throws Exception {
        try (ManagerHttpApi api = ManagerHttpApi.bind(0, "t")) {
            HttpResponse<String> r = post(api, "/view", "Bearer t");
            assertEquals(405, r.statusCode());
            assertTrue(r.body().contains("use GET"), r.body());
        }
    }
}
