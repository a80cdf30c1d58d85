package org.ftlab.auction.api.http;

import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.ftlab.auction.api.AuctionClosedException;
import org.ftlab.auction.api.AuctionDraft;
import org.ftlab.auction.api.AuctionException;
import org.ftlab.auction.api.BidTooLowException;
import org.ftlab.auction.api.InvalidAccountInfoException;
import org.ftlab.auction.api.InvalidAuctionInfoException;
import org.ftlab.auction.api.InvalidRequestException;
import org.ftlab.auction.api.NotLoggedInException;
import org.ftlab.auction.api.Reply;
import org.ftlab.auction.api.ReplySize;
import org.ftlab.auction.api.RequestHeader;
import org.ftlab.auction.api.ServerProbes;
import org.ftlab.auction.api.UnknownAuctionException;
import org.ftlab.auction.api.UnknownUserException;

/**
 * The auction service's second door: the same operations over HTTP with JSON bodies, served by WildFly's JAX-RS
 * (RESTEasy) beside remote EJB, with the same request identity, request log and probes. This class is the contract
 * both ends share: the paths, the headers that carry the {@link RequestHeader}, and the records the bodies are.
 *
 * <p>Request identity travels in headers, as HTTP APIs carry an idempotency key: {@value #CLIENT_ID} and
 * {@value #SEQ} are the {@code (clientId, seq)} the request log keeps each change under once, so a client may retry a
 * request on another replica after a fail-over exactly as over EJB. Reads are {@code GET}, changes {@code POST}; an
 * answer is a {@link WireReply} (200), a business refusal a {@link WireError} (4xx) naming the exception the EJB door
 * would have thrown, and anything else (5xx, a refused or broken connection, a timeout) a failure of the replica.
 *
 * <pre>
 * GET  /app-ejb/rest/ping                        the replica's name (text)
 * POST /app-ejb/rest/accounts                    {@link Credentials}      → WireReply&lt;AccountInfo&gt;
 * POST /app-ejb/rest/logins                      {@link Credentials}      → WireReply&lt;LoginToken&gt;
 * POST /app-ejb/rest/auctions                    {@link NewAuction}       → WireReply&lt;AuctionPosted&gt;
 * GET  /app-ejb/rest/auctions/{id}                                   → WireReply&lt;AuctionDetails&gt;
 * POST /app-ejb/rest/auctions/{id}/bids          {@link NewBid}           → WireReply&lt;BidReceipt&gt;
 * POST /app-ejb/rest/auctions/{id}/offers        {@link NewBid}           → WireReply&lt;BidOutcome&gt;
 * GET  /app-ejb/rest/auctions/{id}/bids                              → WireReply&lt;BidHistory&gt;
 * GET  /app-ejb/rest/auctions/{id}/status                            → WireReply&lt;AuctionStatus&gt;
 * </pre>
 * Every request authenticates as the lab's application user (HTTP Basic), as remote EJB does (SASL).
 */
public final class HttpDoor {
    /** The JAX-RS application's path under the archive's context root ({@value #CONTEXT_ROOT}). */
    public static final String APPLICATION_PATH = "rest";
    public static final String CONTEXT_ROOT = "app-ejb";
    public static final String CLIENT_ID = "Ftlab-Client-Id";
    public static final String SEQ = "Ftlab-Seq";
    /** The reply size in bytes, or {@code original}. */
    public static final String REPLY_SIZE = "Ftlab-Reply-Size";
    /** {@code false} only to measure what probes cost ({@link RequestHeader#probes()}). */
    public static final String PROBES = "Ftlab-Probes";
    /** {@code false} only while a lab's observation is off ({@link RequestHeader#observed()}). */
    public static final String OBSERVED = "Ftlab-Observed";
    /** {@code true} for a rehearsal ({@link RequestHeader#rehearsal}). */
    public static final String REHEARSAL = "Ftlab-Rehearsal";

    private HttpDoor() {
    }

    /** The base URL of a replica's door, from its host and HTTP port: {@code http://host:port/app-ejb/rest}. */
    public static String baseUrl(String host, int port) {
        return "http://" + host + ":" + port + "/" + CONTEXT_ROOT + "/" + APPLICATION_PATH;
    }

    /** The headers that carry {@code h}, in a fixed order. */
    public static Map<String, String> headers(RequestHeader h) {
        Map<String, String> out = new LinkedHashMap<>();
        out.put(CLIENT_ID, h.clientId());
        out.put(SEQ, Long.toString(h.seq()));
        out.put(REPLY_SIZE, h.replySize().isOriginal() ? "original" : Integer.toString(h.replySize().bytes()));
        out.put(PROBES, Boolean.toString(h.probes()));
        out.put(OBSERVED, Boolean.toString(h.observed()));
        out.put(REHEARSAL, Boolean.toString(h.isRehearsal()));
        return out;
    }

