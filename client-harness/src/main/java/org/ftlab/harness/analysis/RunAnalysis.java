package org.ftlab.harness.analysis;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.stat.correlation.SpearmansCorrelation;
import org.apache.commons.math3.stat.inference.OneWayAnova;
import org.apache.commons.math3.stat.regression.SimpleRegression;
import org.ftlab.harness.attribution.Attribution;
import org.ftlab.harness.attribution.RunEvents;
import org.ftlab.harness.probe.ConfigId;
import org.ftlab.harness.probe.FaultRecord;
import org.ftlab.harness.probe.FaultsCsv;
import org.ftlab.harness.probe.Manifest;
import org.ftlab.harness.probe.ProbeFile;
import org.ftlab.os.AtomicFiles;

/**
 * The statistics of a grid run directory, one configuration file at a time (so memory stays bounded by the largest
 * configuration plus one latency per request of the run for the fault-free baseline): per configuration and method,
 * and per configuration over all methods, the latency statistics of {@link LatencyStats}, the middleware / server /
 * database breakdown and the request rate; across configurations a one-way ANOVA of mean, p99 and max on each factor
 * (criterion C3), the regression of p99 on the mean and the "magical 1%" verdicts; and the fail-over breakdown and
 * performability of {@link FailoverAnalysis}. {@link #write} puts it in {@code report/}.
 */
public final class RunAnalysis {
    /**
     * Mean components of latency, µs (seed 002): server = reply sent − request received at the bean (P5 − P4),
     * database = transaction end − start (inside server), middleware = latency − server. The top fields are the
     * same means over the slowest 1% (latency ≥ p99): where the outliers' time went. Over completed requests that
     * carry server probes.
     */
    public record Breakdown(double middlewareMeanUs, double serverMeanUs, double databaseMeanUs, int topCount,
            double topMiddlewareMeanUs, double topServerMeanUs, double topDatabaseMeanUs) {
    }

    /**
     * Which block an entry comes from: the probe file's name (the configuration, with {@code -repK} in a run with
     * replicates), the replicate (1…R), the open-loop rate per client (0 in closed loop) and the warm-up rows the file
     * holds (left out of every statistic).
     */
    /**
     * A block as the analysis groups it: its name, replicate, open-loop rate, warm-up rows, and the levels of the
     * infrastructure factors the run varies ({@code strategy}, {@code platform} null and {@code replicas} 0 when it
     * does not: the run's one is in the manifest).
     */
    public record Block(String block, int replicate, double ratePerS, int warmupRows, String strategy, int replicas,
            String platform) {
        public Block(String block, int replicate, double ratePerS, int warmupRows) {
            this(block, replicate, ratePerS, warmupRows, null, 0, null);
        }

        public boolean openLoop() {
            return ratePerS > 0;
        }
    }

    /**
     * Steady state of an entry's fault-free requests: the mean latency of each client's first and last 10% of them
     * (pooled over clients; for "all", the method with the largest ratio). Not at steady state when the first decile's
     * mean exceeds {@value #STEADY_STATE_RATIO} × the last's.
     */
    public record SteadyState(int perDecile, double firstDecileMeanUs, double lastDecileMeanUs) {
        public double ratio() {
            return firstDecileMeanUs / lastDecileMeanUs;
        }

        public boolean steady() {
            return !(firstDecileMeanUs > STEADY_STATE_RATIO * lastDecileMeanUs);
        }
    }

    /**
     * Open loop only: the service time (client receive − client send, the request's own time) beside the latency
     * (counted from the intended send time), and the requests that started more than
     * {@value #LATE_START_US} µs after their intended time because every worker of their client was busy.
     */
    public record OpenLoop(LatencyStats service, int lateStarts, long maxStartDelayUs) {
    }

    /**
     * One row of the summary: a configuration's block (a replicate) and a method ({@code all} for every method
     * together). Request rate (seed 002): requests arriving at the server per second, (n − 1) / (last − first server
     * receive); throughput: request rate × reply size, bytes/s, null for the original reply (its size is not fixed).
     * {@code corrected}: the latencies corrected for coordinated omission (closed loop only; null in open loop).
     */
    public record Entry(String config, int clients, int thinkMillis, String reply, String method, int failures,
            LatencyStats stats, Breakdown breakdown, Double requestRatePerS, Double throughputBytesPerS,
            Block block, SteadyState steady, CoordinatedOmission.Corrected corrected, OpenLoop openLoop) {

        public Entry(String config, int clients, int thinkMillis, String reply, String method, int failures,
                LatencyStats stats) {
            this(config, clients, thinkMillis, reply, method, failures, stats, null, null, null,
                    new Block(config, 1, 0, 0), null, null, null);
        }

        /** The block's name: the configuration, with {@code -repK} in a run with replicates. */
        public String label() {
            return block.block();
        }

        public int replicate() {
            return block.replicate();
        }
    }

    /** An ANOVA of one metric on one factor; f and p are null when the groups are too small to test. */
    public record Anova(String factor, String metric, Double f, Double p) {
    }

    /** Least-squares p99 = slope × mean + intercept across configurations; p tests slope = 0. */
    public record Regression(int n, double slope, double interceptUs, double r, double p) {
    }

