package org.ftlab.harness.lab;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.ftlab.rm.PrimaryBackupView;
import org.ftlab.rm.ReplicationManager;

/** Talks to the Replication Manager's HTTP interface (see ManagerHttpApi). */
public final class ManagerClient {
    private static final ObjectMapper JSON = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
    private final String url;
    private final String authorization;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();

    public ManagerClient(String url, String token) {
        this.url = url;
        this.authorization = "Bearer " + token;
    }

    /** A client for the manager described by a run directory's {@code rm.json}. */
    public static ManagerClient forRun(java.nio.file.Path runDir) throws IOException {
        JsonNode ready = JSON.readTree(runDir.resolve(org.ftlab.rm.ReplicationManagerMain.READY_FILE).toFile());
        return new ManagerClient(ready.path("url").asText(), ready.path("token").asText());
    }

    public String url() {
        return url;
    }

    public PrimaryBackupView view() throws IOException {
        return JSON.treeToValue(get("/view"), PrimaryBackupView.class);
    }

    /** Reports that {@code replica} failed for this client; true if the manager confirmed the failure. */
    public boolean report(String replica) throws IOException {
        return post("/report", "replica=" + enc(replica)).path("confirmed").asBoolean();
    }

    public JsonNode status() throws IOException {
        return get("/status");
    }

    /** Injects a fault (crash-primary, hang-primary, crash-backup, resume). */
    public ReplicationManager.InjectedFault inject(String kind, String replica) throws IOException {
        String form = "kind=" + enc(kind) + (replica == null ? "" : "&replica=" + enc(replica));
        return JSON.treeToValue(post("/inject", form), ReplicationManager.InjectedFault.class);
    }

    public void shutdown() throws IOException {
        post("/shutdown", "");
    }

    private JsonNode get(String path) throws IOException {
        return send(HttpRequest.newBuilder(URI.create(url + path)).timeout(Duration.ofSeconds(10))
                .header("Authorization", authorization).GET().build());
    }

    private JsonNode post(String path, String form) throws IOException {
        return send(HttpRequest.newBuilder(URI.create(url + path)).timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .header("Authorization", authorization)
                .POST(HttpRequest.BodyPublishers.ofString(form)).build());
    }

    private JsonNode send(HttpRequest request) throws IOException {
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            JsonNode body = JSON.readTree(response.body());
            if (response.statusCode() != 200) {
                throw new IOException("Replication Manager refused " + request.uri().getPath() + ": "
                        + body.path("error").asText(response.body()));
            }
            return body;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while talking to the Replication Manager", e);
        }
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
