package org.ftlab.harness;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;
import org.ftlab.auction.api.AuctionDraft;
import org.ftlab.auction.api.AuctionPosted;
import org.ftlab.auction.api.MicroClock;
import org.ftlab.auction.api.Reply;
import org.ftlab.auction.api.ReplySize;
import org.ftlab.auction.api.RequestHeader;
import org.ftlab.harness.failover.FailoverClient;
import org.ftlab.harness.failover.FailoverStrategy;
import org.ftlab.harness.lab.ManagedLab;
import org.ftlab.harness.probe.ExactlyOnceAudit;
import org.ftlab.harness.probe.LatencySummary;
import org.ftlab.harness.probe.ProbeTable;
import org.ftlab.rm.ReplicationManager;
import org.ftlab.rm.db.DatabaseEndpoint;

/**
 * The demo: the Replication Manager (with the Fault Detector, the database and the replicas), one client looping
 * post-auction then view-auction against the primary through the fail-over library, crashes of the primary injected
 * mid-run (SIGKILL), an audit that every post was stored exactly once, a summary, and a clean stop of everything,
 * on Ctrl-C too.
 */
public final class DemoRun {
    /** What the demo does; {@code externalDatabase} null: the embedded database. */
    public record Settings(Path runDir, Path serverHome, DatabaseEndpoint externalDatabase, int replicas,
            int invocations, ReplySize replySize, FailoverStrategy strategy, int crashes, boolean hang) {
    }

    private final Settings settings;
    private volatile boolean aborted;

    public DemoRun(Settings settings) {
        this.settings = settings;
    }

    /** Runs the demo; returns the process exit code. */
    public int run(PrintWriter out) throws Exception {
        Path runDir = settings.runDir().toAbsolutePath();
        Files.createDirectories(runDir);
        out.println("ftlab demo: run directory " + runDir);
        long t0 = System.nanoTime();
        ManagedLab lab = ManagedLab.start(new ManagedLab.Options(runDir, settings.serverHome(), settings.replicas(),
                settings.externalDatabase(), 100, 500, true));
        Thread onInterrupt = new Thread(() -> {
            aborted = true;
            lab.close();
        }, "ftlab-demo-shutdown");
        Runtime.getRuntime().addShutdownHook(onInterrupt);
        try {
            printLab(out, lab, (System.nanoTime() - t0) / 1e9);
            List<ReplicationManager.InjectedFault> faults = new ArrayList<>();
            ProbeTable probes = clientLoop(lab, faults, out);
            if (aborted) {
                return 130;
            }
            String audit = audit(lab, probes);
            Path probeFile = runDir.resolve("probes/demo.csv");
            ProbeTable.writeCsv(probeFile, List.of(probes));
            String summary = summary(probes) + faultSummary(lab, faults, probes) + audit + "\n";
            writeAtomically(runDir.resolve("summary.txt"), summary);
            out.print(summary);
            out.println("probes: " + probeFile);
            out.flush();
            return 0;
        } finally {
            if (!aborted) {
                lab.close();
                Runtime.getRuntime().removeShutdownHook(onInterrupt);
            }
        }
    }

    private static void printLab(PrintWriter out, ManagedLab lab, double seconds) throws IOException {
        JsonNode status = lab.manager().status();
        out.printf(Locale.ROOT, "lab ready in %.1f s: replication manager %s (pid %d), fault detector pid %d "
                + "(heartbeat %d ms, timeout %d ms)%n", seconds, lab.manager().url(), lab.pid(),
                status.path("faultDetectorPid").asLong(), status.path("heartbeatMs").asLong(),
                status.path("timeoutMs").asLong());
        out.println("database: " + status.path("database").asText().replaceAll("\\?.*", ""));
        for (JsonNode r : status.path("replicas")) {
            out.printf(Locale.ROOT, "replica %s: pid %d, %s, ready in %.1f s (%s)%n", r.path("name").asText(),
                    r.path("pid").asLong(), r.path("uri").asText(), r.path("startupMs").asLong() / 1000.0,
                    r.path("state").asText());
        }
        out.flush();
    }