    /**
     * Seed 000's Finding II over a run's blocks (all methods together): the relative size of the largest outlier
     * (max ÷ mean, criterion C1) against the share of 3σ outliers (criterion C2). {@code spearmanRho}: Spearman's rank
     * correlation; {@code p}: its two-sided significance (Student's t with n − 2 degrees of freedom); {@code n}
     * blocks. The seed found them negatively correlated: few outliers, large ones.
     */
    public record OutlierTradeoff(int n, double spearmanRho, double p) {
    }

    /**
     * Seed 000's Finding IV over a run's blocks: one process metric ({@code BlockLoad}, e.g. {@code r1.kernel_cpu})
     * against the relative size of the block's largest outlier (max ÷ mean) and against its share of 3σ outliers;
     * Spearman's ρ and two-sided p of each (NaN where a side cannot be ranked), over the {@code n} blocks that have
     * the metric.
     */
    public record LoadCorrelation(String metric, int n, double rhoMaxOverMean, double pMaxOverMean,
            double rhoOutlierShare, double pOutlierShare) {
    }

    /** How many configurations (all methods together) have p99 within 10× and 25× the mean at p < 0.01. */
    public record MagicalOnePercent(int tested, int within10x, int within25x, int untestable) {
    }

    /**
     * Plot data of one block (all methods): per-client latency series, the latency CDF, and the percentile spectra of
     * the latency as recorded and as the user saw it ({@code corrected}: coordinated omission corrected in closed loop;
     * in open loop the recorded latency already counts from the intended send, and the second spectrum is the
     * service time instead, {@code secondLabel} says which).
     */
    public record ConfigPlot(String config, List<ClientSeries> clients, double[] cdfMs, double[] cdfFraction,
            List<CoordinatedOmission.SpectrumPoint> recordedSpectrum, List<CoordinatedOmission.SpectrumPoint>
                    secondSpectrum, String secondLabel) {
    }

    /**
     * A block's histograms (all methods), for {@code report/histograms/<block>.hlog}: the recorded latency and the
     * second one of {@link ConfigPlot}; start and end of the block's requests, ms since the epoch.
     */
    public record BlockHistograms(String block, org.HdrHistogram.Histogram recorded, org.HdrHistogram.Histogram second,
            String secondTag, long startMs, long endMs) {
    }

    /**
     * One client's latencies in request order, ms; long series are cut into equal buckets of consecutive requests
     * and each bucket is shown by its slowest request, so no outlier is hidden by the thinning.
     */
    public record ClientSeries(String client, int[] requestIndex, double[] latencyMs) {
    }

    /** One row of the factorial ANOVA: an effect on a metric (docs/analysis.md, {@code anova_factorial}). */
    public record FactorialEffect(String effect, String metric, int df, double sumOfSquares, Double f, Double p,
            Double partialEtaSq, int errorDf) {
    }

    /**
     * How the run was designed, from its manifest: arrival, order, seed, replicates, warm-up requests per client;
     * {@code loadFactor} is {@code think_ms} (closed loop) or {@code rate_per_s} (open loop).
     */
    public record Design(String arrival, String order, Long seed, int repeat, int warmupPerClient,
            int labWarmupPerClient) {
        public static final Design UNKNOWN = new Design("closed", "unknown", null, 1, 0, 0);

        public boolean openLoop() {
            return !arrival.equals("closed");
        }

        public String loadFactor() {
            return openLoop() ? "rate_per_s" : "think_ms";
        }
    }

    /** The analysis: entries, ANOVA, regression, fail-over, plot data, and what a reader must know. */
    /**
     * @param strategy the fail-over strategy, or its levels joined by commas in a run that varies it
     * @param settings the run's knobs in one line ({@code RunSettings#describe}); "defaults" for an older run
     * @param platform the middleware platform, or its levels joined ({@code ejb,rest}); "unknown" without a manifest
     * @param replicas the replication degree, or its levels joined ({@code 2,3}); "unknown" without a manifest
     */
    public record Result(String strategy, String faultKind, String settings, Design design, List<Entry> entries, List<Anova> anova,
            List<FactorialEffect> anovaFactorial, Regression regression, MagicalOnePercent magical,
            FailoverAnalysis.Result failover, List<ConfigPlot> plots, List<BlockHistograms> histograms,
            List<String> warnings, RunComparison comparison, Attribution.Result attribution, String platform,
            String replicas) {

        public Result(List<Entry> entries, List<Anova> anova, List<String> warnings) {
            this("unknown", "none", "unknown", Design.UNKNOWN, entries, anova, List.of(), RunAnalysis.regression(entries),
                    RunAnalysis.magical(entries), null, List.of(), List.of(), warnings, null, Attribution.Result.NONE,
                    "unknown", "unknown");
        }

        public Result withComparison(RunComparison c) {
            return new Result(strategy, faultKind, settings, design, entries, anova, anovaFactorial, regression, magical,
                    failover, plots, histograms, warnings, c, attribution, platform, replicas);
        }

        /** Finding II over the blocks, or null with fewer than 4 blocks (or no spread to rank). */
        public OutlierTradeoff outlierTradeoff() {
            return RunAnalysis.outlierTradeoff(entries);
        }

        /** Finding IV: each recorded process metric against the blocks' outliers (empty without events). */
        public List<LoadCorrelation> loadCorrelations() {
            return RunAnalysis.loadCorrelations(entries, attribution.blocks());
        }

        /** Entries not at steady state (their first decile much slower than their last). */
        public List<Entry> unsteady() {
            return entries.stream().filter(e -> e.method().equals("all") && e.steady() != null
                    && !e.steady().steady()).toList();
        }
    }

