package org.ftlab.harness.grid;

import java.time.Duration;
import org.ftlab.auction.api.AuctionDraft;
import org.ftlab.auction.api.ReplySize;
import org.ftlab.auction.api.RequestHeader;
import org.ftlab.harness.failover.ClientTuning;
import org.ftlab.harness.failover.FailoverClient;
import org.ftlab.harness.failover.Strategies;
import org.ftlab.harness.lab.ManagedLab;

/**
 * One grid client for the whole run: its own id, fail-over client (its own proxies) and login. Set up once, before
 * any measurement, so that configurations measure only their invocations. Sequence numbers continue across
 * configurations, so (clientId, seq) stays unique for the run. In open loop one client has several requests in
 * flight at once, on the same fail-over client (which is safe for concurrent invocations).
 */
public final class ClientSession implements AutoCloseable {
    public final String clientId;
    public final FailoverClient client;
    public final String token;
    /** An auction posted with the natural reply, viewed when sized replies carry no auction ids. */
    public final long anchorAuctionId;
    private long nextSeq;
    /** Open loop only: the threads that carry this client's concurrent requests. */
    private java.util.concurrent.ThreadPoolExecutor workers;

    /** How long one request may keep failing over before the client gives it up. */
    public static final Duration GIVE_UP = Duration.ofSeconds(60);

    /** A client of a built-in strategy with adaptive timing. */
    public ClientSession(ManagedLab lab, String strategy, String clientId) throws Exception {
        this(lab, Strategies.named(strategy), ClientTuning.ADAPTIVE, clientId);
    }

    /** A client of strategy {@code kind} with the given timing knobs. */
    public ClientSession(ManagedLab lab, Strategies.Kind kind, ClientTuning tuning, String clientId)
            throws Exception {
        this.clientId = clientId;
        this.client = new FailoverClient(lab.manager(), lab.user(), kind, tuning, GIVE_UP);
        try {
            String username = clientId.replace('-', '_');
            RequestHeader create = next(ReplySize.ORIGINAL);
            client.invoke(s -> s.createAccount(create, username, "grid-password"));
            RequestHeader login = next(ReplySize.ORIGINAL);
            token = client.invoke(s -> s.login(login, username, "grid-password")).result().value().token();
            RequestHeader anchor = next(ReplySize.ORIGINAL);
            anchorAuctionId = client.invoke(s -> s.postAuction(anchor, token,
                    new AuctionDraft("anchor of " + clientId, "viewed by sized-reply configurations", 100, 86_400)))
                    .result().value().auctionId();
        } catch (Exception | Error e) {
            client.close();
            throw e;
        }
    }

    /** The next header; sequence numbers are handed out by one thread (the one that schedules requests). */
    public RequestHeader next(ReplySize size) {
        return new RequestHeader(clientId, nextSeq++, size);
    }

    /**
     * The pool of at least {@code threads} workers that carry this client's concurrent open-loop requests (created at
     * first use, grown when a configuration needs more; each block caps its own requests in flight).
     */
    public synchronized java.util.concurrent.ExecutorService workers(int threads) {
        if (workers == null) {
            workers = new java.util.concurrent.ThreadPoolExecutor(threads, threads, 60, java.util.concurrent.TimeUnit
                    .SECONDS, new java.util.concurrent.LinkedBlockingQueue<>(), r -> {
                        Thread t = new Thread(r, clientId + "-worker");
                        t.setDaemon(true);
                        return t;
                    });
            workers.prestartAllCoreThreads();
        } else if (workers.getMaximumPoolSize() < threads) {
            workers.setMaximumPoolSize(threads);
            workers.setCorePoolSize(threads);
            workers.prestartAllCoreThreads();
        }
        return workers;
    }

    /** The next header, with the replica's probes on or off (off only to measure what probes cost). */
    public RequestHeader next(ReplySize size, boolean probes) {
        return new RequestHeader(clientId, nextSeq++, size, probes);
    }

    @Override
    public void close() {
        synchronized (this) {
            if (workers != null) {
                workers.shutdownNow();
            }
        }
        client.close();
    }
}
