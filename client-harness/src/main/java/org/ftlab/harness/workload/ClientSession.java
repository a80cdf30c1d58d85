package org.ftlab.harness.workload;

import java.io.Serializable;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.ftlab.auction.api.Reply;
import org.ftlab.auction.api.ReplySize;
import org.ftlab.auction.api.RequestHeader;
import org.ftlab.harness.failover.Call;
import org.ftlab.harness.failover.ClientTuning;
import org.ftlab.harness.failover.FailoverClient;
import org.ftlab.harness.failover.Outcome;
import org.ftlab.harness.failover.Strategies;
import org.ftlab.harness.history.History;
import org.ftlab.harness.history.Invocation;
import org.ftlab.harness.lab.ManagedLab;
import org.ftlab.rm.api.Platform;

/**
 * One client for the whole run: its own id, fail-over client (its own proxies) and sequence numbers, which continue
 * across configurations, so (clientId, seq) stays unique for the run. What the client does is its workload's
 * ({@link Workload#open}). In open loop one client has several requests in flight at once, on the same fail-over
 * client (which is safe for concurrent invocations).
 */
public final class ClientSession implements AutoCloseable {
    /** How long one request may keep failing over before the client gives it up. */
    public static final Duration GIVE_UP = Duration.ofSeconds(60);

    public final String clientId;
    public final FailoverClient client;
    private long nextSeq;
    /** False while the lab's observation is switched off (the replica then reads no scheduler counters). */
    private volatile boolean observed = true;
    /** Open loop only: the threads that carry this client's concurrent requests. */
    private ThreadPoolExecutor workers;
    /** Where this client's operations enter the run's history; null when nothing records one. */
    private volatile History.Client history;

    /** A session of {@code client}, which it closes. */
    public ClientSession(String clientId, FailoverClient client) {
        this.clientId = clientId;
        this.client = client;
    }

    /** A client of a built-in strategy with adaptive timing on {@code lab}, over remote EJB. */
    public static ClientSession on(ManagedLab lab, String strategy, String clientId) throws Exception {
        return on(lab, strategy, clientId, Platform.EJB);
    }

    /** As above, over middleware {@code platform}. */
    public static ClientSession on(ManagedLab lab, String strategy, String clientId, Platform platform)
            throws Exception {
        return new ClientSession(clientId, new FailoverClient(lab.manager(), lab.user(), Strategies.named(strategy),
                ClientTuning.ADAPTIVE, GIVE_UP, platform));
    }

    /** Records this client's operations, from now on, in {@code run}'s history. */
    public void recordInto(History run) {
        this.history = run.client(clientId);
    }

    /**
     * Records the invocation of {@code op}, request {@code seq}, in the run's history; returns its completion to
     * record, or null when no history is kept.
     */
    public History.Operation invoked(Invocation op, long seq) {
        History.Client h = history;
        return h == null ? null : h.invoke(op, seq);
    }

    /**
     * Sends one request outside the grid's timed requests (a client's setup: its account, its auctions) and records
     * it in the run's history like any other: {@code op} its invocation, {@code reply} what the history keeps of the
     * reply's value, {@code key} the key the reply names (null: the invocation's).
     */
    public <T extends Serializable> Outcome<Reply<T>> invoke(Invocation op, RequestHeader header,
            Call<Reply<T>> call, Function<T, Object> reply, Function<T, String> key) throws Exception {
        History.Operation h = invoked(op, header.seq());
        try {
            Outcome<Reply<T>> o = client.invoke(call);
            if (h != null) {
                T value = o.result().value();
                h.ok(value == null ? null : reply.apply(value), o.servedBy(), value == null ? null : key.apply(value));
            }
            return o;
        } catch (Exception e) {
            if (h != null) {
                h.failed(e);
            }
            throw e;
        }
    }

    /**
     * Creates this client's account (its id as the username) and logs in: returns the login token. Every workload's
     * client starts so.
     */
    public String signUp() throws Exception {
        String username = username();
        String account = "account " + username;
        RequestHeader create = next(ReplySize.ORIGINAL);
        invoke(new Invocation("create-account", account, Map.of("username", username)), create,
                svc -> svc.createAccount(create, username, "grid-password"), a -> Map.of("account", a.accountId()),
                a -> null);
        RequestHeader login = next(ReplySize.ORIGINAL);
        return invoke(new Invocation("login", account, Map.of("username", username)), login,
                svc -> svc.login(login, username, "grid-password"), t -> Map.of("account", t.accountId()),
                t -> null).result().value().token();
    }

    /** The username of this client's account, as the service knows it. */
    public String username() {
        return clientId.replace('-', '_');
    }

    /** The next header; sequence numbers are handed out by one thread (the one that schedules requests). */
    public RequestHeader next(ReplySize size) {
        RequestHeader h = new RequestHeader(clientId, nextSeq++, size);
        return observed ? h : h.unobserved();
    }

    /**
     * Whether this client's next requests are observed beyond their timestamps (the replica's and this client's
     * scheduler counters); switched off only to measure what observing costs (docs/performance.md §8).
     */
    public void observed(boolean on) {
        observed = on;
    }

    /** The next header, with the replica's probes on or off (off only to measure what probes cost). */
    public RequestHeader next(ReplySize size, boolean probes) {
        return new RequestHeader(clientId, nextSeq++, size, probes);
    }

    /**
     * The pool of at least {@code threads} workers that carry this client's concurrent open-loop requests (created at
     * first use, grown when a configuration needs more; each block caps its own requests in flight).
     */
    public synchronized ExecutorService workers(int threads) {
        if (workers == null) {
            workers = new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                    r -> {
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