    /** Points per client in the latency-vs-request plots. */
    static final int SERIES_POINTS = 400;
    /** A first decile slower than this × the last decile's mean is flagged: not at steady state. */
    public static final double STEADY_STATE_RATIO = 1.5;
    /** Fewest fault-free requests of a method for the steady-state check (so a decile has at least 3). */
    static final int STEADY_STATE_MIN = 30;
    /** An open-loop request that started later than this after its intended time counts as a late start. */
    public static final long LATE_START_US = 1_000;

    private RunAnalysis() {
    }

    public static Result analyze(Path runDir) throws IOException {
        return analyze(runDir, FailoverAnalysis.Demerits.DEFAULT);
    }

    public static Result analyze(Path runDir, FailoverAnalysis.Demerits demerits) throws IOException {
        List<Path> files = probeFiles(runDir);
        List<String> warnings = new ArrayList<>();
        RunHeader header = header(runDir, files.size(), warnings);
        List<FaultRecord> faults = FaultsCsv.readAll(runDir);
        if (faults.stream().map(FaultRecord::id).distinct().count() < faults.size()) {
            warnings.add("fault ids repeat across resumed segments: a request's fault_id is matched to the first "
                    + "fault with that id");
        }
        FailoverAnalysis.Accumulator failover = new FailoverAnalysis.Accumulator(faults, demerits);
        RunEvents events = RunEvents.load(runDir);
        events.problems().forEach(p -> warnings.add("events: " + p));
        Attribution attribution = new Attribution(events);
        Blocks blocks = readBlocks(files, failover, attribution);
        warnings.addAll(blockWarnings(blocks));
        List<Entry> entries = blocks.entries();
        Design design = header.design() != null ? header.design() : designFromProbes(entries);
        FailoverAnalysis.Result fo = failover.finish(header.strategy());
        return new Result(header.strategy(), header.faultKind(), header.settings(), design, entries,
                anova(entries, design), factorial(entries, design), regression(entries), magical(entries), fo,
                blocks.plots(), blocks.histograms(), warnings, null, attribution.finish(faults), header.platform(),
                header.replicas());
    }

    /** The run's probe files in grid order; a clear error when there are none. */
    private static List<Path> probeFiles(Path runDir) throws IOException {
        Path probes = runDir.resolve("probes");
        if (!Files.isDirectory(probes)) {
            throw new IllegalArgumentException(runDir + " has no probes/ directory: not a grid run directory");
        }
        List<Path> files;
        try (Stream<Path> list = Files.list(probes)) {
            // Grid order: clients, then think time, then reply size (original first), not the file names' order.
            files = list.filter(p -> p.getFileName().toString().endsWith(".csv"))
                    .sorted(GRID_ORDER)
                    .toList();
        }
        if (files.isEmpty()) {
            throw new IllegalArgumentException(probes + " holds no probe files: the run finished no configuration");
        }
        return files;
    }

    /**
     * What the manifest says of the run: fail-over strategy, settings, fault kinds and design; "unknown" and a null
     * design (the probe files tell it) for a run without a manifest.
     */
    private record RunHeader(String strategy, String settings, String faultKind, Design design, String platform,
            String replicas) {
        static final RunHeader NO_MANIFEST = new RunHeader("unknown", "unknown", "unknown", null, "unknown",
                "unknown");
    }

    /** Reads the manifest of a run with {@code blocks} probe files into a header, adding its warnings. */
    private static RunHeader header(Path runDir, int blocks, List<String> warnings) throws IOException {
        if (!Manifest.existsIn(runDir)) {
            warnings.add("no manifest.json: the run's status is unknown");
            return RunHeader.NO_MANIFEST;
        }
        Manifest m = Manifest.readAny(runDir);
        Design design = design(m.grid());
        warnings.addAll(manifestWarnings(m, design, blocks));
        return new RunHeader(m.grid() != null && m.grid().strategy() != null ? String.join(",", m.grid().strategy())
                : m.failoverStrategy() == null ? "unknown" : m.failoverStrategy(),
                m.settings().describe(), m.faults().describeKinds(), design,
                m.grid() != null && m.grid().platform() != null ? String.join(",", m.grid().platform()) : m.platform(),
                m.grid() != null && m.grid().replicas() != null ? m.grid().replicas().stream().map(String::valueOf)
                        .collect(java.util.stream.Collectors.joining(",")) : String.valueOf(m.replicas()));
    }

    /** The design the grid records; the plain design for the earliest runs, which recorded none. */
    private static Design design(Manifest.Grid g) {
        if (!g.hasDesign()) {
            return new Design("closed", "sequential", null, 1, 0, 0);
        }
        return new Design(g.arrival() == null ? "closed" : g.arrival(), g.order(), g.seed(),
                g.repeat() == null ? 1 : g.repeat(), g.warmupPerClient() == null ? 0 : g.warmupPerClient(),
                g.labWarmupPerClient() == null ? 0 : g.labWarmupPerClient());
    }

