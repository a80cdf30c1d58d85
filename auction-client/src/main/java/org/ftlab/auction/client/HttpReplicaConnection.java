package org.ftlab.auction.client;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.naming.NamingException;
import org.apache.hc.client5.http.classic.methods.HttpUriRequestBase;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.util.Timeout;
import org.ftlab.auction.api.AccountInfo;
import org.ftlab.auction.api.AuctionDetails;
import org.ftlab.auction.api.AuctionDraft;
import org.ftlab.auction.api.AuctionException;
import org.ftlab.auction.api.AuctionPosted;
import org.ftlab.auction.api.AuctionService;
import org.ftlab.auction.api.AuctionStatus;
import org.ftlab.auction.api.BidHistory;
import org.ftlab.auction.api.BidOutcome;
import org.ftlab.auction.api.BidReceipt;
import org.ftlab.auction.api.LoginToken;
import org.ftlab.auction.api.Reply;
import org.ftlab.auction.api.RequestHeader;
import org.ftlab.auction.api.http.HttpDoor;

/**
 * The auction service on one replica over HTTP with JSON ({@link HttpDoor}, {@link Platform#REST}): Apache HttpClient
 * 5's classic, blocking client (HTTP/1.1, keep-alive connections; chosen over the JDK's {@code HttpClient} by
 * measurement, docs/performance.md §10) to the replica's JAX-RS door, as the run's application user (HTTP Basic). The
 * call runs on the calling thread. Pinned to its replica like the EJB proxy. A refusal comes back as the
 * {@code AuctionException} the EJB door would throw; a 5xx answer, a refused or broken connection, or no answer
 * within the invocation timeout is a {@link ReplicaUnreachable}.
 */
public final class HttpReplicaConnection implements ServiceConnection {
    private static final long CONNECT_TIMEOUT_MILLIS = 10_000;
    private static final ObjectMapper JSON = new ObjectMapper()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    private static final Map<Class<?>, JavaType> REPLY_TYPES = new ConcurrentHashMap<>();
    private final CloseableHttpClient http;
    private final String baseUrl;
    private final String authorization;
    private final Service service = new Service();
    /** 0: no bound. */
    private volatile long timeoutMillis;

