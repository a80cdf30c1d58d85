package org.ftlab.harness.grid;

import java.time.Duration;
import org.ftlab.auction.api.AuctionDraft;
import org.ftlab.auction.api.ReplySize;
import org.ftlab.auction.api.RequestHeader;
import org.ftlab.harness.failover.FailoverClient;
import org.ftlab.harness.failover.FailoverStrategy;
import org.ftlab.harness.lab.ManagedLab;

/**
 * One grid client for the whole run: its own id, fail-over client (its own proxies) and login. Set up once, before
 * any measurement, so that configurations measure only their invocations. Sequence numbers continue across
 * configurations, so (clientId, seq) stays unique for the run.
 */
public final class ClientSession implements AutoCloseable {
    public final String clientId;
    public final FailoverClient client;
    public final String token;
    /** An auction posted with the natural reply, viewed when sized replies carry no auction ids. */
    public final long anchorAuctionId;
    private long nextSeq;

    public ClientSession(ManagedLab lab, FailoverStrategy strategy, String clientId) throws Exception {
        this.clientId = clientId;
        this.client = new FailoverClient(lab.manager(), lab.user(), strategy, Duration.ofMillis(1000),
                Duration.ofSeconds(60));
        String username = clientId.replace('-', '_');
        RequestHeader create = next(ReplySize.ORIGINAL);
        client.invoke(s -> s.createAccount(create, username, "grid-password"));
        RequestHeader login = next(ReplySize.ORIGINAL);
        token = client.invoke(s -> s.login(login, username, "grid-password")).result().value().token();
        RequestHeader anchor = next(ReplySize.ORIGINAL);
        anchorAuctionId = client.invoke(s -> s.postAuction(anchor, token,
                new AuctionDraft("anchor of " + clientId, "viewed by sized-reply configurations", 100, 86_400)))
                .result().value().auctionId();
    }

    public RequestHeader next(ReplySize size) {
        return new RequestHeader(clientId, nextSeq++, size);
    }

    /** The next header, with the replica's probes on or off (off only to measure what probes cost). */
    public RequestHeader next(ReplySize size, boolean probes) {
        return new RequestHeader(clientId, nextSeq++, size, probes);
    }

    @Override
    public void close() {
        client.close();
    }
}