    /**
     * What a reader must know from the manifest: a run that did not finish every block, a sequential order, no
     * request log, a failed exactly-once audit.
     */
    private static List<String> manifestWarnings(Manifest m, Design design, int blocks) {
        List<String> warnings = new ArrayList<>();
        Manifest.Grid g = m.grid();
        int repeat = g.repeat() == null ? 1 : g.repeat();
        int configurations = g.configurations() > 0 ? g.configurations() : blocks;
        int planned = configurations * repeat;
        if (!"complete".equals(m.status()) || blocks < planned) {
            warnings.add("the run is " + m.status() + ": " + blocks + " of " + planned
                    + " blocks (configuration × replicate) have probes; statistics cover only those");
        }
        if (design.order().equals("sequential") && g.configurations() > 1) {
            warnings.add("configurations ran in grid order (--order sequential): a factor's effect is "
                    + "confounded with the time it ran at (warm-up, database growth)");
        }
        if (!m.settings().requestLog()) {
            warnings.add("the replicas ran WITHOUT the request log (--request-log off, the exactly-once "
                    + "exercise): a request that reached a replica twice ran twice");
        }
        if (m.audit() != null && !m.audit().passed()) {
            warnings.add("the exactly-once audit failed: " + m.audit().problems());
        }
        return warnings;
    }

    /**
     * What the probe files hold: the entries, plots and histograms of every block, and the run's failed requests,
     * late starts and requests.
     */
    private record Blocks(List<Entry> entries, List<ConfigPlot> plots, List<BlockHistograms> histograms,
            int failures, long late, long requests) {
    }

    /** Reads the probe files one at a time into entries, plots and histograms, each also into {@code failover}. */
    private static Blocks readBlocks(List<Path> files, FailoverAnalysis.Accumulator failover,
            Attribution attribution) throws IOException {
        List<Entry> entries = new ArrayList<>();
        List<ConfigPlot> plots = new ArrayList<>();
        List<BlockHistograms> histograms = new ArrayList<>();
        int failures = 0;
        long late = 0;
        long requests = 0;
        for (Path file : files) {
            ProbeFile pf = ProbeFile.read(file);
            List<Entry> e = entries(pf);
            entries.addAll(e);
            Entry all = e.get(e.size() - 1);
            failures += all.failures();
            requests += pf.size;
            if (all.openLoop() != null) {
                late += all.openLoop().lateStarts();
            }
            BlockHistograms h = histograms(pf, all);
            histograms.add(h);
            plots.add(plot(pf, h));
            failover.accept(pf);
            attribution.accept(pf);
        }
        return new Blocks(entries, plots, histograms, failures, late, requests);
    }

    /** What a reader must know from the probe files: failed requests, late starts, blocks not at steady state. */
    private static List<String> blockWarnings(Blocks blocks) {
        List<String> warnings = new ArrayList<>();
        if (blocks.failures() > 0) {
            warnings.add(blocks.failures() + " requests failed; they are counted in 'failures' and left out of the "
                    + "latency statistics");
        }
        long late = blocks.late();
        if (late > 0) {
            warnings.add(String.format(Locale.ROOT, "%d of %d open-loop requests (%.2f%%) started more than "
                    + "%d ms after their intended time (every worker of their client was busy); their wait counts in "
                    + "their latency", late, blocks.requests(), 100.0 * late / blocks.requests(),
                    LATE_START_US / 1000));
        }
        List<Entry> unsteady = blocks.entries().stream().filter(x -> x.method().equals("all") && x.steady() != null
                && !x.steady().steady()).toList();
        if (!unsteady.isEmpty()) {
            warnings.add(unsteady.size() + " blocks were not at steady state (first-decile mean > "
                    + STEADY_STATE_RATIO + " × last-decile mean), e.g. " + unsteady.get(0).label()
                    + String.format(Locale.ROOT, " (%.2f×)", unsteady.get(0).steady().ratio())
                    + ": give more --warmup; they are marked in the headline table");
        }
        return warnings;
    }

    /** No manifest: the design the probe files themselves tell (open loop from a rate in the name, replicates). */
    private static Design designFromProbes(List<Entry> entries) {
        boolean open = entries.stream().anyMatch(x -> x.block().openLoop());
        return new Design(open ? "open" : "closed", "unknown", null,
                entries.stream().mapToInt(Entry::replicate).max().orElse(1), 0, 0);
    }

    /** Grid order of probe files: clients, load (think time or rate), reply size (original first), replicate. */
    private static final java.util.Comparator<Path> GRID_ORDER = java.util.Comparator
            .comparing((Path p) -> ProbeFile.configName(p.getFileName().toString().replace(".csv", "")) == null)
            .thenComparingInt(p -> id(p).clients())
            .thenComparingDouble(p -> id(p).openLoop() ? id(p).ratePerS() : id(p).thinkMillis())
            .thenComparingInt(p -> id(p).replyBytes())
            .thenComparing(p -> String.valueOf(id(p).strategy()))
            .thenComparingInt(p -> id(p).replicas())
            .thenComparing(p -> String.valueOf(id(p).platform()))
            .thenComparingInt(p -> id(p).replicate())
            .thenComparing(p -> p.getFileName().toString());

    private static ConfigId id(Path file) {
        ConfigId id = ProbeFile.configName(file.getFileName().toString().replace(".csv", ""));
        return id != null ? id : new ConfigId(0, 0, 0, 0, 0);
    }

