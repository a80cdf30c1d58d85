package org.ftlab.auction.server.http;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;
import org.ftlab.auction.api.http.HttpDoor;

/** The auction service's HTTP door ({@link HttpDoor}): WildFly's JAX-RS serves {@link AuctionResource} under it. */
@ApplicationPath(HttpDoor.APPLICATION_PATH)
public class HttpApplication extends Application {
}
