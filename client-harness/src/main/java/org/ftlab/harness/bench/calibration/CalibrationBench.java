package org.ftlab.harness.bench.calibration;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;
import org.ftlab.auction.api.ReplySize;
import org.ftlab.auction.api.RequestHeader;
import org.ftlab.harness.bench.BenchClient;
import org.ftlab.harness.grid.FaultSchedule;
import org.ftlab.harness.grid.GridPlan;
import org.ftlab.harness.grid.GridRunner;
import org.ftlab.harness.grid.RunDirectory;
import org.ftlab.harness.lab.Home;
import org.ftlab.harness.lab.LabFile;
import org.ftlab.harness.lab.ManagedLab;
import org.ftlab.harness.probe.ClientCalibration;
import org.ftlab.harness.probe.ProbeFile;
import org.ftlab.harness.probe.RunSettings;
import org.ftlab.rm.api.Platform;

/**
 * What ftlab's own client adds to what it measures: on one lab, views of auctions on the primary, at one rate,
 * open loop with uniform arrivals, through each door, by ftlab's clients (a grid run, {@code calibration/}, one block
 * per door and round) and, right before each of their blocks and in an order that turns each round, by clients
 * leaner than ftlab's on the same endpoint, rate and connections ({@link LeanClients}): an external load generator
 * where one is installed, bare loops of client libraries. Every client's latency is its service time, from its
 * actual send to the answer. Each lean client first runs a round that is not kept (this JVM's code compiled, its
 * connections open); the grid warms the lab up first, and each of its blocks its clients.
 */
public final class CalibrationBench {
    /** ftlab's client, in the rows. */
    public static final String FTLAB = "ftlab";
    /** The posts each ftlab client makes first in a block (the grid's views need posts to view); not measured. */
    static final int POSTS_PER_CLIENT = 10;

    /**
     * The bench's settings.
     *
     * @param ratePerS requests per second, all connections together (a whole number with vegeta)
     * @param roundSeconds how long each client sends in one round
     * @param rounds rounds kept
     * @param connections connections (ftlab's clients: one each) sending at once
     * @param labWarmupPerClient requests per ftlab client that warm the lab up before the first round
     */
    public record Settings(double ratePerS, int roundSeconds, int rounds, int connections, int labWarmupPerClient) {
        /** How long each client sends in one round. */
        Duration round() {
            return Duration.ofSeconds(roundSeconds);
        }
    }

    /**
     * One client's round through one door; {@code cpuUsPerRequest}: the CPU this JVM spent per request while the
     * client ran (its threads and everything else of the JVM; -1 for a client of another process), what the client
     * takes from the cores the lab shares.
     */
    public record Row(String platform, String client, boolean external, int round, Latencies latencies,
            double cpuUsPerRequest) {
    }

    /**
     * What ftlab's client adds over {@code reference}'s, through one door: the medians over the rounds of the
     * differences of the two clients' figures in the same round, and of their ratios.
     */
    public record Added(String platform, String reference, boolean external, int rounds, double p50Us, double p99Us,
            double maxUs, double p50Ratio, double p99Ratio) {
    }

    /** The bench's result: its rows, what ftlab adds over each lean client, and the clients as they ran. */
    public record Result(Settings settings, List<Row> rows, List<Added> added, Map<String, String> clients,
            List<String> notes) {
        /**
         * Keeps what ftlab's client added as this machine's calibration ({@link ClientCalibration}, in the user's
         * cache): every grid run started after it copies it, and its report states it. Returns the file written.
         */
        public Path keep() throws IOException {
            ClientCalibration c = ClientCalibration.measuredNow(settings.ratePerS(), settings.rounds(), added.stream()
                    .map(a -> new ClientCalibration.Door(a.platform(), a.reference(), a.external(), a.p50Us(),
                            a.p99Us(), a.maxUs(), a.p50Ratio(), a.p99Ratio())).toList());
            Path dir = ClientCalibration.cacheDir();
            c.writeTo(dir);
            return dir.resolve(ClientCalibration.FILE);
        }
    }

    private final ManagedLab lab;
    private final Path benchDir;
    private final PrintWriter out;

    public CalibrationBench(ManagedLab lab, Path benchDir, PrintWriter out) {
        this.lab = lab;
        this.benchDir = benchDir;
        this.out = out;
    }