    /** One entry per method (in order of first appearance) and one for all methods. */
    static List<Entry> entries(ProbeFile pf) {
        List<Entry> out = new ArrayList<>();
        for (int m = 0; m < pf.methods.size(); m++) {
            out.add(entry(pf, pf.methods.get(m), m, null));
        }
        // "all": steady state judged by its least steady method (posts come before views, so deciles mix methods).
        SteadyState worst = null;
        for (Entry e : out) {
            if (e.steady() != null && (worst == null || e.steady().ratio() > worst.ratio())) {
                worst = e.steady();
            }
        }
        out.add(entry(pf, "all", -1, worst));
        return out;
    }

    private static Entry entry(ProbeFile pf, String name, int method, SteadyState allSteady) {
        LongList latencies = new LongList();
        LongList service = new LongList();
        LongList serverRecv = new LongList();
        int failures = 0;
        int late = 0;
        long maxDelay = 0;
        for (int i = 0; i < pf.size; i++) {
            if (method >= 0 && pf.method[i] != method) {
                continue;
            }
            long delay = pf.startDelayUs(i);
            if (delay > LATE_START_US) {
                late++;
            }
            maxDelay = Math.max(maxDelay, delay);
            if (!pf.completed(i)) {
                failures++;
                continue;
            }
            latencies.add(pf.latencyUs(i));
            service.add(pf.serviceUs(i));
            if (pf.serverRecvUs[i] != ProbeFile.NONE) {
                serverRecv.add(pf.serverRecvUs[i]);
            }
        }
        long[] sorted = latencies.toArray();
        Arrays.sort(sorted);
        LatencyStats stats = LatencyStats.ofSorted(sorted);
        long[] services = service.toArray();
        Arrays.sort(services);
        Breakdown breakdown = stats == null ? null : breakdown(pf, method, LatencyStats.perMille(services, 990));
        Double rate = null;
        Double throughput = null;
        if (serverRecv.size() >= 2) {
            long[] r = serverRecv.toArray();
            long first = Long.MAX_VALUE;
            long last = Long.MIN_VALUE;
            for (long t : r) {
                first = Math.min(first, t);
                last = Math.max(last, t);
            }
            if (last > first) {
                rate = (r.length - 1) * 1e6 / (last - first);
                throughput = pf.reply.equals("original") ? null : rate * Long.parseLong(pf.reply);
            }
        }
        CoordinatedOmission.Corrected corrected = stats == null || pf.openLoop() ? null
                : CoordinatedOmission.correct(sorted, CoordinatedOmission.expectedIntervalUs(pf.thinkMillis,
                        stats.median()));
        OpenLoop open = pf.openLoop() ? new OpenLoop(LatencyStats.of(service.toArray()), late, maxDelay) : null;
        SteadyState steady = method >= 0 ? steadyState(pf, method) : allSteady;
        return new Entry(pf.config, pf.clients, pf.thinkMillis, pf.reply, name, failures, stats, breakdown, rate,
                throughput, new Block(pf.block, pf.replicate, pf.ratePerS, pf.warmupRows, pf.strategy,
                        pf.replicas, pf.platform), steady, corrected, open);
    }

    /**
     * First vs last decile of each client's fault-free completed requests of one method, pooled over clients; null
     * when the method has fewer than {@value #STEADY_STATE_MIN} such requests.
     */
    static SteadyState steadyState(ProbeFile pf, int method) {
        List<LongList> perClient = new ArrayList<>();
        for (int c = 0; c < pf.clientIds.size(); c++) {
            perClient.add(new LongList());
        }
        int n = 0;
        for (int i = 0; i < pf.size; i++) {
            if (pf.method[i] == method && pf.completed(i) && pf.fault[i] < 0) {
                perClient.get(pf.client[i]).add(pf.latencyUs(i));
                n++;
            }
        }
        if (n < STEADY_STATE_MIN) {
            return null;
        }
        double first = 0;
        double last = 0;
        int count = 0;
        for (LongList l : perClient) {
            long[] v = l.toArray();
            int decile = (int) Math.ceil(v.length / 10.0);
            for (int k = 0; k < decile; k++) {
                first += v[k];
                last += v[v.length - 1 - k];
                count++;
            }
        }
        return count == 0 ? null : new SteadyState(count, first / count, last / count);
    }

    /** The block's histograms over all methods: recorded, and corrected (closed loop) or service time (open). */
    private static BlockHistograms histograms(ProbeFile pf, Entry all) {
        LongList latency = new LongList();
        LongList service = new LongList();
        long start = Long.MAX_VALUE;
        long end = Long.MIN_VALUE;
        for (int i = 0; i < pf.size; i++) {
            start = Math.min(start, pf.intendedUs[i]);
            end = Math.max(end, pf.recvUs[i]);
            if (pf.completed(i)) {
                latency.add(pf.latencyUs(i));
                service.add(pf.serviceUs(i));
            }
        }
        long[] v = latency.toArray();
        org.HdrHistogram.Histogram recorded = CoordinatedOmission.recorded(v);
        org.HdrHistogram.Histogram second = pf.openLoop() ? CoordinatedOmission.recorded(service.toArray())
                : all.corrected() == null ? CoordinatedOmission.recorded(new long[0])
                : CoordinatedOmission.corrected(v, all.corrected().expectedIntervalUs());
        return new BlockHistograms(pf.block, recorded, second, pf.openLoop() ? "service" : "corrected",
                start == Long.MAX_VALUE ? 0 : start / 1000, end == Long.MIN_VALUE ? 0 : end / 1000);
    }

