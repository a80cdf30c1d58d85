package org.ftlab.harness.bench.calibration;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.ftlab.auction.api.RequestHeader;
import org.ftlab.auction.api.http.HttpDoor;
import org.ftlab.os.access.ApplicationUser;

/**
 * What every client of a calibration round asks for: views of auctions on the primary, through either door, the
 * auctions in turn, with the same request header ftlab's own clients send (probes and observation as theirs), so that
 * the replica does the same work whoever asks. The auctions are posted as ftlab's clients post theirs (a few fresh
 * ones before each round, every one viewed in turn), for the database to read rows like theirs. A view reads; it
 * never meets the request log, so one header serves every request.
 *
 * @param remotingUri the primary's {@code remote+http://host:port}, both doors' port
 * @param user the run's application user
 * @param header the request header of every request
 * @param auctionIds the auctions viewed, in turn
 */
record Endpoint(String remotingUri, ApplicationUser user, RequestHeader header, List<Long> auctionIds) {
    Endpoint {
        auctionIds = List.copyOf(auctionIds);
        if (auctionIds.isEmpty()) {
            throw new IllegalArgumentException("an endpoint views at least one auction");
        }
    }

    /** {@code http://host:port/app-ejb/rest/auctions/<id>} for each auction: the HTTP door's views. */
    List<String> viewUrls() {
        URI uri = URI.create(remotingUri);
        String base = HttpDoor.baseUrl(uri.getHost(), uri.getPort()) + "/auctions/";
        return auctionIds.stream().map(id -> base + id).toList();
    }

    /** The HTTP request's headers, in a fixed order: HTTP Basic as the user, what it accepts, the request header's. */
    Map<String, String> httpHeaders() {
        Map<String, String> h = new LinkedHashMap<>();
        h.put("Authorization", "Basic " + Base64.getEncoder().encodeToString((user.username() + ":"
                + user.password()).getBytes(StandardCharsets.UTF_8)));
        h.put("Accept", "application/json, text/plain");
        h.putAll(HttpDoor.headers(header));
        return h;
    }
}
