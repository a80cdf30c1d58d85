package org.ftlab.harness.bench.calibration;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.ftlab.auction.api.Reply;
import org.ftlab.auction.api.ServerProbes;
import org.ftlab.auction.client.ReplicaConnection;
import org.ftlab.rm.api.Platform;

/**
 * A bare loop of WildFly's remote EJB client: one proxy per connection to the primary's bean, called directly, with
 * none of ftlab's fail-over machinery (no strategy, no timeout bookkeeping, no probe rows).
 */
final class BareEjbLoop implements LeanClient {
    @Override
    public String name() {
        return "bare-ejb";
    }

    @Override
    public Platform platform() {
        return Platform.EJB;
    }

    @Override
    public boolean external() {
        return false;
    }

    @Override
    public String description() {
        return "WildFly's remote EJB client, one proxy per connection, a bare loop";
    }

    @Override
    public Latencies run(Endpoint endpoint, double ratePerS, Duration duration, int connections) throws Exception {
        List<Long> ids = endpoint.auctionIds();
        AtomicLong next = new AtomicLong();
        List<ReplicaConnection> proxies = new ArrayList<>();
        List<OpenLoop.Call> calls = new ArrayList<>();
        try {
            for (int c = 0; c < connections; c++) {
                ReplicaConnection proxy = ReplicaConnection.open(endpoint.remotingUri(), endpoint.user().username(),
                        endpoint.user().password());
                proxies.add(proxy);
                calls.add(() -> proxy.service().viewAuction(endpoint.header(), ids.get((int) (next.getAndIncrement()
                        % ids.size()))));
            }
            OpenLoop.Result r = OpenLoop.run(ratePerS, duration, calls, reply -> {
                ServerProbes p = ((Reply<?>) reply).probes();
                return p == null ? -1 : p.replySentMicros() - p.receivedMicros();
            });
            return Latencies.of(r);
        } finally {
            proxies.forEach(ReplicaConnection::close);
        }
    }
}