    private static Breakdown breakdown(ProbeFile pf, int method, long p99) {
        double[] sum = new double[3];
        double[] top = new double[3];
        int n = 0;
        int topN = 0;
        for (int i = 0; i < pf.size; i++) {
            if ((method >= 0 && pf.method[i] != method) || !pf.completed(i) || !pf.hasServerProbes(i)) {
                continue;
            }
            // the request's own time: in open loop a wait for a free worker is not middleware
            long latency = pf.serviceUs(i);
            long server = pf.serverSendUs[i] - pf.serverRecvUs[i];
            long db = pf.dbEndUs[i] - pf.dbStartUs[i];
            double[] c = {latency - server, server, db};
            for (int k = 0; k < 3; k++) {
                sum[k] += c[k];
            }
            n++;
            if (latency >= p99) {
                for (int k = 0; k < 3; k++) {
                    top[k] += c[k];
                }
                topN++;
            }
        }
        if (n == 0) {
            return null;
        }
        return new Breakdown(sum[0] / n, sum[1] / n, sum[2] / n, topN, topN == 0 ? 0 : top[0] / topN,
                topN == 0 ? 0 : top[1] / topN, topN == 0 ? 0 : top[2] / topN);
    }

    private static ConfigPlot plot(ProbeFile pf, BlockHistograms h) {
        List<ClientSeries> series = new ArrayList<>();
        LongList all = new LongList();
        for (int c = 0; c < pf.clientIds.size(); c++) {
            LongList lat = new LongList();
            for (int i = 0; i < pf.size; i++) {
                if (pf.client[i] == c && pf.completed(i)) {
                    lat.add(pf.latencyUs(i));
                    all.add(pf.latencyUs(i));
                }
            }
            long[] v = lat.toArray();
            int bucket = Math.max(1, (v.length + SERIES_POINTS - 1) / SERIES_POINTS);
            int points = (v.length + bucket - 1) / bucket;
            int[] index = new int[points];
            double[] ms = new double[points];
            for (int p = 0; p < points; p++) {
                int best = p * bucket;
                for (int i = p * bucket; i < Math.min(v.length, (p + 1) * bucket); i++) {
                    if (v[i] > v[best]) {
                        best = i;
                    }
                }
                index[p] = best + 1;
                ms[p] = v[best] / 1e3;
            }
            series.add(new ClientSeries(pf.clientIds.get(c), index, ms));
        }
        long[] sorted = all.toArray();
        Arrays.sort(sorted);
        List<Double> q = new ArrayList<>();
        for (int k = 0; k <= 100; k++) {
            q.add(k / 100.0);
        }
        for (int k = 1; k < 10; k++) {
            q.add(0.99 + k / 1000.0);
            q.add(0.999 + k / 10000.0);
        }
        q.sort(null);
        double[] cdfMs = new double[sorted.length == 0 ? 0 : q.size()];
        double[] cdfFraction = new double[cdfMs.length];
        for (int k = 0; k < cdfMs.length; k++) {
            int rank = (int) Math.max(1, Math.ceil(q.get(k) * sorted.length));
            cdfMs[k] = sorted[Math.min(rank, sorted.length) - 1] / 1e3;
            cdfFraction[k] = q.get(k);
        }
        return new ConfigPlot(pf.block, series, cdfMs, cdfFraction, CoordinatedOmission.spectrum(h.recorded()),
                CoordinatedOmission.spectrum(h.second()), pf.openLoop() ? "service time (receive − send)"
                        : "corrected for coordinated omission");
    }

    /**
     * p99 on mean across configurations, each over all its methods as in the seed's experiments (its model:
     * p99 ≈ 1.04·mean + 263 µs, r = 0.82).
     */
    static Regression regression(List<Entry> entries) {
        SimpleRegression r = new SimpleRegression();
        for (Entry e : entries) {
            if (e.method().equals("all") && e.stats() != null) {
                r.addData(e.stats().mean(), e.stats().p99());
            }
        }
        if (r.getN() < 3 || Double.isNaN(r.getSlope())) {
            return null;
        }
        return new Regression((int) r.getN(), r.getSlope(), r.getIntercept(), r.getR(), r.getSignificance());
    }

    static List<LoadCorrelation> loadCorrelations(List<Entry> entries, List<Attribution.BlockCauses> blocks) {
        Map<String, LatencyStats> byBlock = new LinkedHashMap<>();
        for (Entry e : entries) {
            if (e.method().equals("all") && e.stats() != null && e.stats().mean() > 0) {
                byBlock.put(e.label(), e.stats());
            }
        }
        Map<String, List<double[]>> points = new java.util.TreeMap<>(); // metric -> {value, max/mean, share}
        for (Attribution.BlockCauses b : blocks) {
            LatencyStats s = byBlock.get(b.block());
            if (s == null || b.load() == null) {
                continue;
            }
            b.load().forEach((metric, v) -> points.computeIfAbsent(metric, k -> new ArrayList<>())
                    .add(new double[] {v, s.max() / s.mean(), s.outliers3Sigma() / (double) s.count()}));
        }
        List<LoadCorrelation> out = new ArrayList<>();
        points.forEach((metric, p) -> {
            double[] x = p.stream().mapToDouble(v -> v[0]).toArray();
            double[] rhoP1 = spearman(x, p.stream().mapToDouble(v -> v[1]).toArray());
            double[] rhoP2 = spearman(x, p.stream().mapToDouble(v -> v[2]).toArray());
            if (rhoP1 != null || rhoP2 != null) { // NaN where one side cannot be ranked (all equal)
                out.add(new LoadCorrelation(metric, x.length, rhoP1 == null ? Double.NaN : rhoP1[0],
                        rhoP1 == null ? Double.NaN : rhoP1[1], rhoP2 == null ? Double.NaN : rhoP2[0],
                        rhoP2 == null ? Double.NaN : rhoP2[1]));
            }
        });
        return out;
    }