    private ProbeTable clientLoop(ManagedLab lab, List<ReplicationManager.InjectedFault> faults, PrintWriter out)
            throws Exception {
        String clientId = "demo-" + ProcessHandle.current().pid();
        int invocations = settings.invocations();
        ProbeTable probes = new ProbeTable(clientId, invocations);
        ReplySize replySize = settings.replySize();
        int sizedBytes = replySize.isOriginal() ? -1 : replySize.bytes();
        int[] crashAt = IntStream.rangeClosed(1, settings.crashes())
                .map(k -> (int) ((long) invocations * k / (settings.crashes() + 1))).toArray();
        try (FailoverClient client = new FailoverClient(lab.manager(), lab.user(), settings.strategy(),
                Duration.ofMillis(1000), Duration.ofSeconds(60))) {
            long seq = 0;
            String username = "seller" + Long.toString(System.nanoTime() & 0xffffffL, 36);
            RequestHeader create = new RequestHeader(clientId, seq++, ReplySize.ORIGINAL);
            client.invoke(s -> s.createAccount(create, username, "demo-password"));
            RequestHeader login = new RequestHeader(clientId, seq++, ReplySize.ORIGINAL);
            String token = client.invoke(s -> s.login(login, username, "demo-password")).result().value().token();
            // An auction posted with the natural reply, so its id is known even when the loop asks for sized replies
            // (a sized reply is payload bytes, not an id); sized runs view this one.
            RequestHeader anchor = new RequestHeader(clientId, seq++, ReplySize.ORIGINAL);
            long anchorId = client.invoke(s -> s.postAuction(anchor, token,
                    new AuctionDraft("Demo anchor item", "Viewed by sized-reply demo runs", 100, 3600)))
                    .result().value().auctionId();
            int posts = invocations / 2;
            long[] auctionIds = new long[posts];
            int nextCrash = 0;
            for (int i = 0; i < invocations && !aborted; i++) {
                if (nextCrash < crashAt.length && i == crashAt[nextCrash]) {
                    nextCrash++;
                    awaitFullDegree(lab);
                    ReplicationManager.InjectedFault f = lab.manager().inject(
                            settings.hang() ? "hang-primary" : "crash-primary", null);
                    faults.add(f);
                    out.printf(Locale.ROOT, "fault %s: %s to primary %s (pid %d) before invocation %d%n",
                            f.faultId(), settings.hang() ? "SIGSTOP" : "SIGKILL", f.replica(), f.pid(), i);
                    out.flush();
                }
                RequestHeader h = new RequestHeader(clientId, seq++, replySize);
                long sent = MicroClock.nowEpochMicros();
                FailoverClient.Outcome<? extends Reply<?>> o;
                String method;
                if (i < posts) {
                    method = "postAuction";
                    AuctionDraft draft = new AuctionDraft(clientId + "#" + h.seq(), "Posted by the ftlab demo",
                            100 + i, 3600);
                    FailoverClient.Outcome<Reply<AuctionPosted>> post = client.invoke(s -> s.postAuction(h, token,
                            draft));
                    auctionIds[i] = post.result().value() != null ? post.result().value().auctionId() : anchorId;
                    o = post;
                } else {
                    method = "viewAuction";
                    long auctionId = auctionIds[(i - posts) % posts];
                    o = client.invoke(s -> s.viewAuction(h, auctionId));
                }
                long received = MicroClock.nowEpochMicros();
                if (o.faulty()) {
                    String fault = faults.isEmpty() ? null : faults.get(faults.size() - 1).faultId();
                    probes.recordRetried(h.seq(), method, sizedBytes, sent, received, o.result(), o.phases(), fault);
                } else {
                    probes.recordOk(h.seq(), method, sizedBytes, sent, received, o.result());
                }
            }
        }
        return probes;
    }