    /** Runs the calibration with {@code clients} as the lean ones. */
    public Result run(Settings s, List<LeanClient> clients, List<String> notes) throws Exception {
        Path dir = benchDir.resolve("calibration");
        if (Files.exists(dir)) {
            throw new IllegalArgumentException(dir + " exists already (an earlier bench's run): give --out a new "
                    + "directory");
        }
        int perClient = (int) Math.max(1, Math.round(s.ratePerS() / s.connections() * s.round().toMillis() / 1e3));
        GridPlan plan = new GridPlan("custom", List.of(s.connections()), List.of(0), List.of(ReplySize.ORIGINAL),
                new GridPlan.Infra(List.of(), List.of(), List.of(Platform.EJB.wireName(), Platform.REST.wireName())),
                POSTS_PER_CLIENT, perClient, new GridPlan.Design(GridPlan.DEFAULT_WARMUP_PER_CLIENT, s.rounds(),
                        GridPlan.Order.SEQUENTIAL, 0L, GridPlan.Arrival.UNIFORM, List.of(s.ratePerS()
                                / s.connections()), s.labWarmupPerClient()));
        LabFile shape = lab.description();
        RunDirectory rd = RunDirectory.create(dir, plan, "auction", null, "preconnected", Platform.EJB.wireName(),
                FaultSchedule.NONE, shape.replicas(), shape.spares(), shape.database(), Home.path(),
                RunSettings.of(shape));
        Map<String, String> described = new LinkedHashMap<>();
        described.put(FTLAB, "ftlab's clients (a grid run, calibration/): fail-over strategy preconnected, probes, "
                + "histories, one client per connection");
        clients.forEach(c -> described.put(c.name(), c.description()));
        out.printf(Locale.ROOT, "calibration: %d round%s of %.0f s at %.0f requests/s from %d connections, open loop, "
                + "uniform arrivals; views of auctions on the primary, through each door; clients: %s%n",
                s.rounds(), s.rounds() == 1 ? "" : "s", s.round().toMillis() / 1e3, s.ratePerS(), s.connections(),
                String.join(", ", described.keySet()));
        out.flush();
        List<Row> rows = new ArrayList<>();
        List<Long> ftlabCpu = new ArrayList<>();
        try (BenchClient owner = BenchClient.open(lab, "preconnected", "calibration-"
                + Long.toString(System.nanoTime() % 1_000_000, 36))) {
            String primary = lab.manager().view().primary().uri();
            RequestHeader header = owner.next(ReplySize.ORIGINAL);
            List<Long> posted = new ArrayList<>();
            List<String> warmed = new ArrayList<>();
            // this JVM's CPU from the start of each of ftlab's blocks to the start of the next hook (or the run's end)
            long[] blockCpu = {0, 0};
            Map<Integer, Long> cpuByBlock = new LinkedHashMap<>();
            int[] blocks = {0};
            boolean complete = GridRunner.runToEnd(lab, rd, out, (block, sessions) -> {
                if (blocks[0]++ > 0) {
                    cpuByBlock.put(blocks[0] - 1, JvmCpu.nanos() - blockCpu[0]);
                }
                Platform platform = Platform.parse(block.config().platform());
                List<LeanClient> mine = new ArrayList<>(clients.stream().filter(c -> c.platform() == platform)
                        .toList());
                if (mine.isEmpty()) {
                    blockCpu[0] = JvmCpu.nanos();
                    return;
                }
                // as each of ftlab's clients posts its few before its views, and views all it posted in turn
                for (int i = 0; i < POSTS_PER_CLIENT * s.connections(); i++) {
                    posted.add(owner.post("calibration " + block.id() + " #" + i));
                }
                Endpoint endpoint = new Endpoint(primary, lab.user(), header, posted);
                if (!warmed.contains(platform.wireName())) {
                    warmed.add(platform.wireName());
                    Duration warmup = Duration.ofMillis(Math.max(1_000, s.round().toMillis() / 3));
                    for (LeanClient c : mine) {
                        c.run(endpoint, s.ratePerS(), warmup, s.connections()); // not kept
                    }
                }
                // the order turns each round: no client always runs first after ftlab's block
                Collections.rotate(mine, block.replicate() - 1);
                for (LeanClient c : mine) {
                    long cpu0 = JvmCpu.nanos();
                    Latencies l = c.run(endpoint, s.ratePerS(), s.round(), s.connections());
                    double cpu = c.external() ? -1 : (JvmCpu.nanos() - cpu0) / 1e3 / Math.max(1, l.requests());
                    rows.add(new Row(platform.wireName(), c.name(), c.external(), block.replicate(), l, cpu));
                    print(platform.wireName(), c.name(), block.replicate(), l);
                }
                blockCpu[0] = JvmCpu.nanos(); // ftlab's block starts
            });
            blockCpu[1] = JvmCpu.nanos();
            if (!complete) {
                throw new IllegalStateException("the calibration's grid run " + dir + " did not complete");
            }
            cpuByBlock.put(blocks[0], blockCpu[1] - blockCpu[0]);
            ftlabCpu.addAll(cpuByBlock.values());
        }
        List<Row> ours = ftlabRows(rd, ftlabCpu);
        for (Row r : ours) {
            rows.add(r);
            print(r.platform(), r.client(), r.round(), r.latencies());
        }
        return new Result(s, rows, added(rows), described, notes);
    }

