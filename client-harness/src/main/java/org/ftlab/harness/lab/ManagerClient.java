package org.ftlab.harness.lab;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import org.ftlab.auction.api.MicroClock;
import org.ftlab.auction.api.StatefulTierSettings;
import org.ftlab.auction.api.TierStatus;
import org.ftlab.rm.api.ClientReportReply;
import org.ftlab.rm.api.DegreeChange;
import org.ftlab.rm.api.EventDump;
import org.ftlab.rm.api.FaultKind;
import org.ftlab.rm.api.FaultSpec;
import org.ftlab.rm.api.InjectedFault;
import org.ftlab.rm.api.ManagerEndpoint;
import org.ftlab.rm.api.ManagerStatus;
import org.ftlab.rm.api.ObserveSwitch;
import org.ftlab.rm.api.PrimaryBackupView;
import org.ftlab.rm.api.StatefulTierReport;

/**
 * Talks to the Replication Manager's HTTP interface (see ManagerHttpApi), in the records of its contract. In a lab of
 * several managers it talks to the leader: a member that does not lead answers 421 with the leader's address, which
 * the client follows; a member that does not answer, or knows no leader yet (an election), is passed over for the
 * next, for up to {@link #LEADER_WAIT}. A request that may have reached a manager (a timeout, a connection cut) is sent again only if it changes nothing.
 */
public final class ManagerClient {
    private static final ObjectMapper JSON = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
    /** How long a request looks for a leader among several managers. */
    static final Duration LEADER_WAIT = Duration.ofSeconds(30);
    private final List<String> members;
    /** The manager believed to lead. */
    private volatile String url;
    /** The highest term a manager answered in: an answer of a lower one is a deposed leader's, and ignored. */
    private volatile long highestTerm;
    private final String authorization;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();

    public ManagerClient(String url, String token) {
        this(url, List.of(url), token);
    }

    /** {@code members}: every manager of the lab; {@code url}: the one believed to lead. */
    public ManagerClient(String url, List<String> members, String token) {
        this.url = url;
        this.members = List.copyOf(members);
        this.authorization = "Bearer " + token;
    }

    /** A client for the manager described by a run directory's {@code rm.json}. */
    public static ManagerClient forRun(Path runDir) throws IOException {
        ManagerEndpoint ready = JSON.readValue(runDir.resolve(ManagerEndpoint.FILE).toFile(), ManagerEndpoint.class);
        return new ManagerClient(ready.url(), ready.members(), ready.token());
    }

    /** The manager believed to lead (the lab's one manager). */
    public String url() {
        return url;
    }

    public PrimaryBackupView view() throws IOException {
        return JSON.treeToValue(get("/view"), PrimaryBackupView.class);
    }

    /** Reports that {@code replica} failed for this client; true if the manager confirmed the failure. */
    public boolean report(String replica) throws IOException {
        return JSON.treeToValue(post("/report", "application/x-www-form-urlencoded", "replica=" + enc(replica)),
                ClientReportReply.class).confirmed();
    }

    public ManagerStatus status() throws IOException {
        return JSON.treeToValue(get("/status"), ManagerStatus.class);
    }

    /**
     * Injects a fault; the manager repairs it after its duration. A fault of the leading manager itself (rm-crash,
     * rm-hang) takes it down before it answers: its record, which the group stored before it was made, is read from
     * the manager that leads next.
     */
    public InjectedFault inject(FaultSpec fault) throws IOException {
        long askedEpochUs = MicroClock.nowEpochMicros();
        boolean failsItsManager = fault.kind().actsOn() == FaultKind.ActsOn.MANAGER_PROCESS;
        try {
            String body = JSON.writeValueAsString(fault);
            // a fault that fails the manager that makes it is sent to one manager, once: whatever it answers (or not),
            // it may have made it
            return JSON.treeToValue(failsItsManager ? postOnce("/inject", body) : post("/inject", "application/json",
                    body), InjectedFault.class);
        } catch (IOException e) {
            if (!failsItsManager) {
                throw e;
            }
            return status().faults().stream()
                    .filter(f -> f.spec().equals(fault) && f.injectedEpochUs() >= askedEpochUs)
                    .reduce((a, b) -> b)
                    .orElseThrow(() -> new IOException("the manager did not record " + fault + " before it went: "
                            + e.getMessage(), e));
        }
    }

    /**
     * Every recording JVM of the lab writes its events since {@code sinceEpochUs} to {@code dir} (a file per process,
     * named with {@code suffix}); returns what was written and what could not be.
     */
    public EventDump.Files dumpEvents(Path dir, String suffix, long sinceEpochUs) throws IOException {
        EventDump request = new EventDump(dir.toAbsolutePath().toString(), suffix, sinceEpochUs);
        return JSON.treeToValue(post("/events", "application/json", JSON.writeValueAsString(request),
                Duration.ofSeconds(120)), EventDump.Files.class);
    }

    /**
     * Every recording JVM of the lab starts ({@code on}) or stops its recording, the manager its sampling of the
     * database (see {@link ObserveSwitch}); returns what was switched and what could not be.
     */
    public ObserveSwitch.Result observe(boolean on) throws IOException {
        return JSON.treeToValue(post("/observe", "application/json", JSON.writeValueAsString(new ObserveSwitch(on)),
                Duration.ofSeconds(60)), ObserveSwitch.Result.class);
    }

