package org.ftlab.harness.bench;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicReference;
import org.ftlab.auction.api.AuctionDetails;
import org.ftlab.auction.api.AuctionDraft;
import org.ftlab.auction.api.AuctionPosted;
import org.ftlab.auction.api.MicroClock;
import org.ftlab.auction.api.Reply;
import org.ftlab.auction.api.ReplySize;
import org.ftlab.auction.api.RequestHeader;
import org.ftlab.harness.analysis.LatencyStats;
import org.ftlab.harness.failover.FailoverClient;
import org.ftlab.harness.failover.Outcome;
import org.ftlab.harness.lab.ManagedLab;
import org.ftlab.harness.probe.ProbeTable;
import org.ftlab.os.access.DatabaseEndpoint;
import org.ftlab.rm.api.Platform;

/**
 * Fault-free latency and throughput of the service against the floors of the same stack, measured in rounds so that
 * every comparison is a ratio within one round (the machine is shared and noisy):
 * <ul>
 * <li>{@code noop}: {@code ping()}, a remote EJB call that touches no database — what WildFly remoting costs;</li>
 * <li>{@code jdbc}: the view's data read with one prepared statement over Connector/J from this process — what the
 * database round trip costs;</li>
 * <li>{@code jdbc-log}: the request-log lookup every state-changing request starts with (primary key
 * {@code (client_id, seq)}), over Connector/J from this process;</li>
 * <li>{@code view}, {@code post}: the grid's invocations, through the fail-over client with probes recorded; a
 * view reads the client's own {@value #VIEWED_AUCTIONS} most recent posts in turn, as the grid's views do;</li>
 * <li>{@code view-no-probes}: the same view with no probe taken on either side, run right after or before
 * {@code view} (alternating each round), for the probe overhead;</li>
 * <li>{@code noop-rest}, {@code view-rest}, {@code post-rest}: {@code noop}, {@code view} and {@code post} through
 * the HTTP door (JSON over WildFly's JAX-RS) instead of remote EJB, by clients of their own: the platform's ratio in
 * the same round.</li>
 * </ul>
 * A first round warms both JVMs up and is not kept. Latency is measured by {@link System#nanoTime()} around each
 * call, independently of the probes. Each client is a
 * thread with its own proxies, think time 0; throughput is the requests of all clients over the wall time from a
 * common start to the last client's end.
 */
public final class ServiceBench {
    public static final List<String> WORKLOADS = List.of("noop", "jdbc", "jdbc-log", "view", "view-no-probes",
            "post", "noop-rest", "view-rest", "post-rest");
    /** The suffix of a workload sent through the HTTP door. */
    static final String REST = "-rest";

    /** One workload run: latency statistics (µs) and throughput (requests/s). */
    public record Sample(String workload, int clients, int round, LatencyStats stats, double throughputPerS) {
    }

    private final ManagedLab lab;
    private final PrintWriter out;

    public ServiceBench(ManagedLab lab, PrintWriter out) {
        this.lab = lab;
        this.out = out;
    }

    /** Runs {@code rounds} rounds of every workload with each client count; returns all samples. */
    public List<Sample> run(int rounds, List<Integer> clientCounts, int requestsPerClient, int warmupPerClient)
            throws Exception {
        return run(rounds, clientCounts, requestsPerClient, warmupPerClient, WORKLOADS);
    }