    /** Spearman's ρ of two series and its two-sided p (t with n − 2 degrees of freedom); null if undefined. */
    static double[] spearman(double[] x, double[] y) {
        int n = x.length;
        if (n < 4) {
            return null;
        }
        double rho = new SpearmansCorrelation().correlation(x, y);
        if (Double.isNaN(rho)) {
            return null; // a constant series: nothing to rank
        }
        if (Math.abs(rho) >= 1) {
            return new double[] {rho, 0};
        }
        double t = rho * Math.sqrt((n - 2) / (1 - rho * rho));
        return new double[] {rho, 2 * new TDistribution(null, n - 2).cumulativeProbability(-Math.abs(t))};
    }

    static OutlierTradeoff outlierTradeoff(List<Entry> entries) {
        List<double[]> points = new ArrayList<>();
        for (Entry e : entries) {
            LatencyStats s = e.stats();
            if (e.method().equals("all") && s != null && s.mean() > 0) {
                points.add(new double[] {s.outliers3Sigma() / (double) s.count(), s.max() / s.mean()});
            }
        }
        double[] rhoP = spearman(points.stream().mapToDouble(x -> x[0]).toArray(),
                points.stream().mapToDouble(x -> x[1]).toArray());
        return rhoP == null ? null : new OutlierTradeoff(points.size(), rhoP[0], rhoP[1]);
    }

    static MagicalOnePercent magical(List<Entry> entries) {
        int tested = 0;
        int w10 = 0;
        int w25 = 0;
        int untestable = 0;
        for (Entry e : entries) {
            if (!e.method().equals("all") || e.stats() == null) {
                continue;
            }
            if (e.stats().p99Within(10) == null) {
                untestable++;
                continue;
            }
            tested++;
            w10 += e.stats().p99Within(10) ? 1 : 0;
            w25 += e.stats().p99Within(25) ? 1 : 0;
        }
        return new MagicalOnePercent(tested, w10, w25, untestable);
    }

    /**
     * The factors of the grid, by name as in summary.json: clients, the load factor, reply size, the infrastructure
     * factors the run varies (strategy, replicas, platform), method.
     */
    private static Map<String, Function<Entry, Object>> factors(Design design, List<Entry> entries) {
        Map<String, Function<Entry, Object>> factors = new LinkedHashMap<>();
        factors.put("clients", Entry::clients);
        if (design.openLoop()) {
            factors.put("rate_per_s", e -> e.block().ratePerS());
        } else {
            factors.put("think_ms", Entry::thinkMillis);
        }
        factors.put("reply", Entry::reply);
        if (entries.stream().anyMatch(e -> e.block().strategy() != null)) {
            factors.put("strategy", e -> e.block().strategy());
        }
        if (entries.stream().anyMatch(e -> e.block().replicas() > 0)) {
            factors.put("replicas", e -> e.block().replicas());
        }
        if (entries.stream().anyMatch(e -> e.block().platform() != null)) {
            factors.put("platform", e -> e.block().platform());
        }
        factors.put("method", Entry::method);
        return factors;
    }

    private static Map<String, Function<LatencyStats, Double>> metrics() {
        Map<String, Function<LatencyStats, Double>> metrics = new LinkedHashMap<>();
        metrics.put("mean", LatencyStats::mean);
        metrics.put("p99", s -> (double) s.p99());
        metrics.put("max", s -> (double) s.max());
        return metrics;
    }

    static List<Anova> anova(List<Entry> entries) {
        return anova(entries, Design.UNKNOWN);
    }

    /**
     * Full-factorial ANOVA (Type II; main effects and two-way interactions) of mean, p99 and max, one observation per
     * (configuration, replicate, method); only when the run has replicates (empty otherwise).
     */
    static List<FactorialEffect> factorial(List<Entry> entries, Design design) {
        List<Entry> perMethod = entries.stream().filter(e -> !e.method().equals("all") && e.stats() != null).toList();
        if (perMethod.stream().mapToInt(Entry::replicate).max().orElse(1) < 2) {
            return List.of();
        }
        Map<String, Function<Entry, Object>> factors = factors(design, perMethod);
        List<FactorialEffect> out = new ArrayList<>();
        for (Map.Entry<String, Function<LatencyStats, Double>> metric : metrics().entrySet()) {
            List<FactorialAnova.Observation> obs = new ArrayList<>();
            for (Entry e : perMethod) {
                Map<String, String> levels = new LinkedHashMap<>();
                factors.forEach((name, f) -> levels.put(name, String.valueOf(f.apply(e))));
                obs.add(new FactorialAnova.Observation(levels, metric.getValue().apply(e.stats())));
            }
            FactorialAnova.Table t = FactorialAnova.typeII(List.copyOf(factors.keySet()), obs);
            if (t == null) {
                continue;
            }
            for (FactorialAnova.Effect x : t.effects()) {
                out.add(new FactorialEffect(x.effect(), metric.getKey(), x.df(), x.sumOfSquares(), x.f(), x.p(),
                        x.partialEtaSq(), t.errorDf()));
            }
        }
        return out;
    }