    /** The view's replication degree becomes {@code replicas} ({@link DegreeChange}); a degree the lab cannot reach
     * is refused with the manager's one line. */
    public DegreeChange.Result setDegree(int replicas) throws IOException {
        return JSON.treeToValue(post("/degree", "application/json", JSON.writeValueAsString(new DegreeChange(
                replicas))), DegreeChange.Result.class);
    }

    /**
     * Starts a run of the stateful tier on the primary (its log and checkpoints emptied); from now on the manager
     * recovers it on every new primary.
     */
    public TierStatus configureStatefulTier(StatefulTierSettings settings)
            throws IOException {
        return JSON.treeToValue(post("/stateful", "application/json", JSON.writeValueAsString(settings),
                Duration.ofSeconds(90)), TierStatus.class);
    }

    /**
     * Stops the stateful tier wherever it runs, and its recovery on promotions; returns whether it ran (a lab that
     * never ran one answers at once).
     */
    public boolean stopStatefulTier() throws IOException {
        return post("/stateful-stop", "application/x-www-form-urlencoded", "", Duration.ofSeconds(90))
                .path("stopped").asBoolean();
    }

    /** The primary's stateful tier; with {@code checkpoint}, a checkpoint stored now (its id in the report). */
    public StatefulTierReport statefulTier(boolean checkpoint) throws IOException {
        return JSON.treeToValue(post("/stateful-status", "application/x-www-form-urlencoded",
                "checkpoint=" + checkpoint, Duration.ofSeconds(90)), StatefulTierReport.class);
    }

    public void shutdown() throws IOException {
        post("/shutdown", "application/x-www-form-urlencoded", "");
    }

    private JsonNode get(String path) throws IOException {
        return send(base -> HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(10))
                .header("Authorization", authorization).GET().build(), true);
    }

    private JsonNode post(String path, String contentType, String body) throws IOException {
        return post(path, contentType, body, Duration.ofSeconds(10));
    }

    private JsonNode post(String path, String contentType, String body, Duration timeout) throws IOException {
        return send(base -> HttpRequest.newBuilder(URI.create(base + path)).timeout(timeout)
                .header("Content-Type", contentType)
                .header("Authorization", authorization)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), false);
    }

    /** A JSON body posted to the manager believed to lead, once: no other member is tried. */
    private JsonNode postOnce(String path, String body) throws IOException {
        HttpRequest r = HttpRequest.newBuilder(URI.create(url + path)).timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json").header("Authorization", authorization)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
        try {
            HttpResponse<String> response = http.send(r, HttpResponse.BodyHandlers.ofString());
            JsonNode answer = JSON.readTree(response.body());
            if (response.statusCode() != 200) {
                throw new IOException("Replication Manager refused " + path + ": "
                        + answer.path("error").asText(response.body()));
            }
            return answer;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while talking to the Replication Manager", e);
        }
    }

    /** {@code request} of a manager's address; {@code idempotent}: it may be sent again after a timeout. */
    private JsonNode send(Function<String, HttpRequest> request, boolean idempotent) throws IOException {
        long until = System.nanoTime() + LEADER_WAIT.toNanos();
        int next = 0;
        String lastFailed = null;
        while (true) {
            HttpRequest r = request.apply(url);
            IOException failed;
            try {
                HttpResponse<String> response = http.send(r, HttpResponse.BodyHandlers.ofString());
                JsonNode body = JSON.readTree(response.body());
                long term = response.headers().firstValueAsLong(ManagerEndpoint.TERM_HEADER).orElse(0);
                boolean deposed = term > 0 && term < highestTerm;
                if (term > highestTerm) {
                    highestTerm = term;
                }
                if (response.statusCode() == 200 && !deposed) {
                    return body;
                }
                if (deposed) {
                    // a leader the others replaced answered from its old view: ask another member
                    failed = new IOException("a deposed manager (term " + term + " < " + highestTerm + ") answered");
                    lastFailed = r.uri().resolve("/").toString().replaceFirst("/$", "");
                } else if (response.statusCode() == 421 && body.hasNonNull("leader")
                        && !body.get("leader").asText().equals(lastFailed)) {
                    url = body.get("leader").asText();
                    continue;
                } else if (response.statusCode() == 421) {
                    // it still names the leader that just failed us: the others have not elected a new one yet
                    failed = new IOException("the managers have not replaced " + lastFailed + " yet");
                } else {
                    failed = new IOException("Replication Manager refused " + r.uri().getPath() + ": "
                            + body.path("error").asText(response.body()));
                    // 503 from a member that does not act did nothing; from one that acted (it names its term),
                    // a deposed leader may have done part of a request before it found out: not sent again
                    if (response.statusCode() != 503 || term > 0 && !idempotent) {
                        throw failed;
                    }
                }
            } catch (ConnectException e) {
                failed = e; // never delivered: another member may take it
                lastFailed = r.uri().resolve("/").toString().replaceFirst("/$", "");
            } catch (IOException e) {
                if (!idempotent) {
                    throw e; // delivered, perhaps acted on (a timeout, a connection cut): not sent again
                }
                failed = e;
                lastFailed = r.uri().resolve("/").toString().replaceFirst("/$", "");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while talking to the Replication Manager", e);
            }
            if (members.size() == 1 || System.nanoTime() > until) {
                throw failed;
            }
            url = members.get(next++ % members.size());
            if (url.equals(lastFailed)) {
                url = members.get(next++ % members.size()); // the one that failed us last: another first
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while looking for the leading manager", e);
            }
        }
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