    /**
     * The request header a request carried, read with {@code header} (null for one it lacks); a missing identity or
     * a bad value is an {@link InvalidRequestException}, as the EJB door refuses a bad header.
     */
    public static RequestHeader header(UnaryOperator<String> header) throws InvalidRequestException {
        String clientId = header.apply(CLIENT_ID);
        String seq = header.apply(SEQ);
        if (clientId == null || clientId.isBlank() || seq == null) {
            throw new InvalidRequestException("a request needs the headers " + CLIENT_ID + " and " + SEQ);
        }
        try {
            String size = header.apply(REPLY_SIZE);
            return RequestHeader.of(clientId, Long.parseLong(seq.trim()), size == null ? ReplySize.ORIGINAL
                    : ReplySize.parse(size), !"false".equals(header.apply(PROBES)),
                    !"false".equals(header.apply(OBSERVED)), "true".equals(header.apply(REHEARSAL)));
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestException("bad request header: " + e.getMessage());
        }
    }

    /** {@code POST /accounts} and {@code POST /logins}. */
    public record Credentials(String username, String password) {
    }

    /** {@code POST /auctions}. */
    public record NewAuction(String loginToken, AuctionDraft draft) {
    }

    /** {@code POST /auctions/{id}/bids}. */
    public record NewBid(String loginToken, long amountCents) {
    }

    /** {@link ServerProbes} on the wire, field for field. */
    public record WireProbes(long receivedMicros, long dbStartMicros, long commitStartMicros, long dbEndMicros,
            long replySentMicros, long threadId, long cpuMicros, long runQueueMicros, long dbCpuMicros,
            long dbRunQueueMicros, long dbConnection, long arrivedMicros) {
        public static WireProbes of(ServerProbes p) {
            return p == null ? null : new WireProbes(p.receivedMicros(), p.dbStartMicros(), p.commitStartMicros(),
                    p.dbEndMicros(), p.replySentMicros(), p.threadId(), p.cpuMicros(), p.runQueueMicros(),
                    p.dbCpuMicros(), p.dbRunQueueMicros(), p.dbConnection(), p.arrivedMicros());
        }

        /** The probes; a reply of a replica from before {@code arrivedMicros} reads 0 there: unknown. */
        public ServerProbes toProbes() {
            return new ServerProbes(receivedMicros, dbStartMicros, commitStartMicros, dbEndMicros, replySentMicros,
                    threadId, cpuMicros, runQueueMicros, dbCpuMicros, dbRunQueueMicros, dbConnection, arrivedMicros);
        }
    }

    /** A {@link Reply} on the wire: the result or the sized payload (base64 in JSON), replayed, replica, probes. */
    public record WireReply<T extends Serializable>(T value, byte[] payload, boolean replayed, String replica,
            WireProbes probes) {
        public static <T extends Serializable> WireReply<T> of(Reply<T> r) {
            return new WireReply<>(r.value(), r.payload(), r.replayed(), r.replica(), WireProbes.of(r.probes()));
        }

        /** As {@link #of(Reply)}, its probes saying when the request arrived ({@link ServerProbes#arrivedMicros()}). */
        public static <T extends Serializable> WireReply<T> of(Reply<T> r, long arrivedMicros) {
            ServerProbes p = r.probes();
            return new WireReply<>(r.value(), r.payload(), r.replayed(), r.replica(),
                    WireProbes.of(p == null ? null : p.withArrivedMicros(arrivedMicros)));
        }

        public Reply<T> toReply() {
            return new Reply<>(value, payload, replayed, replica, probes == null ? null : probes.toProbes());
        }
    }

    /** A business refusal: the simple name of the {@link AuctionException} the EJB door throws, and its message. */
    public record WireError(String type, String message) {
        private static final Map<String, Function<String, AuctionException>> TYPES = Map.of(
                AuctionClosedException.class.getSimpleName(), AuctionClosedException::new,
                BidTooLowException.class.getSimpleName(), BidTooLowException::new,
                InvalidAccountInfoException.class.getSimpleName(), InvalidAccountInfoException::new,
                InvalidAuctionInfoException.class.getSimpleName(), InvalidAuctionInfoException::new,
                InvalidRequestException.class.getSimpleName(), InvalidRequestException::new,
                NotLoggedInException.class.getSimpleName(), NotLoggedInException::new,
                UnknownAuctionException.class.getSimpleName(), UnknownAuctionException::new,
                UnknownUserException.class.getSimpleName(), UnknownUserException::new);

        public static WireError of(AuctionException e) {
            return new WireError(e.getClass().getSimpleName(), e.getMessage());
        }

        /** The exception this refusal names; null when the type is not one of the service's. */
        public AuctionException toException() {
            Function<String, AuctionException> make = TYPES.get(type);
            return make == null ? null : make.apply(message);
        }

        /** The HTTP status a refusal of this type is answered with. */
        public int status() {
            return switch (type) {
                case "UnknownAuctionException", "UnknownUserException" -> 404;
                case "NotLoggedInException" -> 403;
                case "AuctionClosedException", "BidTooLowException" -> 409;
                default -> 400;
            };
        }

        /** Every refusal type, for tests. */
        public static List<String> types() {
            return TYPES.keySet().stream().sorted().toList();
        }
    }
}