    /** ANOVA of each metric across configurations on each factor; method entries only ("all" would double count). */
    static List<Anova> anova(List<Entry> entries, Design design) {
        List<Entry> perMethod = entries.stream().filter(e -> !e.method().equals("all") && e.stats() != null).toList();
        Map<String, Function<Entry, Object>> factors = factors(design, perMethod);
        Map<String, Function<LatencyStats, Double>> metrics = metrics();
        List<Anova> out = new ArrayList<>();
        for (Map.Entry<String, Function<Entry, Object>> factor : factors.entrySet()) {
            for (Map.Entry<String, Function<LatencyStats, Double>> metric : metrics.entrySet()) {
                Map<Object, List<Double>> groups = new LinkedHashMap<>();
                for (Entry e : perMethod) {
                    groups.computeIfAbsent(factor.getValue().apply(e), k -> new ArrayList<>())
                            .add(metric.getValue().apply(e.stats()));
                }
                List<double[]> data = groups.values().stream()
                        .map(l -> l.stream().mapToDouble(Double::doubleValue).toArray()).toList();
                boolean testable = data.size() >= 2 && data.stream().allMatch(d -> d.length >= 2);
                Double f = null;
                Double p = null;
                if (testable) {
                    OneWayAnova anova = new OneWayAnova();
                    f = anova.anovaFValue(data);
                    p = anova.anovaPValue(data);
                    if (f.isNaN()) {
                        f = null;
                        p = null;
                    }
                }
                out.add(new Anova(factor.getKey(), metric.getKey(), f, p));
            }
        }
        return out;
    }

    /**
     * Writes {@code report/summary.csv}, {@code summary.json}, {@code index.html} and
     * {@code histograms/<block>.hlog} (each atomically).
     */
    public static void write(Path runDir, Result result) throws IOException {
        Path report = runDir.resolve("report");
        Files.createDirectories(report);
        HistogramLogs.write(report.resolve("histograms"), result.histograms());
        writeAtomically(report.resolve("summary.csv"), SummaryJson.csv(result));
        String summary = SummaryJson.json(result);
        org.ftlab.harness.probe.StatefulTierRecord tier = org.ftlab.harness.probe.StatefulTierRecord.readFrom(runDir);
        if (tier != null) {
            com.fasterxml.jackson.databind.node.ObjectNode n = (com.fasterxml.jackson.databind.node.ObjectNode)
                    SummaryJson.JSON.readTree(summary);
            n.set("stateful", StatefulTierSection.json(tier));
            summary = SummaryJson.JSON.writeValueAsString(n);
        }
        org.ftlab.harness.probe.DatabaseWorkRecord db = org.ftlab.harness.probe.DatabaseWorkRecord.readFrom(runDir);
        if (db != null) {
            com.fasterxml.jackson.databind.node.ObjectNode n = (com.fasterxml.jackson.databind.node.ObjectNode)
                    SummaryJson.JSON.readTree(summary);
            com.fasterxml.jackson.databind.node.ObjectNode d = n.putObject("database");
            d.put("requests", db.requests()).put("statements_per_request", db.statementsPerRequest());
            com.fasterxml.jackson.databind.node.ObjectNode per = d.putObject("per_request");
            for (String c : org.ftlab.harness.probe.DatabaseWorkRecord.COUNTERS) {
                if (db.counters().containsKey(c)) {
                    per.put(c, db.perRequest(c));
                }
            }
            summary = SummaryJson.JSON.writeValueAsString(n);
        }
        writeAtomically(report.resolve("summary.json"), summary);
        writeAtomically(report.resolve("index.html"), HtmlReport.render(runDir, result));
    }

    /** The stateful tier's lines of a run's text report, if the run was on it. */
    public static void printStatefulTier(java.io.PrintWriter out, Path runDir) throws IOException {
        org.ftlab.harness.probe.StatefulTierRecord tier = org.ftlab.harness.probe.StatefulTierRecord.readFrom(runDir);
        if (tier != null) {
            StatefulTierSection.print(out, tier);
        }
    }

    /** The database's work line of a run's text report, if the run recorded it. */
    public static void printDatabaseWork(java.io.PrintWriter out, Path runDir) throws IOException {
        org.ftlab.harness.probe.DatabaseWorkRecord db = org.ftlab.harness.probe.DatabaseWorkRecord.readFrom(runDir);
        if (db != null) {
            out.printf(java.util.Locale.ROOT, "database per request (%d requests): %.2f statements (%.2f selects, "
                    + "%.2f inserts, %.2f updates, %.2f commits), %.3f row-lock waits%n", db.requests(),
                    db.statementsPerRequest(), db.perRequest("Com_select"), db.perRequest("Com_insert"),
                    db.perRequest("Com_update"), db.perRequest("Com_commit"), db.perRequest("Innodb_row_lock_waits"));
        }
    }

    static void writeAtomically(Path file, String text) throws IOException {
        AtomicFiles.write(file, text);
    }
}