    private void print(String platform, String client, int round, Latencies l) {
        out.printf(Locale.ROOT, "  round %d %-4s %-12s p50 %7.3f ms  p99 %7.3f  max %8.3f  bean p50 %s  (%d requests, "
                + "%d errors)%n", round, platform, client, l.p50Us() / 1e3, l.p99Us() / 1e3, l.maxUs() / 1e3,
                l.beanP50Us() < 0 ? "  -  " : String.format(Locale.ROOT, "%.3f", l.beanP50Us() / 1e3), l.requests(),
                l.errors());
        out.flush();
    }

    /**
     * ftlab's rows: each block's completed views, their service time (receive − send); {@code cpuNanos}: this JVM's
     * CPU during each block, in the run's order (per request of the block: its warm-up, posts and views).
     */
    static List<Row> ftlabRows(RunDirectory rd, List<Long> cpuNanos) throws IOException {
        List<Row> rows = new ArrayList<>();
        List<Path> files;
        try (Stream<Path> s = Files.list(rd.path().resolve("probes"))) {
            files = s.filter(p -> p.getFileName().toString().endsWith(".csv")).sorted().toList();
        }
        List<ProbeFile> blocks = new ArrayList<>();
        for (Path f : files) {
            blocks.add(ProbeFile.read(f));
        }
        // the run's order: each replicate's blocks, one per door in the plan's order (ejb, then rest)
        blocks.sort(Comparator.comparingInt((ProbeFile pf) -> pf.replicate).thenComparing(pf -> Platform.parse(
                pf.platform) != Platform.EJB));
        for (int b = 0; b < blocks.size(); b++) {
            ProbeFile pf = blocks.get(b);
            int view = pf.methods.indexOf("viewAuction");
            Histogram service = new Histogram(3);
            Histogram late = new Histogram(3);
            Histogram bean = new Histogram(3);
            long errors = 0;
            for (int i = 0; i < pf.size; i++) {
                if (pf.method[i] != view) {
                    continue;
                }
                if (!pf.completed(i)) {
                    errors++;
                    continue;
                }
                service.recordValue(Math.max(0, pf.serviceUs(i)) * 1000);
                late.recordValue(Math.max(0, pf.sendUs[i] - pf.intendedUs[i]) * 1000);
                if (pf.serverRecvUs[i] != ProbeFile.NONE && pf.serverSendUs[i] != ProbeFile.NONE) {
                    bean.recordValue(Math.max(0, pf.serverSendUs[i] - pf.serverRecvUs[i]) * 1000);
                }
            }
            int requests = pf.size + pf.warmupRows + pf.holdRows;
            double cpu = b < cpuNanos.size() ? cpuNanos.get(b) / 1e3 / Math.max(1, requests) : -1;
            rows.add(new Row(pf.platform, FTLAB, false, pf.replicate, Latencies.ofNanos(service, late, bean,
                    errors), cpu));
        }
        return rows;
    }

    /** What ftlab's client adds over each lean client, door by door, from the rounds both ran. */
    static List<Added> added(List<Row> rows) {
        List<Added> added = new ArrayList<>();
        Map<String, Map<Integer, Row>> ftlab = new LinkedHashMap<>();
        rows.stream().filter(r -> r.client().equals(FTLAB)).forEach(r -> ftlab.computeIfAbsent(r.platform(),
                p -> new LinkedHashMap<>()).put(r.round(), r));
        Map<List<String>, List<Row>> lean = new LinkedHashMap<>();
        rows.stream().filter(r -> !r.client().equals(FTLAB)).forEach(r -> lean.computeIfAbsent(List.of(
                r.platform(), r.client()), k -> new ArrayList<>()).add(r));
        lean.forEach((key, theirs) -> {
            Map<Integer, Row> ours = ftlab.getOrDefault(key.get(0), Map.of());
            List<double[]> pairs = new ArrayList<>();
            for (Row r : theirs) {
                Row f = ours.get(r.round());
                if (f == null || f.latencies().requests() == 0 || r.latencies().requests() == 0) {
                    continue;
                }
                Latencies a = f.latencies();
                Latencies b = r.latencies();
                pairs.add(new double[] {a.p50Us() - b.p50Us(), a.p99Us() - b.p99Us(), a.maxUs() - b.maxUs(),
                    a.p50Us() / b.p50Us(), a.p99Us() / b.p99Us()});
            }
            if (!pairs.isEmpty()) {
                added.add(new Added(key.get(0), key.get(1), theirs.get(0).external(), pairs.size(), median(pairs, 0),
                        median(pairs, 1), median(pairs, 2), median(pairs, 3), median(pairs, 4)));
            }
        });
        return added;
    }

    private static double median(List<double[]> pairs, int column) {
        return median(pairs.stream().mapToDouble(p -> p[column]).toArray());
    }

    /** The median of rounds' figures: the middle one, or the mean of the middle two. */
    public static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }
}
