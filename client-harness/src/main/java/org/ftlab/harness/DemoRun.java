package org.ftlab.harness;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Locale;
import org.ftlab.auction.api.AuctionDraft;
import org.ftlab.auction.api.AuctionPosted;
import org.ftlab.auction.api.AuctionService;
import org.ftlab.auction.api.MicroClock;
import org.ftlab.auction.api.Reply;
import org.ftlab.auction.api.ReplySize;
import org.ftlab.auction.api.RequestHeader;
import org.ftlab.harness.client.ReplicaConnection;
import org.ftlab.harness.probe.LatencySummary;
import org.ftlab.harness.probe.ProbeTable;
import org.ftlab.rm.LocalLab;
import org.ftlab.rm.db.DatabaseEndpoint;
import org.ftlab.rm.db.EmbeddedDatabase;
import org.ftlab.rm.replica.Replica;

/**
 * The demo: database, replicas, one client looping post-auction then view-auction against the primary, a summary,
 * and a clean stop of everything, on Ctrl-C too (a shutdown hook closes the lab).
 */
public final class DemoRun {
    private final Path runDir;
    private final Path serverHome;
    private final DatabaseEndpoint externalDatabase;
    private final int replicaCount;
    private final int invocations;
    private final ReplySize replySize;
    private volatile boolean aborted;

    public DemoRun(Path runDir, Path serverHome, DatabaseEndpoint externalDatabase, int replicaCount,
            int invocations, ReplySize replySize) {
        this.runDir = runDir.toAbsolutePath();
        this.serverHome = serverHome;
        this.externalDatabase = externalDatabase;
        this.replicaCount = replicaCount;
        this.invocations = invocations;
        this.replySize = replySize;
    }

    /** Runs the demo; returns the process exit code. */
    public int run(PrintWriter out) throws Exception {
        Files.createDirectories(runDir);
        out.println("ftlab demo: run directory " + runDir);
        LocalLab lab = LocalLab.start(new LocalLab.Options(runDir, serverHome, externalDatabase, null));
        Thread onInterrupt = new Thread(() -> {
            aborted = true;
            lab.close();
        }, "ftlab-demo-shutdown");
        Runtime.getRuntime().addShutdownHook(onInterrupt);
        try {
            out.println(databaseLine(lab));
            out.flush();
            for (int i = 1; i <= replicaCount; i++) {
                Replica r = lab.startReplica("r" + i);
                out.printf(Locale.ROOT, "replica %s: pid %d, %s, ready in %.1f s%s%n", r.name(), r.pid(),
                        r.remotingUri(), r.startupTime().toMillis() / 1000.0, i == 1 ? " (primary)" : " (backup)");
                out.flush();
            }
            ProbeTable probes = clientLoop(lab);
            if (aborted) {
                return 130;
            }
            Path probeFile = runDir.resolve("probes/demo.csv");
            ProbeTable.writeCsv(probeFile, List.of(probes));
            String summary = summary(probes);
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

    private ProbeTable clientLoop(LocalLab lab) throws Exception {
        String clientId = "demo-" + ProcessHandle.current().pid();
        ProbeTable probes = new ProbeTable(clientId, invocations);
        try (ReplicaConnection conn = ReplicaConnection.open(lab.primary().remotingUri(), lab.user().username(),
                lab.user().password())) {
            AuctionService service = conn.service();
            long seq = 0;
            String username = "seller" + Long.toString(System.nanoTime() & 0xffffffL, 36);
            service.createAccount(new RequestHeader(clientId, seq++, ReplySize.ORIGINAL), username, "demo-password");
            String token = service.login(new RequestHeader(clientId, seq++, ReplySize.ORIGINAL), username,
                    "demo-password").value().token();
            // An auction posted with the natural reply, so its id is known even when the loop asks for sized replies
            // (a sized reply is payload bytes, not an id); sized runs view this one.
            long anchorId = service.postAuction(new RequestHeader(clientId, seq++, ReplySize.ORIGINAL), token,
                    new AuctionDraft("Demo anchor item", "Viewed by sized-reply demo runs", 100, 3600))
                    .value().auctionId();
            int posts = invocations / 2;
            long[] auctionIds = new long[posts];
            int sizedBytes = replySize.isOriginal() ? -1 : replySize.bytes();
            for (int i = 0; i < posts && !aborted; i++) {
                long s = seq++;
                AuctionDraft draft = new AuctionDraft("Demo item " + i, "An item posted by the ftlab demo", 100 + i,
                        3600);
                long sent = MicroClock.nowEpochMicros();
                Reply<AuctionPosted> reply = service.postAuction(new RequestHeader(clientId, s, replySize), token,
                        draft);
                long received = MicroClock.nowEpochMicros();
                probes.recordOk(s, "postAuction", sizedBytes, sent, received, reply);
                auctionIds[i] = reply.value() != null ? reply.value().auctionId() : anchorId;
            }
            for (int i = posts; i < invocations && !aborted; i++) {
                long s = seq++;
                long auctionId = auctionIds[(i - posts) % posts];
                long sent = MicroClock.nowEpochMicros();
                Reply<?> reply = service.viewAuction(new RequestHeader(clientId, s, replySize), auctionId);
                long received = MicroClock.nowEpochMicros();
                probes.recordOk(s, "viewAuction", sizedBytes, sent, received, reply);
            }
        }
        return probes;
    }

    private static String databaseLine(LocalLab lab) {
        if (lab.database() instanceof EmbeddedDatabase embedded) {
            return String.format(Locale.ROOT, "database: embedded MariaDB, %s, ready in %.1f s",
                    embedded.endpoint().redactedUrl().replaceAll("\\?.*", ""),
                    embedded.startupTime().toMillis() / 1000.0);
        }
        return "database: external " + lab.database().flavor() + ", " + lab.database().endpoint().redactedUrl();
    }

    private static String summary(ProbeTable probes) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "%-12s %7s %10s %10s %10s %10s%n", "method", "count", "mean ms",
                "p50 ms", "p99 ms", "max ms"));
        for (String method : new String[] {"postAuction", "viewAuction", "all"}) {
            long[] lat = latencies(probes, method);
            LatencySummary s = LatencySummary.of(lat);
            sb.append(String.format(Locale.ROOT, "%-12s %7d %10.3f %10.3f %10.3f %10.3f%n", method, s.count(),
                    s.meanMicros() / 1000.0, s.medianMicros() / 1000.0, s.p99Micros() / 1000.0,
                    s.maxMicros() / 1000.0));
        }
        sb.append("latency = client receive - client send; percentiles by nearest rank\n");
        return sb.toString();
    }

    private static long[] latencies(ProbeTable probes, String method) {
        return java.util.stream.IntStream.range(0, probes.size())
                .filter(i -> method.equals("all") || method.equals(probes.methodAt(i)))
                .mapToLong(probes::latencyMicros).toArray();
    }

    private static void writeAtomically(Path file, String text) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, text, StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}
