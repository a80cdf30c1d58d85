package org.ftlab.harness.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.ftlab.auction.api.Reply;
import org.ftlab.auction.api.ServerProbes;
import org.ftlab.harness.failover.FailoverPhases;
import org.ftlab.harness.probe.FaultRecord;
import org.ftlab.harness.probe.FaultsCsv;
import org.ftlab.harness.probe.Manifest;
import org.ftlab.harness.probe.ProbeFile;
import org.ftlab.harness.probe.ProbeTable;
import org.ftlab.harness.probe.RunSettings;
import org.ftlab.rm.api.FaultKind;

/**
 * Writes a synthetic grid run directory of full size (the 48 configurations of the full profile, 5,000 posts and
 * 5,000 views per client: 2,640,000 rows, about 390 MB) through the run directory's own writers ({@link ProbeTable},
 * {@link FaultsCsv}, {@link Manifest}), for benchmarking the analysis.
 * Latencies are log-normal around a few milliseconds with rare outliers; every 200,000th request per configuration
 * block is a faulty invocation with its three phases, and each configuration with 10 clients gets one crash in
 * faults.csv. Deterministic for a given seed.
 */
public final class SyntheticRun {
    public static final int[] CLIENTS = {1, 4, 7, 10};
    public static final int[] THINK_MS = {0, 20, 40};
    public static final String[] REPLY = {"orig", "256", "512", "1024"};
    /** The one kind of fault the run records. */
    private static final FaultKind CRASH = FaultKind.parse("crash");

    private SyntheticRun() {
    }

    /** Writes the run into {@code dir} (created); returns the number of probe rows. */
    public static long write(Path dir, int requestsPerMethodPerClient, long seed) throws IOException {
        Path probes = dir.resolve("probes");
        Files.createDirectories(probes);
        SplittableRandom random = new SplittableRandom(seed);
        long rows = 0;
        long clock = 1_700_000_000_000_000L;
        List<FaultRecord> faults = new ArrayList<>();
        int faultNo = 0;
        for (int clients : CLIENTS) {
            for (int think : THINK_MS) {
                for (String reply : REPLY) {
                    String config = String.format("c%02d-t%02d-r%s", clients, think, reply);
                    String faultId = null;
                    long faultAt = -1;
                    if (clients == 10) {
                        faultId = "f" + (++faultNo);
                        faultAt = clock + 2_000_000;
                        faults.add(new FaultRecord(faultId, CRASH, "primary", "r1", faultAt,
                                faultAt + 50_000, faultAt + 51_000, faultAt + 14_000_000, 0, ProbeFile.NONE,
                                "replaced", 0, 0, "crash", 1));
                    }
                    long end = clock;
                    int replyBytes = reply.equals("orig") ? -1 : Integer.parseInt(reply);
                    List<ProbeTable> tables = new ArrayList<>();
                    for (int c = 0; c < clients; c++) {
                        long t = clock;
                        ProbeTable table = new ProbeTable("synthetic-" + c, 2 * requestsPerMethodPerClient, 1);
                        for (int k = 0; k < 2 * requestsPerMethodPerClient; k++) {
                            boolean post = k < requestsPerMethodPerClient;
                            long latency = (long) Math.exp(random.nextGaussian() * 0.5 + (post ? 8.7 : 7.9));
                            if (random.nextInt(1000) == 0) {
                                latency *= 5 + random.nextInt(40);
                            }
                            boolean faulty = faultId != null && k == 0 && c == 0;
                            long detect = 0;
                            long failover = 0;
                            if (faulty) {
                                t = faultAt - 1000;
                                detect = 50_000 + random.nextInt(20_000);
                                failover = random.nextInt(500);
                                latency = Math.max(latency, 1000) + detect + failover;
                            }
                            long recv = t + latency;
                            long server = Math.max(200, latency / 2);
                            long srvRecv = recv - server - (latency - server) / 2;
                            long dbStart = srvRecv + server / 10;
                            long dbEnd = dbStart + server / 2;
                            // closed loop: intended = sent; every row measured; a faulty invocation went to two
                            // replicas, r1 (which crashed) and r2
                            int row = table.claim(k + 1, post ? "postAuction" : "viewAuction", t,
                                    ProbeTable.Phase.MEASURE);
                            Reply<?> answer = new Reply<>(null, null, false, faulty ? "r2" : "r1",
                                    new ServerProbes(srvRecv, dbStart, dbEnd, srvRecv + server));
                            if (faulty) {
                                table.retried(row, replyBytes, t, recv, answer, new FailoverPhases("r1", detect,
                                        failover, latency - detect - failover, 2), faultId);
                            } else {
                                table.ok(row, replyBytes, t, recv, answer);
                            }
                            rows++;
                            t = recv + think * 1000L;
                        }
                        tables.add(table);
                        end = Math.max(end, t);
                    }
                    ProbeTable.writeCsv(probes.resolve(config + ".csv"), tables);
                    clock = end + 1_000_000;
                }
            }
        }
        FaultsCsv.write(FaultsCsv.file(dir, 1), faults);
        int configurations = CLIENTS.length * THINK_MS.length * REPLY.length;
        new Manifest(Manifest.FORMAT_VERSION, "complete", "synthetic", Manifest.DEFAULT_WORKLOAD,
                new Manifest.Grid(Arrays.stream(CLIENTS).boxed().toList(), Arrays.stream(THINK_MS).boxed().toList(),
                        List.of(REPLY), requestsPerMethodPerClient, requestsPerMethodPerClient, configurations, 0, 1,
                        "sequential", null, "closed", List.of(), 0, null, null, null, null),
                "preconnected", RunSettings.DEFAULTS, Manifest.Faults.of("synthetic", faults.size(), List.of("crash"),
                        null), 2, 0, "synthetic", null, null, null, null, null, null, List.of(), List.of(), List.of(),
                List.of(), List.of(), null, null, "ejb", null, null).writeTo(dir);
        return rows;
    }
}