    /** Runs {@code rounds} rounds of the given workloads (of {@link #WORKLOADS}) with each client count. */
    public List<Sample> run(int rounds, List<Integer> clientCounts, int requestsPerClient, int warmupPerClient,
            List<String> workloads) throws Exception {
        DatabaseEndpoint db = DatabaseEndpoint.loadForAudits(lab.runDir());
        int maxClients = clientCounts.stream().mapToInt(Integer::intValue).max().orElse(1);
        List<BenchClient> sessions = new ArrayList<>();
        List<BenchClient> restSessions = new ArrayList<>();
        try {
            for (int c = 0; c < maxClients; c++) {
                sessions.add(BenchClient.open(lab, "preconnected", "bench-" + c + "-"
                        + Long.toString(System.nanoTime() % 1_000_000, 36)));
                if (workloads.stream().anyMatch(w -> w.endsWith(REST))) {
                    restSessions.add(BenchClient.open(lab, "preconnected", "bench-rest-" + c + "-"
                            + Long.toString(System.nanoTime() % 1_000_000, 36), Platform.REST));
                }
            }
            List<Sample> samples = new ArrayList<>();
            // Round 0 warms up both JVMs (JIT, pools) and is not kept.
            for (int round = 0; round <= rounds; round++) {
                for (int n : clientCounts) {
                    List<String> order = new ArrayList<>(workloads);
                    if (round % 2 == 0 && order.contains("view") && order.contains("view-no-probes")) {
                        // A/B interleaving: the probe pair swaps order every round
                        order.set(order.indexOf("view"), "tmp");
                        order.set(order.indexOf("view-no-probes"), "view");
                        order.set(order.indexOf("tmp"), "view-no-probes");
                    }
                    for (String w : order) {
                        Sample s = measure(w, (w.endsWith(REST) ? restSessions : sessions).subList(0, n), db, round,
                                requestsPerClient, warmupPerClient);
                        if (round == 0) {
                            continue;
                        }
                        samples.add(s);
                        out.printf(Locale.ROOT, "  round %d, %2d client%s, %-15s mean %7.3f ms  p50 %7.3f  p99 %7.3f"
                                + "  %8.0f req/s%n", round, n, n == 1 ? " " : "s", w, s.stats().mean() / 1e3,
                                s.stats().median() / 1e3, s.stats().p99() / 1e3, s.throughputPerS());
                        out.flush();
                    }
                }
            }
            return samples;
        } finally {
            sessions.forEach(BenchClient::close);
            restSessions.forEach(BenchClient::close);
        }
    }

