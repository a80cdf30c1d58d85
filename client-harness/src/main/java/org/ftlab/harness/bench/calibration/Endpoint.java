package org.ftlab.harness.bench.calibration;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import org.ftlab.auction.api.RequestHeader;
import org.ftlab.auction.api.http.HttpDoor;
import org.ftlab.os.access.ApplicationUser;

/**
 * What every client of a calibration round asks for: the view of one auction on the primary, through either door,
 * with the same request header ftlab's own clients send (probes and observation as theirs), so that the replica does
 * the same work whoever asks. A view reads; it never meets the request log, so one header serves every request.
 *
 * @param remotingUri the primary's {@code remote+http://host:port}, both doors' port
 * @param user the run's application user
 * @param header the request header of every request
 * @param auctionId the auction viewed
 */
record Endpoint(String remotingUri, ApplicationUser user, RequestHeader header, long auctionId) {

    /** {@code http://host:port/app-ejb/rest/auctions/<id>}: the HTTP door's view. */
    String viewUrl() {
        URI uri = URI.create(remotingUri);
        return HttpDoor.baseUrl(uri.getHost(), uri.getPort()) + "/auctions/" + auctionId;
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
