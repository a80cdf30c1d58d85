package org.ftlab.harness.bench;

import org.ftlab.auction.api.AuctionDraft;
import org.ftlab.auction.api.ReplySize;
import org.ftlab.auction.api.RequestHeader;
import org.ftlab.harness.failover.FailoverClient;
import org.ftlab.harness.lab.ManagedLab;
import org.ftlab.harness.workload.ClientSession;
import org.ftlab.harness.workload.auction.AuctionWorkload.AuctionClient;
import org.ftlab.rm.api.Platform;

/** A bench client: a session on the lab with the auction workload's account, login and anchor auction. */
public final class BenchClient implements AutoCloseable {
    final ClientSession session;
    final String clientId;
    final FailoverClient client;
    final String token;
    final long anchorAuctionId;

    private BenchClient(ClientSession session, AuctionClient auction) {
        this.session = session;
        this.clientId = session.clientId;
        this.client = session.client;
        this.token = auction.token();
        this.anchorAuctionId = auction.anchorAuctionId();
    }

    /** A client of a built-in strategy on {@code lab}, set up as a grid client is. */
    public static BenchClient open(ManagedLab lab, String strategy, String clientId) throws Exception {
        return open(lab, strategy, clientId, Platform.EJB);
    }

    /** As above, over middleware {@code platform}. */
    static BenchClient open(ManagedLab lab, String strategy, String clientId, Platform platform)
            throws Exception {
        ClientSession s = ClientSession.on(lab, strategy, clientId, platform);
        try {
            return new BenchClient(s, AuctionClient.open(s));
        } catch (Exception | Error e) {
            s.close();
            throw e;
        }
    }

    /** The next request's header (the session's next sequence number). */
    public RequestHeader next(ReplySize size) {
        return session.next(size);
    }

    RequestHeader next(ReplySize size, boolean probes) {
        return session.next(size, probes);
    }

    /** Posts an auction titled {@code title} (natural reply); its id. */
    public long post(String title) throws Exception {
        RequestHeader header = next(ReplySize.ORIGINAL);
        AuctionDraft draft = new AuctionDraft(title, "posted by a bench client", 100, 86_400);
        return client.invoke(svc -> svc.postAuction(header, token, draft)).result().value().auctionId();
    }

    /** The auction the workload's set-up posted, which views read. */
    public long anchorAuctionId() {
        return anchorAuctionId;
    }

    @Override
    public void close() {
        session.close();
    }
}
