package org.ftlab.auction.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import javax.naming.NamingException;
import org.ftlab.auction.api.AuctionDetails;
import org.ftlab.auction.api.Reply;
import org.ftlab.auction.api.ReplySize;
import org.ftlab.auction.api.RequestHeader;
import org.ftlab.auction.api.UnknownAuctionException;
import org.ftlab.auction.api.http.HttpDoor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The HTTP door's client against a stand-in door: an answer is read into the reply, a refusal is thrown as the
 * service's exception, and a 5xx answer or no answer within the invocation timeout is the replica's failure.
 */
class HttpReplicaConnectionTest {
    private HttpServer door;
    private final Map<String, String> seen = new ConcurrentHashMap<>();
    private final CountDownLatch released = new CountDownLatch(1);
    private HttpReplicaConnection connection;

    @BeforeEach
    void openADoor() throws Exception {
        door = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        door.setExecutor(Executors.newCachedThreadPool());
        String base = "/" + HttpDoor.CONTEXT_ROOT + "/" + HttpDoor.APPLICATION_PATH;
        door.createContext(base + "/ping", ex -> answer(ex, 200, "pong"));
        door.createContext(base + "/auctions/", ex -> {
            seen.put("authorization", String.valueOf(ex.getRequestHeaders().getFirst("Authorization")));
            seen.put("seq", String.valueOf(ex.getRequestHeaders().getFirst(HttpDoor.SEQ)));
            String path = ex.getRequestURI().getPath();
            if (path.endsWith("/7")) {
                answer(ex, 200, "{\"value\":{\"auctionId\":7,\"seller\":\"s\",\"title\":\"t\",\"description\":\"d\","
                        + "\"startingPriceCents\":100,\"highestBidCents\":0,\"bidCount\":0,\"closesAtEpochMillis\":1,"
                        + "\"open\":true},\"replayed\":false,\"replica\":\"r1\"}");
            } else if (path.endsWith("/8")) {
                answer(ex, 404, "{\"type\":\"UnknownAuctionException\",\"message\":\"no auction 8\"}");
            } else if (path.endsWith("/9")) {
                answer(ex, 503, "overloaded");
            } else {
                try {
                    released.await(); // a hung replica: no answer until the test ends
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                answer(ex, 200, "too late");
            }
        });
        door.start();
        connection = HttpReplicaConnection.open("remote+http://127.0.0.1:" + door.getAddress().getPort(), "user",
                "secret", 5_000);
    }

    @AfterEach
    void close() {
        released.countDown();
        connection.close();
        door.stop(0);
    }

    private static void answer(HttpExchange ex, int status, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().add("Content-Type", "application/json");
        ex.sendResponseHeaders(status, b.length);
        ex.getResponseBody().write(b);
        ex.close();
    }

    private static RequestHeader header(long seq) {
        return RequestHeader.of("c1", seq, ReplySize.ORIGINAL, true, true, false);
    }

    @Test
    void anAnswerIsReadIntoTheReplyAndTheRequestCarriesItsHeaderAsTheUser() throws Exception {
        Reply<AuctionDetails> r = connection.service().viewAuction(header(41), 7);
        assertEquals(7, r.value().auctionId());
        assertEquals("r1", r.replica());
        assertEquals("41", seen.get("seq"));
        assertTrue(seen.get("authorization").startsWith("Basic "), seen.toString());
    }

    @Test
    void aRefusalIsThrownAsTheServicesException() {
        UnknownAuctionException e = assertThrows(UnknownAuctionException.class,
                () -> connection.service().viewAuction(header(1), 8));
        assertEquals("no auction 8", e.getMessage());
    }

    @Test
    void aServerErrorIsTheReplicasFailure() {
        HttpReplicaConnection.ReplicaUnreachable e = assertThrows(HttpReplicaConnection.ReplicaUnreachable.class,
                () -> connection.service().viewAuction(header(1), 9));
        assertTrue(e.getMessage().contains("HTTP 503"), e.getMessage());
    }

    @Test
    void noAnswerWithinTheInvocationTimeoutIsTheReplicasFailure() {
        connection.invocationTimeout(200);
        HttpReplicaConnection.ReplicaUnreachable e = assertThrows(HttpReplicaConnection.ReplicaUnreachable.class,
                () -> connection.service().viewAuction(header(1), 10));
        assertTrue(e.getMessage().contains("GET "), e.getMessage());
    }

    @Test
    void aDoorThatIsNotThereFailsTheOpening() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        assertThrows(NamingException.class, () -> HttpReplicaConnection.open("remote+http://127.0.0.1:"
                + port, "user", "secret", 1_000));
    }
}
