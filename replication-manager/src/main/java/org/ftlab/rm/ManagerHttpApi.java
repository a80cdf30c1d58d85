package org.ftlab.rm;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import org.ftlab.auction.api.StatefulTierSettings;
import org.ftlab.fd.FailureReport;
import org.ftlab.fd.ProcessStateQuery;
import org.ftlab.rm.api.ClientReportReply;
import org.ftlab.rm.api.DegreeChange;
import org.ftlab.rm.api.EventDump;
import org.ftlab.rm.api.FaultSpec;
import org.ftlab.rm.api.InjectedFault;
import org.ftlab.rm.api.ManagerEndpoint;
import org.ftlab.rm.api.ManagerStatus;
import org.ftlab.rm.api.ObserveSwitch;
import org.ftlab.rm.api.PrimaryBackupView;

/**
 * The Replication Manager's network interface (HTTP/JSON on 127.0.0.1), for clients, the Fault Detector and the
 * harness. Every request must carry {@code Authorization: Bearer <token>}, the run's random token, which only the
 * run's owner can read ({@code rm.json}, mode 600): other users of the machine can neither inject faults nor
 * report failures.
 * <ul>
 * <li>{@code GET /view}: the {@link PrimaryBackupView};</li>
 * <li>{@code POST /report} ({@code replica=}): a client's hint that a replica failed; answers a
 * {@link ClientReportReply};</li>
 * <li>{@code POST /failure} (a {@link FailureReport} form): the Fault Detector's report;</li>
 * <li>{@code GET /status}: the {@link ManagerStatus} (replicas, roles, pids, uptimes, failures, faults);</li>
 * <li>{@code POST /inject} (a {@link FaultSpec} as JSON): fault injection; answers the {@link InjectedFault};</li>
 * <li>{@code POST /events} (an {@link EventDump} as JSON): every recording JVM of the lab writes its events to a
 * directory; answers the {@link EventDump.Files};</li>
 * <li>{@code POST /shutdown}: stops everything.</li>
 * </ul>
 * The records are in {@code org.ftlab.rm.api}, shared with the callers.
 */