    private Sample measure(String workload, List<BenchClient> clients, DatabaseEndpoint db, int round,
            int requests, int warmup) throws Exception {
        int n = clients.size();
        long[] startNanos = new long[1];
        // The start time is taken by the barrier itself, as the clients are released: a thread that reads the clock
        // after its own await may run only after fast clients have finished.
        CyclicBarrier start = new CyclicBarrier(n + 1, () -> startNanos[0] = System.nanoTime());
        long[][] latencies = new long[n][];
        long[] endNanos = new long[n];
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < n; c++) {
            int id = c;
            BenchClient s = clients.get(c);
            Thread t = new Thread(() -> {
                try (Connection jdbc = workload.startsWith("jdbc") ? db.connect() : null) {
                    Op op = op(workload, s, jdbc, requests + warmup);
                    for (int i = 0; i < warmup; i++) {
                        op.run();
                    }
                    start.await();
                    long[] l = new long[requests];
                    for (int i = 0; i < requests; i++) {
                        long t0 = System.nanoTime();
                        op.run();
                        l[i] = (System.nanoTime() - t0) / 1000;
                    }
                    endNanos[id] = System.nanoTime();
                    latencies[id] = l;
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                    start.reset();
                }
            }, "bench-client-" + c);
            threads.add(t);
            t.start();
        }
        try {
            start.await();
        } catch (BrokenBarrierException e) {
            // a client failed during warm-up; reported below
        }
        for (Thread t : threads) {
            t.join();
        }
        long t0 = startNanos[0];
        if (failure.get() != null) {
            throw new IllegalStateException(workload + " with " + n + " clients failed: " + failure.get(),
                    failure.get());
        }
        long end = 0;
        int total = 0;
        for (int c = 0; c < n; c++) {
            end = Math.max(end, endNanos[c]);
            total += latencies[c].length;
        }
        long[] all = new long[total];
        int k = 0;
        for (long[] l : latencies) {
            System.arraycopy(l, 0, all, k, l.length);
            k += l.length;
        }
        return new Sample(workload, n, round, LatencyStats.of(all), total / ((end - t0) / 1e9));
    }

    @FunctionalInterface
    private interface Op {
        void run() throws Exception;
    }

    private static Op op(String workload, BenchClient s, Connection jdbc, int capacity) throws Exception {
        FailoverClient client = s.client;
        // a -rest workload is its base workload, sent by a client over the HTTP door
        switch (workload.endsWith(REST) ? workload.substring(0, workload.length() - REST.length()) : workload) {
            case "noop":
                return () -> client.invoke(svc -> svc.ping());
            case "jdbc": {
                PreparedStatement ps = jdbc.prepareStatement("SELECT a.id, a.title, a.description, "
                        + "a.starting_price_cents, a.highest_bid_cents, a.bid_count, a.closes_at, s.username "
                        + "FROM auction a JOIN account s ON s.id = a.seller_id WHERE a.id = ?");
                return () -> {
                    ps.setLong(1, s.anchorAuctionId);
                    try (ResultSet rs = ps.executeQuery()) {
                        if (!rs.next()) {
                            throw new IllegalStateException("auction " + s.anchorAuctionId + " not found");
                        }
                        rs.getString(8);
                    }
                };
            }
            case "jdbc-log": {
                // The client's own createAccount request (seq 0) is in the log: the lookup finds a row.
                PreparedStatement ps = jdbc.prepareStatement("SELECT reply FROM request_log WHERE client_id = ? "
                        + "AND seq = ?");
                return () -> {
                    ps.setString(1, s.clientId);
                    ps.setLong(2, 0);
                    try (ResultSet rs = ps.executeQuery()) {
                        if (!rs.next()) {
                            throw new IllegalStateException("request log has no (" + s.clientId + ", 0)");
                        }
                        rs.getBytes(1);
                    }
                };
            }
            case "view": {
                ProbeTable table = new ProbeTable(s.clientId, capacity);
                long[] auctions = postedAuctions(s);
                int[] next = {0};
                return () -> {
                    RequestHeader h = s.next(ReplySize.ORIGINAL);
                    long auction = auctions[next[0]++ % auctions.length];
                    long sent = MicroClock.nowEpochMicros();
                    Outcome<Reply<AuctionDetails>> o =
                            client.invoke("viewAuction", svc -> svc.viewAuction(h, auction));
                    long received = MicroClock.nowEpochMicros();
                    if (table.size() < capacity) {
                        table.recordOk(h.seq(), "viewAuction", -1, sent, received, o.result());
                    }
                };
            }
            case "view-no-probes": {
                long[] auctions = postedAuctions(s);
                int[] next = {0};
                return () -> {
                    RequestHeader h = s.next(ReplySize.ORIGINAL, false);
                    long auction = auctions[next[0]++ % auctions.length];
                    client.invoke("viewAuction", svc -> svc.viewAuction(h, auction));
                };
            }
            case "post": {
                ProbeTable table = new ProbeTable(s.clientId, capacity);
                return () -> {
                    RequestHeader h = s.next(ReplySize.ORIGINAL);
                    AuctionDraft draft = new AuctionDraft(s.clientId + "#" + h.seq(), "bench", 100, 86_400);
                    long sent = MicroClock.nowEpochMicros();
                    Outcome<Reply<AuctionPosted>> o =
                            client.invoke("postAuction", svc -> svc.postAuction(h, s.token, draft));
                    if (table.size() < capacity) {
                        table.recordOk(h.seq(), "postAuction", -1, sent, MicroClock.nowEpochMicros(), o.result());
                    }
                };
            }
            default:
                throw new IllegalArgumentException("unknown workload " + workload);
        }
    }

    /**
     * Auctions a view workload reads in turn, posted by the client before it is timed: like the grid's views, which
     * read the client's own posts one after another, not one row over and over (always hot in every cache).
     */
    static final int VIEWED_AUCTIONS = 100;

    private static long[] postedAuctions(BenchClient s) throws Exception {
        long[] ids = new long[VIEWED_AUCTIONS];
        for (int i = 0; i < ids.length; i++) {
            RequestHeader h = s.next(ReplySize.ORIGINAL);
            AuctionDraft draft = new AuctionDraft(s.clientId + "#" + h.seq(), "bench: viewed", 100, 86_400);
            ids[i] = s.client.invoke("postAuction", svc -> svc.postAuction(h, s.token, draft)).result().value()
                    .auctionId();
        }
        return ids;
    }

    /** Medians over rounds, per workload and client count, and the same-round ratios. */
    public static Map<String, Object> summarize(List<Sample> samples) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (int n : samples.stream().map(Sample::clients).distinct().toList()) {
            Map<String, Object> perClients = new LinkedHashMap<>();
            for (String w : WORKLOADS) {
                List<Sample> s = samples.stream().filter(x -> x.clients() == n && x.workload().equals(w)).toList();
                if (s.isEmpty()) {
                    continue;
                }
                Map<String, Object> f = new LinkedHashMap<>();
                f.put("mean_us", Spread.of(s.stream().mapToDouble(x -> x.stats().mean()).toArray()));
                f.put("p50_us", Spread.of(s.stream().mapToDouble(x -> x.stats().median()).toArray()));
                f.put("p99_us", Spread.of(s.stream().mapToDouble(x -> x.stats().p99()).toArray()));
                f.put("max_us", Spread.of(s.stream().mapToDouble(x -> x.stats().max()).toArray()));
                f.put("throughput_per_s", Spread.of(s.stream().mapToDouble(Sample::throughputPerS).toArray()));
                f.put("p99_over_mean", Spread.of(s.stream().mapToDouble(x -> x.stats().p99() / x.stats().mean())
                        .toArray()));
                f.put("requests_per_round", s.get(0).stats().count());
                perClients.put(w, f);
            }
            Map<String, Object> ratios = new LinkedHashMap<>();
            ratios.put("view_over_noop", ratio(samples, n, "view", "noop"));
            ratios.put("view_over_jdbc", ratio(samples, n, "view", "jdbc"));
            ratios.put("post_over_noop", ratio(samples, n, "post", "noop"));
            Spread overhead = ratio(samples, n, "view", "view-no-probes");
            ratios.put("probe_overhead_fraction", overhead == null ? null
                    : new Spread(overhead.median() - 1, overhead.min() - 1, overhead.max() - 1, overhead.n()));
            // the platform: the HTTP door's mean over remote EJB's, same round
            ratios.put("noop_rest_over_noop", ratio(samples, n, "noop-rest", "noop"));
            ratios.put("view_rest_over_view", ratio(samples, n, "view-rest", "view"));
            ratios.put("post_rest_over_post", ratio(samples, n, "post-rest", "post"));
            perClients.put("ratios_of_means_same_round", ratios);
            out.put(n + (n == 1 ? "_client" : "_clients"), perClients);
        }
        return out;
    }

    private static Spread ratio(List<Sample> samples, int n, String a, String b) {
        List<Double> r = new ArrayList<>();
        for (int round : samples.stream().map(Sample::round).distinct().toList()) {
            Sample x = find(samples, n, a, round);
            Sample y = find(samples, n, b, round);
            if (x != null && y != null) {
                r.add(x.stats().mean() / y.stats().mean());
            }
        }
        return r.isEmpty() ? null : Spread.of(r.stream().mapToDouble(Double::doubleValue).toArray());
    }

    private static Sample find(List<Sample> samples, int n, String w, int round) {
        return samples.stream().filter(s -> s.clients() == n && s.workload().equals(w) && s.round() == round)
                .findFirst().orElse(null);
    }

    /** The median (nearest rank, as everywhere in ftlab) and the range of a figure over repeated runs. */
    public record Spread(double median, double min, double max, int n) {
        public static Spread of(double[] v) {
            double[] s = v.clone();
            Arrays.sort(s);
            return new Spread(s[(s.length - 1) / 2], s[0], s[s.length - 1], s.length);
        }
    }
}
