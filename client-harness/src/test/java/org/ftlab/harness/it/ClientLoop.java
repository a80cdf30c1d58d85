package org.ftlab.harness.it;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.ftlab.auction.api.AuctionDraft;
import org.ftlab.auction.api.ReplySize;
import org.ftlab.auction.api.RequestHeader;
import org.ftlab.harness.failover.ClientTuning;
import org.ftlab.harness.failover.FailoverClient;
import org.ftlab.harness.failover.Outcome;
import org.ftlab.harness.failover.Shadow;
import org.ftlab.harness.failover.Strategies;
import org.ftlab.harness.lab.ManagedLab;
import org.ftlab.rm.api.Platform;

/**
 * A test client in its own thread: creates an account, logs in, then posts {@code posts} auctions titled
 * {@code <clientId>#<seq>} through a {@link FailoverClient}, recording every outcome.
 */
final class ClientLoop implements Runnable {
    final String clientId;
    final int posts;
    final AtomicInteger done = new AtomicInteger();
    final List<Outcome<?>> outcomes = new ArrayList<>();
    final List<Long> postSeqs = new ArrayList<>();
    private final ManagedLab lab;
    private final String strategy;
    private final long thinkMillis;
    volatile Throwable failure;
    /** The client's own thread, once {@link #start}ed. */
    final Thread thread;
    /** The client's invocation timeout after its latest request, ms. */
    volatile long invocationTimeoutMillis = Long.MAX_VALUE;
    /** The client's false suspicions when it finished. */
    final AtomicInteger falseSuspicions = new AtomicInteger();

    /** The share of its posts the client also sends to every backup as shadows (0: none). */
    private double shadowShare;
    /** What the client's shadows did, once it finished. */
    volatile Shadow.Counts shadows;

    ClientLoop(ManagedLab lab, String strategy, String clientId, int posts, long thinkMillis) {
        this.lab = lab;
        this.strategy = strategy;
        this.clientId = clientId;
        this.posts = posts;
        this.thinkMillis = thinkMillis;
        this.thread = new Thread(this, clientId);
        thread.setDaemon(true);
    }

    /** The middleware the client reaches the replicas through (remote EJB unless {@link #over} says otherwise). */
    private Platform platform = Platform.EJB;

    /** This client over {@code p}. */
    ClientLoop over(Platform p) {
        this.platform = p;
        return this;
    }

    /** This client with shadow traffic: {@code share} of its answered posts also go to every backup as shadows. */
    ClientLoop withShadows(double share) {
        this.shadowShare = share;
        return this;
    }

    /** Starts the client in its own thread; returns it. */
    ClientLoop start() {
        thread.start();
        return this;
    }

    @Override
    public void run() {
        FailoverClient client = null;
        try (FailoverClient c = new FailoverClient(lab.manager(), lab.user(), Strategies.named(strategy),
                new ClientTuning(null, null, shadowShare), Duration.ofSeconds(60), platform)) {
            client = c;
            long seq = 0;
            RequestHeader create = new RequestHeader(clientId, seq++, ReplySize.ORIGINAL);
            String user = clientId.replace('-', '_');
            client.invoke(s -> s.createAccount(create, user, "long-enough"));
            RequestHeader login = new RequestHeader(clientId, seq++, ReplySize.ORIGINAL);
            String token = client.invoke(s -> s.login(login, user, "long-enough")).result().value().token();
            for (int i = 0; i < posts; i++) {
                RequestHeader h = new RequestHeader(clientId, seq++, ReplySize.ORIGINAL);
                AuctionDraft draft = new AuctionDraft(clientId + "#" + h.seq(), "posted under faults", 100, 3600);
                Outcome<?> o = client.invoke("postAuction", s -> s.postAuction(h, token, draft));
                RequestHeader shadow = h.shadow();
                client.mirror(s -> s.postAuction(shadow, token, draft));
                synchronized (outcomes) {
                    outcomes.add(o);
                    postSeqs.add(h.seq());
                }
                invocationTimeoutMillis = client.invocationTimeoutMillis();
                done.incrementAndGet();
                if (thinkMillis > 0) {
                    Thread.sleep(thinkMillis);
                }
            }
            Thread.sleep(500); // let a pending suspicion report come back
            falseSuspicions.set(client.falseSuspicions());
        } catch (Throwable t) {
            failure = t;
        }
        if (client != null) {
            shadows = client.shadowCounts(); // after close: every queued shadow was sent
        }
    }

    List<Outcome<?>> outcomes() {
        synchronized (outcomes) {
            return List.copyOf(outcomes);
        }
    }
}
