package org.ftlab.harness.analysis;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;
import org.ftlab.harness.attribution.Attribution;
import org.ftlab.harness.attribution.RunEvents;
import org.ftlab.harness.probe.FaultRecord;
import org.ftlab.harness.probe.FaultsCsv;
import org.ftlab.harness.probe.ProbeFile;
import org.ftlab.os.AtomicFiles;

/**
 * The statistics of a grid run directory, one configuration file at a time (so memory stays bounded by the largest
 * configuration plus one latency per request of the run for the fault-free baseline). {@link #analyze} reads the
 * manifest ({@link RunHeader}) and feeds each probe file, in grid order ({@link ProbeFiles}), to three parts: per
 * block and method the latency statistics of {@link LatencyStats}, the middleware / server / database breakdown and
 * the request rate, with histograms and plot data ({@link BlockStatistics}); the fail-over breakdown and
 * performability ({@link FailoverAnalysis}); and the causes of the slowest requests ({@link Attribution}). Across
 * configurations it adds a one-way ANOVA of mean, p99 and max on each factor (criterion C3) and the factorial one
 * ({@link ConfigurationAnova}), the regression of p99 on the mean and the "magical 1%" verdicts
 * ({@link P99OnMean}), and seed 000's outlier correlations ({@link OutlierCorrelations}). {@link #write} puts it in
 * {@code report/} ({@link ReportFiles}).
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
     * Which block an entry comes from, as the analysis groups it: the probe file's name (the configuration, with
     * {@code -repK} in a run with replicates), the replicate (1…R), the open-loop rate per client (0 in closed loop),
     * the warm-up rows the file holds (left out of every statistic), and the levels of the infrastructure factors the
     * run varies ({@code strategy}, {@code platform} null and {@code replicas} 0 when it does not: the run's one is in
     * the manifest).
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
    public record BlockHistograms(String block, Histogram recorded, Histogram second, String secondTag, long startMs,
            long endMs) {
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

    /**
     * The analysis: entries, ANOVA, regression, fail-over, plot data, and what a reader must know.
     *
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
            this("unknown", "none", "unknown", Design.UNKNOWN, entries, anova, List.of(), P99OnMean.regression(entries),
                    P99OnMean.magical(entries), null, List.of(), List.of(), warnings, null, Attribution.Result.NONE,
                    "unknown", "unknown");
        }

        public Result withComparison(RunComparison c) {
            return new Result(strategy, faultKind, settings, design, entries, anova, anovaFactorial, regression, magical,
                    failover, plots, histograms, warnings, c, attribution, platform, replicas);
        }

        /** Finding II over the blocks, or null with fewer than 4 blocks (or no spread to rank). */
        public OutlierTradeoff outlierTradeoff() {
            return OutlierCorrelations.tradeoff(entries);
        }

        /** Finding IV: each recorded process metric against the blocks' outliers (empty without events). */
        public List<LoadCorrelation> loadCorrelations() {
            return OutlierCorrelations.withLoad(entries, attribution.blocks());
        }

        /** Entries not at steady state (their first decile much slower than their last). */
        public List<Entry> unsteady() {
            return entries.stream().filter(e -> e.method().equals("all") && e.steady() != null
                    && !e.steady().steady()).toList();
        }
    }

    /** A first decile slower than this × the last decile's mean is flagged: not at steady state. */
    public static final double STEADY_STATE_RATIO = 1.5;
    /** An open-loop request that started later than this after its intended time counts as a late start. */
    public static final long LATE_START_US = 1_000;

    private RunAnalysis() {
    }

    public static Result analyze(Path runDir) throws IOException {
        return analyze(runDir, FailoverAnalysis.Demerits.DEFAULT);
    }

    /** The analysis of run {@code runDir}, its demerits weighed by {@code demerits}. */
    public static Result analyze(Path runDir, FailoverAnalysis.Demerits demerits) throws IOException {
        List<Path> files = ProbeFiles.inGridOrder(runDir);
        List<String> warnings = new ArrayList<>();
        RunHeader header = RunHeader.read(runDir, files.size(), warnings);
        List<FaultRecord> faults = FaultsCsv.readAll(runDir);
        if (faults.stream().map(FaultRecord::id).distinct().count() < faults.size()) {
            warnings.add("fault ids repeat across resumed segments: a request's fault_id is matched to the first "
                    + "fault with that id");
        }
        RunEvents events = RunEvents.load(runDir);
        events.problems().forEach(p -> warnings.add("events: " + p));
        BlockStatistics blocks = new BlockStatistics();
        FailoverAnalysis.Accumulator failover = new FailoverAnalysis.Accumulator(faults, demerits);
        Attribution attribution = new Attribution(events);
        List<Consumer<ProbeFile>> parts = List.of(blocks::accept, failover::accept, attribution::accept);
        for (Path file : files) {
            ProbeFile pf = ProbeFile.read(file);
            parts.forEach(p -> p.accept(pf));
        }
        warnings.addAll(blocks.warnings());
        List<Entry> entries = blocks.entries();
        Design design = header.designOr(entries);
        return new Result(header.strategy(), header.faultKind(), header.settings(), design, entries,
                ConfigurationAnova.oneWay(entries, design), ConfigurationAnova.factorial(entries, design),
                P99OnMean.regression(entries), P99OnMean.magical(entries), failover.finish(header.strategy()),
                blocks.plots(), blocks.histograms(), warnings, null, attribution.finish(faults), header.platform(),
                header.replicas());
    }

    /** Writes the report files of {@code result} in {@code runDir/report/} (see {@link ReportFiles}). */
    public static void write(Path runDir, Result result) throws IOException {
        ReportFiles.write(runDir, result);
    }

    /** Writes {@code text} to {@code file} atomically (the side-by-side page's files). */
    static void writeAtomically(Path file, String text) throws IOException {
        AtomicFiles.write(file, text);
    }
}