    /** A call over HTTP that got no usable answer: the replica's failure (or its connection's), not a refusal. */
    public static final class ReplicaUnreachable extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ReplicaUnreachable(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private HttpReplicaConnection(String baseUrl, String username, String password) {
        this.baseUrl = baseUrl;
        this.authorization = "Basic " + Base64.getEncoder().encodeToString((username + ":" + password)
                .getBytes(StandardCharsets.UTF_8));
        this.http = HttpClients.custom().setConnectionManager(PoolingHttpClientConnectionManagerBuilder.create()
                .setDefaultConnectionConfig(ConnectionConfig.custom().setConnectTimeout(Timeout.ofMilliseconds(
                        CONNECT_TIMEOUT_MILLIS)).build()).build()).disableAutomaticRetries().disableRedirectHandling()
                .disableCookieManagement().build();
    }

    /**
     * A connection to the door of the replica at {@code remotingUri} ({@code remote+http://host:port}: the same port
     * serves both doors). With {@code invocationTimeoutMillis} &gt; 0 it is opened and checked here (a ping).
     */
    public static HttpReplicaConnection open(String remotingUri, String username, String password,
            long invocationTimeoutMillis) throws NamingException {
        URI uri = URI.create(remotingUri);
        if (uri.getHost() == null || uri.getPort() < 0) {
            throw new IllegalArgumentException("not a replica address (remote+http://host:port): " + remotingUri);
        }
        HttpReplicaConnection c = new HttpReplicaConnection(HttpDoor.baseUrl(uri.getHost(), uri.getPort()), username,
                password);
        if (invocationTimeoutMillis > 0) {
            c.invocationTimeout(CONNECT_TIMEOUT_MILLIS);
            try {
                c.service.ping(); // opens the connection under a connection budget, as the EJB proxy does
            } catch (RuntimeException e) {
                c.close();
                NamingException n = new NamingException("no HTTP door at " + c.baseUrl + ": " + e.getMessage());
                n.initCause(e);
                throw n;
            }
            c.invocationTimeout(invocationTimeoutMillis);
        }
        return c;
    }

    @Override
    public AuctionService service() {
        return service;
    }

    @Override
    public void invocationTimeout(long millis) {
        this.timeoutMillis = millis;
    }

    /** {@code http://host:port/app-ejb/rest}. */
    public String baseUrl() {
        return baseUrl;
    }

    @Override
    public void close() {
        http.close(CloseMode.IMMEDIATE);
    }

    /** An answer: its status and its body. */
    private record Answer(int statusCode, byte[] body) {
    }

    /** One request: method, path under the door, body (null: none), with the request header's headers. */
    private Answer send(RequestHeader header, String method, String path, Object body) {
        HttpUriRequestBase request = new HttpUriRequestBase(method, URI.create(baseUrl + path));
        request.addHeader("Authorization", authorization);
        request.addHeader("Accept", "application/json, text/plain");
        if (header != null) {
            HttpDoor.headers(header).forEach(request::addHeader);
        }
        long t = timeoutMillis;
        // no answer within the timeout: the socket read times out (0: no bound)
        request.setConfig(RequestConfig.custom().setResponseTimeout(t > 0 ? Timeout.ofMilliseconds(t)
                : Timeout.DISABLED).build());
        try {
            if (body != null) {
                request.setEntity(new ByteArrayEntity(JSON.writeValueAsBytes(body), ContentType.APPLICATION_JSON));
            }
            return http.execute(request, response -> new Answer(response.getCode(), response.getEntity() == null
                    ? new byte[0] : EntityUtils.toByteArray(response.getEntity())));
        } catch (IOException e) {
            throw new ReplicaUnreachable(method + " " + baseUrl + path + ": " + e, e);
        }
    }

    /** A reply with a result of {@code type}, or the refusal the service sent (thrown as its checked exception). */
    private <T extends Serializable> Reply<T> call(RequestHeader header, String method, String path, Object body,
            Class<T> type) {
        Answer r = send(header, method, path, body);
        try {
            if (r.statusCode() == 200) {
                HttpDoor.WireReply<T> reply = JSON.readValue(r.body(), REPLY_TYPES.computeIfAbsent(type,
                        t -> JSON.getTypeFactory().constructParametricType(HttpDoor.WireReply.class, t)));
                return reply.toReply();
            }
            if (r.statusCode() >= 400 && r.statusCode() < 500) {
                HttpDoor.WireError error = JSON.readValue(r.body(), HttpDoor.WireError.class);
                AuctionException refusal = error.toException();
                if (refusal != null) {
                    throw HttpReplicaConnection.<RuntimeException>raise(refusal);
                }
            }
        } catch (IOException e) {
            throw new ReplicaUnreachable(method + " " + baseUrl + path + ": HTTP " + r.statusCode()
                    + " with a body that is not the door's JSON", e);
        }
        throw new ReplicaUnreachable(method + " " + baseUrl + path + ": HTTP " + r.statusCode() + " "
                + new String(r.body(), StandardCharsets.UTF_8).lines().findFirst().orElse(""), null);
    }

    /**
     * Throws a refusal from a method whose signature cannot name every {@code AuctionException}: the service's
     * methods declare the refusals they can meet, and the door only sends those (the bean declares the same).
     */
    @SuppressWarnings("unchecked")
    private static <E extends Throwable> E raise(Throwable t) throws E {
        throw (E) t;
    }

    /** The service's operations as HTTP requests. */
    private final class Service implements AuctionService {
        @Override
        public String ping() {
            Answer r = send(null, "GET", "/ping", null);
            if (r.statusCode() != 200) {
                throw new ReplicaUnreachable("GET " + baseUrl + "/ping: HTTP " + r.statusCode(), null);
            }
            return new String(r.body(), StandardCharsets.UTF_8);
        }

        @Override
        public Reply<AccountInfo> createAccount(RequestHeader header, String username, String password) {
            return call(header, "POST", "/accounts", new HttpDoor.Credentials(username, password), AccountInfo.class);
        }

        @Override
        public Reply<LoginToken> login(RequestHeader header, String username, String password) {
            return call(header, "POST", "/logins", new HttpDoor.Credentials(username, password), LoginToken.class);
        }

        @Override
        public Reply<AuctionPosted> postAuction(RequestHeader header, String loginToken, AuctionDraft draft) {
            return call(header, "POST", "/auctions", new HttpDoor.NewAuction(loginToken, draft), AuctionPosted.class);
        }

        @Override
        public Reply<AuctionDetails> viewAuction(RequestHeader header, long auctionId) {
            return call(header, "GET", "/auctions/" + auctionId, null, AuctionDetails.class);
        }

        @Override
        public Reply<BidReceipt> placeBid(RequestHeader header, String loginToken, long auctionId, long amountCents) {
            return call(header, "POST", "/auctions/" + auctionId + "/bids", new HttpDoor.NewBid(loginToken,
                    amountCents), BidReceipt.class);
        }

        @Override
        public Reply<BidOutcome> offerBid(RequestHeader header, String loginToken, long auctionId, long amountCents) {
            return call(header, "POST", "/auctions/" + auctionId + "/offers", new HttpDoor.NewBid(loginToken,
                    amountCents), BidOutcome.class);
        }

        @Override
        public Reply<BidHistory> bidHistory(RequestHeader header, long auctionId) {
            return call(header, "GET", "/auctions/" + auctionId + "/bids", null, BidHistory.class);
        }

        @Override
        public Reply<AuctionStatus> auctionStatus(RequestHeader header, long auctionId) {
            return call(header, "GET", "/auctions/" + auctionId + "/status", null, AuctionStatus.class);
        }
    }
}