    /** Injects the next crash only once the previous one was repaired (two replicas serving again). */
    private static void awaitFullDegree(ManagedLab lab) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        while (true) {
            JsonNode s = lab.manager().status();
            if (s.path("degree").asInt() >= s.path("targetDegree").asInt() || System.nanoTime() > deadline) {
                return;
            }
            Thread.sleep(100);
        }
    }

    /** Every post the client sent is stored exactly once: one auction row each, nothing else. */
    private static String audit(ManagedLab lab, ProbeTable probes) throws Exception {
        ExactlyOnceAudit.Result result = ExactlyOnceAudit.check(DatabaseEndpoint.loadForAudits(lab.runDir()),
                List.of(probes));
        if (!result.passed()) {
            throw new IllegalStateException(result.summary());
        }
        return result.summary();
    }

    private static String faultSummary(ManagedLab lab, List<ReplicationManager.InjectedFault> faults,
            ProbeTable probes) throws IOException {
        if (faults.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "%-6s %-8s %-6s %12s %12s %12s%n", "fault", "replica", "kind",
                "detect ms", "promote ms", "restore s"));
        JsonNode failures = lab.manager().status().path("failures");
        for (ReplicationManager.InjectedFault f : faults) {
            for (JsonNode r : failures) {
                if (r.path("faultId").asText().equals(f.faultId())) {
                    long injected = r.path("injectedEpochUs").asLong();
                    long restored = r.path("restoredEpochUs").asLong();
                    sb.append(String.format(Locale.ROOT, "%-6s %-8s %-6s %12.1f %12.1f %12s%n", f.faultId(),
                            f.replica(), r.path("kind").asText(),
                            (r.path("detectedEpochUs").asLong() - injected) / 1000.0,
                            (r.path("promotedEpochUs").asLong() - injected) / 1000.0,
                            restored == 0 ? "pending" : String.format(Locale.ROOT, "%.1f",
                                    (restored - injected) / 1e6)));
                }
            }
        }
        List<long[]> phases = new ArrayList<>();
        for (int i = 0; i < probes.size(); i++) {
            if (probes.phasesAt(i) != null) {
                phases.add(probes.phasesAt(i));
            }
        }
        sb.append(String.format(Locale.ROOT, "faulty invocations: %d; median phases (ms): detection %.1f, "
                + "fail-over %.1f, retry %.1f%n", phases.size(), median(phases, 0), median(phases, 1),
                median(phases, 2)));
        return sb.toString();
    }

    private static double median(List<long[]> phases, int k) {
        if (phases.isEmpty()) {
            return Double.NaN;
        }
        long[] v = phases.stream().mapToLong(p -> p[k]).sorted().toArray();
        return LatencySummary.nearestRank(v, 50) / 1000.0;
    }

    private static String summary(ProbeTable probes) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "%-12s %7s %10s %10s %10s %10s%n", "method", "count", "mean ms",
                "p50 ms", "p99 ms", "max ms"));
        for (String method : new String[] {"postAuction", "viewAuction", "all"}) {
            long[] lat = IntStream.range(0, probes.size())
                    .filter(i -> method.equals("all") || method.equals(probes.methodAt(i)))
                    .mapToLong(probes::latencyMicros).toArray();
            LatencySummary s = LatencySummary.of(lat);
            sb.append(String.format(Locale.ROOT, "%-12s %7d %10.3f %10.3f %10.3f %10.3f%n", method, s.count(),
                    s.meanMicros() / 1000.0, s.medianMicros() / 1000.0, s.p99Micros() / 1000.0,
                    s.maxMicros() / 1000.0));
        }
        sb.append("latency = client receive - client send, faulty invocations included; percentiles by nearest rank\n");
        return sb.toString();
    }

    private static void writeAtomically(Path file, String text) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, text, StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}
