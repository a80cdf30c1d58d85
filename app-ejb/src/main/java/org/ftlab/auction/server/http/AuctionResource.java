package org.ftlab.auction.server.http;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.io.Serializable;
import org.ftlab.auction.api.AuctionException;
import org.ftlab.auction.api.InvalidRequestException;
import org.ftlab.auction.api.Reply;
import org.ftlab.auction.api.RequestHeader;
import org.ftlab.auction.api.http.HttpDoor;
import org.ftlab.auction.server.AuctionServiceBean;

/**
 * The auction operations over HTTP with JSON ({@link HttpDoor} is the contract): each method reads the request
 * header from the HTTP headers and the parameters from the JSON body, calls the same bean the EJB door does (so the
 * request log, the transactions and the probes are the same), and writes its reply or refusal as JSON. A system
 * failure of the bean is left to JAX-RS: a 500, which a client takes as the replica's failure, as it takes an
 * {@code EJBException} over EJB.
 */
@Path("")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
public class AuctionResource {
    /** Records and the service's DTOs as JSON; a field a newer client adds is ignored. */
    private static final ObjectMapper JSON = new ObjectMapper()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    @EJB
    private AuctionServiceBean service;

    /** One operation of the bean, given the request's header. */
    @FunctionalInterface
    private interface Operation<T extends Serializable> {
        Reply<T> call(RequestHeader header) throws AuctionException;
    }

    @GET
    @Path("ping")
    @Produces(MediaType.TEXT_PLAIN)
    public String ping() {
        return service.ping();
    }

    @POST
    @Path("accounts")
    public Response createAccount(@Context HttpHeaders headers, byte[] body) {
        return answer(headers, h -> {
            HttpDoor.Credentials c = body(body, HttpDoor.Credentials.class);
            return service.createAccount(h, c.username(), c.password());
        });
    }

    @POST
    @Path("logins")
    public Response login(@Context HttpHeaders headers, byte[] body) {
        return answer(headers, h -> {
            HttpDoor.Credentials c = body(body, HttpDoor.Credentials.class);
            return service.login(h, c.username(), c.password());
        });
    }

    @POST
    @Path("auctions")
    public Response postAuction(@Context HttpHeaders headers, byte[] body) {
        return answer(headers, h -> {
            HttpDoor.NewAuction a = body(body, HttpDoor.NewAuction.class);
            return service.postAuction(h, a.loginToken(), a.draft());
        });
    }

    @GET
    @Path("auctions/{id}")
    public Response viewAuction(@Context HttpHeaders headers, @PathParam("id") long auctionId) {
        return answer(headers, h -> service.viewAuction(h, auctionId));
    }

    @POST
    @Path("auctions/{id}/bids")
    public Response placeBid(@Context HttpHeaders headers, @PathParam("id") long auctionId, byte[] body) {
        return answer(headers, h -> {
            HttpDoor.NewBid b = body(body, HttpDoor.NewBid.class);
            return service.placeBid(h, b.loginToken(), auctionId, b.amountCents());
        });
    }

    @POST
    @Path("auctions/{id}/offers")
    public Response offerBid(@Context HttpHeaders headers, @PathParam("id") long auctionId, byte[] body) {
        return answer(headers, h -> {
            HttpDoor.NewBid b = body(body, HttpDoor.NewBid.class);
            return service.offerBid(h, b.loginToken(), auctionId, b.amountCents());
        });
    }

    @GET
    @Path("auctions/{id}/bids")
    public Response bidHistory(@Context HttpHeaders headers, @PathParam("id") long auctionId) {
        return answer(headers, h -> service.bidHistory(h, auctionId));
    }

    @GET
    @Path("auctions/{id}/status")
    public Response auctionStatus(@Context HttpHeaders headers, @PathParam("id") long auctionId) {
        return answer(headers, h -> service.auctionStatus(h, auctionId));
    }

    /** Runs {@code op} with the request's header: its reply (200) or its refusal (4xx), as JSON. */
    private static <T extends Serializable> Response answer(HttpHeaders headers, Operation<T> op) {
        long arrived = RequestArrival.epochMicros();
        try {
            RequestHeader h = HttpDoor.header(headers::getHeaderString);
            return json(200, HttpDoor.WireReply.of(op.call(h), arrived));
        } catch (AuctionException refused) {
            HttpDoor.WireError e = HttpDoor.WireError.of(refused);
            return json(e.status(), e);
        }
    }

    private static <B> B body(byte[] body, Class<B> type) throws InvalidRequestException {
        try {
            B b = JSON.readValue(body, type);
            if (b == null) {
                throw new InvalidRequestException("the request needs a JSON body (" + type.getSimpleName() + ")");
            }
            return b;
        } catch (IOException e) {
            throw new InvalidRequestException("the body is not a " + type.getSimpleName() + " in JSON: "
                    + e.getMessage().lines().findFirst().orElse(""));
        }
    }

    private static Response json(int status, Object entity) {
        try {
            return Response.status(status).type(MediaType.APPLICATION_JSON_TYPE)
                    .entity(JSON.writeValueAsBytes(entity)).build();
        } catch (IOException e) {
            throw new IllegalStateException("could not write the reply as JSON", e);
        }
    }
}
