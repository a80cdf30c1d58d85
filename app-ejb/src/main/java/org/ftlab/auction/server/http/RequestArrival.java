package org.ftlab.auction.server.http;

import io.undertow.server.HttpServerExchange;
import io.undertow.servlet.handlers.ServletRequestContext;
import org.ftlab.auction.api.MicroClock;

/**
 * When the HTTP request being served arrived: the moment Undertow's I/O thread had parsed its head, before it handed
 * the request to a worker thread ({@link HttpServerExchange#getRequestStartTime()}, recorded because the replica's
 * listener sets {@code record-request-start-time}; src/main/wildfly/configure-server.cli). Read on the worker thread,
 * it splits the request's way in: from the client to the I/O thread, and from the I/O thread to the bean (the wait
 * for a worker).
 */
final class RequestArrival {
    private RequestArrival() {
    }

    /**
     * The current request's arrival, µs since the epoch on this replica's probe clock ({@link MicroClock}); -1 when
     * the server did not record it (a listener without {@code record-request-start-time}, no servlet request).
     */
    static long epochMicros() {
        ServletRequestContext context = ServletRequestContext.current();
        long startNanos = context == null ? -1 : context.getExchange().getRequestStartTime();
        if (startNanos == -1) {
            return -1;
        }
        // the start is a System.nanoTime(): its age, taken from the wall clock now
        return MicroClock.nowEpochMicros() - (System.nanoTime() - startNanos) / 1_000;
    }
}