public final class ManagerHttpApi implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpServer server;
    private final String expectedAuthorization;
    private volatile ReplicationManager manager;
    private volatile Runnable onShutdown = () -> { };
    /** In a lab of several managers, the leader's address while this member does not act (null: none known). */
    private volatile Supplier<String> leaderUrl;

    private ManagerHttpApi(HttpServer server, String token) {
        this.server = server;
        this.expectedAuthorization = "Bearer " + token;
    }

    /**
     * Binds 127.0.0.1:{@code port} (0: any free port) and serves requests that carry {@code token}; until
     * {@link #attach} they are answered 409 (still starting).
     */
    public static ManagerHttpApi bind(int port, String token) throws IOException {
        return bind(InetAddress.getLoopbackAddress().getHostAddress(), port, token);
    }

    /** As {@link #bind(int, String)}, on {@code address} (the manager's host on the lab's virtual network). */
    public static ManagerHttpApi bind(String address, int port, String token) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getByName(address), port), 64);
        ManagerHttpApi api = new ManagerHttpApi(server, token);
        server.createContext("/view", ex -> api.handle(ex, "GET", p -> api.manager().view()));
        server.createContext("/status", ex -> api.handle(ex, "GET", p -> api.manager().status()));
        server.createContext("/report", ex -> api.handle(ex, "POST", p -> {
            boolean failed = api.manager().onClientReport(required(p, "replica"));
            return new ClientReportReply(failed, api.manager().view());
        }));
        server.createContext("/failure", ex -> api.handle(ex, "POST", p -> {
            FailureReport r = FailureReport.fromForm(p);
            return Map.of("accepted", api.manager().onDetectorReport(r.replica(), r.pid(), r.kind(),
                    r.detectedEpochUs()));
        }));
        server.createContext("/process-state", ex -> api.handle(ex, "POST", p -> {
            ProcessStateQuery q = ProcessStateQuery.fromForm(p);
            return api.manager().processState(q.replica(), q.pid());
        }));
        server.createContext("/inject", ex -> api.handleJson(ex, "POST",
                body -> api.manager().inject(parseSpec(body))));
        server.createContext("/events", ex -> api.handleJson(ex, "POST",
                body -> api.manager().dumpEvents(parse(body, EventDump.class, "an event dump (JSON with dir, suffix, "
                        + "sinceEpochUs)"))));
        server.createContext("/observe", ex -> api.handleJson(ex, "POST",
                body -> api.manager().observe(parse(body, ObserveSwitch.class, "an observation switch (JSON with "
                        + "on)"))));
        server.createContext("/degree", ex -> api.handleJson(ex, "POST",
                body -> api.manager().setDegree(parse(body, DegreeChange.class, "a degree change (JSON with "
                        + "replicas)"))));
        server.createContext("/stateful", ex -> api.handleJson(ex, "POST",
                body -> api.manager().configureStatefulTier(parse(body, StatefulTierSettings.class,
                        "the stateful tier's settings (JSON with order, silence, estimator, checkpointEvery, gateways, "
                                + "workSpread)"))));
        server.createContext("/stateful-stop", ex -> api.handle(ex, "POST",
                p -> Map.of("stopped", api.manager().stopStatefulTier())));
        server.createContext("/stateful-status", ex -> api.handle(ex, "POST",
                p -> api.manager().statefulTierStatus("true".equals(p.get("checkpoint")))));
        server.createContext("/shutdown", ex -> api.handle(ex, "POST", p -> {
            Thread t = new Thread(api.onShutdown, "rm-shutdown");
            t.start();
            return Map.of("stopping", true);
        }));
        server.setExecutor(Executors.newFixedThreadPool(4, r -> {
            Thread t = new Thread(r, "rm-http");
            t.setDaemon(true);
            return t;
        }));
        server.start();
        return api;
    }

    public String url() {
        return "http://" + server.getAddress().getAddress().getHostAddress() + ":" + server.getAddress().getPort();
    }

    public void attach(ReplicationManager rm, Runnable shutdown) {
        this.onShutdown = shutdown;
        this.manager = rm;
    }

    /**
     * A member of a lab of several managers that does not act (not the leader, or not yet ready): every request is
     * answered 421 with {@code leader}'s answer, the leader's address ({@code "leader"} in the body), or 503 while no
     * leader is known.
     */
    public void follow(Supplier<String> leader) {
        this.manager = null;
        this.leaderUrl = leader;
    }

    /** Thrown while this member does not act: the request belongs to the leader. */
    private static final class Misdirected extends RuntimeException {
        final String leader;

        Misdirected(String leader) {
            super(leader == null ? "no manager leads yet (an election is under way): ask again shortly"
                    : "this manager does not lead: ask " + leader);
            this.leader = leader;
        }
    }

    private ReplicationManager manager() {
        ReplicationManager m = manager;
        if (m == null) {
            Supplier<String> leader = leaderUrl;
            if (leader != null) {
                String url = leader.get();
                throw new Misdirected(url == null || url.equals(url()) ? null : url);
            }
            throw new IllegalStateException("the Replication Manager is still starting");
        }
        return m;
    }

    @FunctionalInterface
    private interface Handler {
        Object handle(Map<String, String> params) throws Exception;
    }

    @FunctionalInterface
    private interface BodyHandler {
        Object handle(String body) throws Exception;
    }

    private static FaultSpec parseSpec(String body) {
        return parse(body, FaultSpec.class, "a fault (JSON with kind, target, durationMillis, amount)");
    }

    private static <T> T parse(String body, Class<T> type, String what) {
        try {
            return JSON.readValue(body, type);
        } catch (ValueInstantiationException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            throw new IllegalArgumentException(cause.getMessage());
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("the body is not " + what + ": " + e.getOriginalMessage());
        }
    }

    /** A request whose body is JSON rather than a form. */
    private void handleJson(HttpExchange ex, String method, BodyHandler handler) throws IOException {
        handle(ex, method, null, handler);
    }

    private void handle(HttpExchange ex, String method, Handler handler) throws IOException {
        handle(ex, method, handler, null);
    }

    private void handle(HttpExchange ex, String method, Handler handler, BodyHandler bodyHandler)
            throws IOException {
        // Not try-with-resources: the catch blocks still answer on the exchange, so it closes after them.
        // The term of the manager that acts when the request arrives: its answer names it, even if the manager
        // steps down before it answers (a deposed leader's refusal must not look like a follower's)
        ReplicationManager acting = manager;
        long term = acting == null ? 0 : acting.term();
        try {
            // Read the whole request before answering, whatever the answer: a response to an unread body makes
            // some clients see a closed connection instead of the status.
            String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            String auth = ex.getRequestHeaders().getFirst("Authorization");
            if (auth == null || !MessageDigest.isEqual(auth.getBytes(StandardCharsets.UTF_8),
                    expectedAuthorization.getBytes(StandardCharsets.UTF_8))) {
                send(ex, term, 403, Map.of("error", "missing or wrong token (see rm.json in the run directory)"));
                return;
            }
            if (!ex.getRequestMethod().equals(method)) {
                send(ex, term, 405, Map.of("error", "use " + method));
                return;
            }
            if (bodyHandler != null) {
                send(ex, term, 200, bodyHandler.handle(body));
                return;
            }
            Map<String, String> params = parse(ex.getRequestURI().getRawQuery());
            if (method.equals("POST")) {
                params.putAll(parse(body));
            }
            send(ex, term, 200, handler.handle(params));
        } catch (ReplicationManager.NoLongerLeads e) {
            // a deposed leader that did not know it yet: its change was not committed; the caller asks the others
            send(ex, term, 503, Map.of("error", String.valueOf(e.getMessage())));
        } catch (Misdirected e) {
            send(ex, term, e.leader == null ? 503 : 421, e.leader == null ? Map.of("error", e.getMessage())
                    : Map.of("error", e.getMessage(), "leader", e.leader));
        } catch (IllegalArgumentException e) {
            send(ex, term, 400, Map.of("error", String.valueOf(e.getMessage())));
        } catch (IllegalStateException e) {
            send(ex, term, 409, Map.of("error", String.valueOf(e.getMessage())));
        } catch (Exception e) {
            send(ex, term, 500, Map.of("error", e.getClass().getSimpleName() + ": " + e.getMessage()));
        } finally {
            ex.close();
        }
    }

    private static void send(HttpExchange ex, long term, int status, Object body) throws IOException {
        byte[] bytes = JSON.writeValueAsBytes(body);
        ex.getResponseHeaders().set("Content-Type", "application/json");
        if (term > 0) {
            // the term it answers in: a client that has seen a higher one ignores the answer (a deposed leader's)
            ex.getResponseHeaders().set(ManagerEndpoint.TERM_HEADER, Long.toString(term));
        }
        ex.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }

    private static Map<String, String> parse(String form) {
        Map<String, String> params = new HashMap<>();
        if (form == null || form.isBlank()) {
            return params;
        }
        for (String pair : form.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                params.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                        URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return params;
    }

    private static String required(Map<String, String> params, String name) {
        String v = params.get(name);
        if (v == null || v.isBlank()) {
            throw new IllegalArgumentException("missing parameter '" + name + "'");
        }
        return v;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
