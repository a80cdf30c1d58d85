package org.ftlab.harness.analysis;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.DoubleSummaryStatistics;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import org.ftlab.harness.probe.FaultRecord;
import org.ftlab.harness.probe.ProbeFile;

/**
 * The fail-over breakdown and performability of a run, accumulated one configuration at a time by one part per
 * concern, each fed every block's probe rows ({@link Accumulator} composes them):
 * <ul>
 * <li>per faulty invocation its three phases: fault detection, fail-over, fault-free retry (seed 004;
 * {@link InvocationPhases}). A faulty invocation is a request the client failed over (outcome {@code retried}), or
 * one a hedge or an active replica answered (outcome {@code hedged}) while an injected fault was on (it has a
 * {@code fault_id}); a hedge at any other time is only a hedge ({@link RowClass});</li>
 * <li>redundancy: the extra requests hedged and active clients send, who answered, and the false suspicions (a
 * fail-over with no fault on: the client's timeout fired on a healthy replica; {@link RedundancyTally});</li>
 * <li>per fault of a primary, the hand-over: the median latency of the first {@value Handovers#HANDOVER_ROWS}
 * requests the new primary served against the last {@value Handovers#HANDOVER_ROWS} the old one served (how warm
 * the new primary was; {@link Handovers});</li>
 * <li>latency of faulty invocations vs fault-free requests (no {@code fault_id}) vs requests that overlapped a fault
 * but did not fail ({@link LatencyClasses}); jitter in the presence of faults (the standard deviation of the
 * latencies that overlapped each fault; min and max over faults; {@link FaultImpact}, which also says the block
 * {@link FaultJoin} met each fault in);</li>
 * <li>Finding VII of seed 000: the recovery time (faulty-invocation latency) against the largest fault-free
 * outliers ({@link RecoveryVsOutliers#of});</li>
 * <li>Fault Detector detection times from {@code faults.csv} ({@link DetectionTimes});</li>
 * <li>performability (seed 001 chapter 5) per configuration and for the run, against the fault-free baseline of the
 * <b>same run</b> (the same configurations on the same machine at the same time): goodput, punctuality, the
 * probability of exceeding 0.1 s / 1 s / 2 s, demerits ({@link PerformabilityTally});</li>
 * <li>a timeline around each fault: latency quantiles and completions per 1-s slice ({@link FaultTimelines}), and
 * the whole run second by second ({@link RunTimelineTally});</li>
 * <li>in a run that varies the fail-over strategy, each strategy's phases and fault-free latencies
 * ({@link StrategyBreakdown}).</li>
 * </ul>
 */
public final class FailoverAnalysis {
    /**
     * Demerit weights (seed 001 §5.6, mapped onto this lab's events): a failed request is a user who gave up (the
     * seed's user timeout, 8); a request over 2 s is one a user would abort (2); a request over 1 s interrupted the
     * user's flow of thought (1); and each second of waiting above the configuration's fault-free mean, summed over
     * requests (1).
     */
    public record Demerits(double failed, double over2s, double over1s, double excessSecond) {
        public static final Demerits DEFAULT = new Demerits(8, 2, 1, 1);

        /** Parses {@code failed=8,over2s=2,over1s=1,excess_s=1}; unnamed weights keep their default. */
        public static Demerits parse(String spec) {
            Map<String, Double> w = new LinkedHashMap<>(Map.of("failed", DEFAULT.failed, "over2s", DEFAULT.over2s,
                    "over1s", DEFAULT.over1s, "excess_s", DEFAULT.excessSecond));
            for (String part : spec.split(",")) {
                String[] kv = part.trim().split("=", 2);
                if (kv.length != 2 || !w.containsKey(kv[0].trim())) {
                    throw new IllegalArgumentException("--demerits: '" + part.trim() + "' is not one of failed=N, "
                            + "over2s=N, over1s=N, excess_s=N");
                }
                try {
                    double v = Double.parseDouble(kv[1].trim());
                    if (v < 0 || Double.isNaN(v) || Double.isInfinite(v)) {
                        throw new NumberFormatException();
                    }
                    w.put(kv[0].trim(), v);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("--demerits: '" + part.trim() + "' needs a non-negative "
                            + "number");
                }
            }
            return new Demerits(w.get("failed"), w.get("over2s"), w.get("over1s"), w.get("excess_s"));
        }

        /**
         * The demerits of {@code failedRequests} failed requests, {@code requestsOver2s} requests over 2 s,
         * {@code requestsOver1s} over 1 s and {@code excessUs} of waiting above the fault-free mean, summed over
         * requests: each weighed by its weight.
         */
        double total(int failedRequests, int requestsOver2s, int requestsOver1s, double excessUs) {
            return failedRequests * failed + requestsOver2s * over2s + requestsOver1s * over1s
                    + excessUs / 1e6 * excessSecond;
        }
    }

    /** Statistics of one phase of the faulty invocations, µs. */
    public record PhaseStats(String phase, int count, double meanUs, long medianUs, long minUs, long maxUs) {
        /** The statistics of {@code valuesUs} as phase {@code phase}; null when there are none. */
        static PhaseStats of(String phase, long[] valuesUs) {
            if (valuesUs.length == 0) {
                return null;
            }
            LatencyStats s = LatencyStats.of(valuesUs);
            return new PhaseStats(phase, s.count(), s.mean(), s.median(), s.min(), s.max());
        }
    }

    /** A fault with where it struck and what it did to the requests that overlapped it. */
    public record FaultSummary(FaultRecord fault, String config, int faultyInvocations, int overlapping,
            Double jitterUs, Long maxLatencyUs, Handover handover, int failed) {
        /**
         * What the requests that met the fault saw: {@code failed} (some failed), {@code served elsewhere} (some
         * were failed over, hedged or raced to another replica), {@code waited} (slower than the run's fault-free
         * p99, none failed), or {@code served} (no difference).
         */
        public String outcome(long faultFreeP99Us) {
            if (failed > 0) {
                return "failed";
            }
            if (faultyInvocations > 0) {
                return "served elsewhere";
            }
            return maxLatencyUs != null && maxLatencyUs > faultFreeP99Us ? "waited" : "served";
        }
    }

    /**
     * A primary's fault seen from the requests on either side: the median latency of the last {@code oldCount}
     * (at most {@value Handovers#HANDOVER_ROWS}) requests the failed primary served before the fault, and of the
     * first {@code newCount} the replica that served most requests after it served (faulty invocations left out).
     */
    public record Handover(String oldReplica, String newReplica, long oldMedianUs, long newMedianUs, int oldCount,
            int newCount, Integer backToSpeedS) {
        public double ratio() {
            return oldMedianUs == 0 ? Double.NaN : (double) newMedianUs / oldMedianUs;
        }

        /** How {@link #backToSpeedS} reads: "1 s", or "not within 30 s" (or the block's end). */
        public String backToSpeed() {
            return backToSpeedS == null ? "not within " + Handovers.BACK_TO_SPEED_MAX_S + " s" : backToSpeedS + " s";
        }
    }

    /**
     * What redundancy cost and bought: requests, the copies sent beyond one per request ({@code extraRequests}:
     * hedges, active replicas, fail-over retries), answers that came from a hedge or an active replica other than
     * the first choice, fail-overs with no fault on (false suspicions) and who answered how many requests.
     */
    public record Redundancy(long requests, long extraRequests, long hedgedAnswers, long falseSuspicions,
            Map<String, Long> answeredBy) {
        /** Extra requests ÷ requests. */
        @JsonProperty
        public double extraRate() {
            return requests == 0 ? 0 : (double) extraRequests / requests;
        }
    }

    /** One 1-s slice of a fault timeline; second is relative to the fault's start; latencies ms, null when none. */
    public record Slice(int second, Double p50Ms, Double p99Ms, Double maxMs, int completed) {
        /** The slice of the latencies (µs) sent in it, or an empty one for none. */
        static Slice of(int second, LongList latencies, int completed) {
            if (latencies == null) {
                return new Slice(second, null, null, null, completed);
            }
            long[] v = latencies.toArray();
            Arrays.sort(v);
            return new Slice(second, LatencyStats.perMille(v, 500) / 1e3, LatencyStats.perMille(v, 990) / 1e3,
                    v[v.length - 1] / 1e3, completed);
        }
    }

    /**
     * A fault drawn on a time-based plot, from its injection to its repair (or, for a failure nobody injected, from
     * detection to restored degree); seconds relative to the plot's origin.
     */
    public record Band(String faultId, String kind, String target, double fromS, double toS) {
    }

    /**
     * Latency and completions around one fault; times in s relative to its start. {@code bands}: every fault within
     * the window, this one included.
     */
    public record Timeline(String faultId, String kind, String config, Double detectedS, Double promotedS,
            Double restoredS, Double repairedS, List<Slice> slices, List<Band> bands) {
    }

    /**
     * The whole run, second by second since its first request (blocks in the order they ran; the pauses between
     * them are gaps), with every fault as a band.
     */
    public record RunTimeline(List<Slice> slices, List<Band> bands) {
    }

    /**
     * Performability of a configuration or of the whole run. goodput = completions per second over the whole span
     * ÷ completions per second in the 1-s slices no fault touched; punctuality = fault-free mean latency ÷ mean
     * latency of all completed requests (1 is ideal, lower is worse: the seed's "fraction of the ideal response
     * time"); pOver* = fraction of requests slower than the threshold, a failed request counting as slower than
     * every threshold. Goodput is null when no slice was free of faults or none was touched by one. {@code corrected}:
     * the same exceedance and punctuality over the latencies corrected for coordinated omission (closed loop; null
     * in open loop, whose latencies need no correction).
     */
    public record Performability(String config, int requests, int failed, int faultyInvocations, Double goodput,
            Double punctuality, double pOver100ms, double pOver1s, double pOver2s, double demerits,
            CorrectedPerformability corrected) {
    }

    /**
     * Performability over the latencies corrected for coordinated omission: P(&gt; 0.1 s / 1 s / 2 s) among the
     * corrected values (the failed requests counting as exceeding every threshold) and punctuality = fault-free
     * mean ÷ corrected mean.
     */
    public record CorrectedPerformability(double pOver100ms, double pOver1s, double pOver2s, Double punctuality) {
    }

    /** Finding VII: recovery time (faulty-invocation latency) against the fault-free maximum. */
    public record RecoveryVsOutliers(Long medianRecoveryUs, Long maxRecoveryUs, Long maxFaultFreeUs,
            int faultFreeAboveMedianRecovery, List<Long> largestFaultFreeUs) {
        /**
         * Recovery against the fault-free outliers, from the fault-free and the faulty latencies, each sorted
         * ascending: the median and largest recovery, the fault-free requests slower than the median recovery and
         * the 5 slowest fault-free ones. Null when there are neither.
         */
        static RecoveryVsOutliers of(long[] faultFreeSortedUs, long[] faultySortedUs) {
            long[] ff = faultFreeSortedUs;
            long[] fy = faultySortedUs;
            if (fy.length == 0 && ff.length == 0) {
                return null;
            }
            Long medianRecovery = fy.length == 0 ? null : LatencyStats.perMille(fy, 500);
            int above = 0;
            if (medianRecovery != null) {
                for (int i = ff.length - 1; i >= 0 && ff[i] > medianRecovery; i--) {
                    above++;
                }
            }
            List<Long> largest = new ArrayList<>();
            for (int i = ff.length - 1; i >= 0 && largest.size() < 5; i--) {
                largest.add(ff[i]);
            }
            return new RecoveryVsOutliers(medianRecovery, fy.length == 0 ? null : fy[fy.length - 1],
                    ff.length == 0 ? null : ff[ff.length - 1], above, largest);
        }
    }

    public record Result(String strategy, List<FaultSummary> faults, List<PhaseStats> phases,
            List<PhaseStats> detection, LatencyStats faultFree, LatencyStats faulty, LatencyStats overlapping,
            Double jitterMinUs, Double jitterMaxUs, RecoveryVsOutliers recoveryVsOutliers, Performability run,
            List<Performability> configs, List<Timeline> timelines, Demerits weights, Redundancy redundancy,
            RunTimeline runTimeline, Map<String, List<PhaseStats>> phasesByStrategy,
            Map<String, LatencyStats> faultFreeByStrategy) {

        /** Whether the run had any fault to break down. */
        public boolean hasFaults() {
            return !faults.isEmpty() || (faulty != null && faulty.count() > 0);
        }
    }

    /**
     * The fail-over analysis of a run, composed of one part per concern: each part is fed every block's probe file
     * in grid order and gives its own part of the {@link Result}.
     */
    public static final class Accumulator {
        private final List<FaultRecord> faults;
        private final Demerits weights;
        private final FaultJoin join = new FaultJoin();
        private final FaultImpact impact = new FaultImpact();
        private final LatencyClasses classes = new LatencyClasses();
        private final InvocationPhases phases = new InvocationPhases();
        private final StrategyBreakdown byStrategy = new StrategyBreakdown();
        private final RedundancyTally redundancy = new RedundancyTally();
        private final Handovers handovers;
        private final FaultTimelines timelines;
        private final RunTimelineTally runTimeline;
        private final PerformabilityTally performability;
        /** Every part, the join first: the timelines ask it which block met each fault. */
        private final List<Consumer<ProbeFile>> parts;

        public Accumulator(List<FaultRecord> faults, Demerits weights) {
            this.faults = faults;
            this.weights = weights;
            this.handovers = new Handovers(faults);
            this.timelines = new FaultTimelines(faults, join);
            this.runTimeline = new RunTimelineTally(faults);
            this.performability = new PerformabilityTally(faults, weights);
            this.parts = List.of(join::accept, impact::accept, classes::accept, phases::accept, byStrategy::accept,
                    redundancy::accept, handovers::accept, timelines::accept, runTimeline::accept,
                    performability::accept);
        }

        /** Adds one block's probe file to every part. */
        public void accept(ProbeFile pf) {
            parts.forEach(p -> p.accept(pf));
        }

        /** The parts' figures as one result, for a run of fail-over strategy {@code strategy}. */
        public Result finish(String strategy) {
            List<FaultSummary> summaries = impact.summaries(faults, join, handovers.byFault());
            DoubleSummaryStatistics jitter = summaries.stream().map(FaultSummary::jitterUs).filter(Objects::nonNull)
                    .mapToDouble(Double::doubleValue).summaryStatistics();
            long[] ff = classes.faultFreeSortedUs();
            long[] fy = classes.faultySortedUs();
            return new Result(strategy, summaries, phases.stats(), DetectionTimes.byKind(faults),
                    LatencyStats.ofSorted(ff), LatencyStats.ofSorted(fy), classes.overlapping(),
                    jitter.getCount() == 0 ? null : jitter.getMin(), jitter.getCount() == 0 ? null : jitter.getMax(),
                    RecoveryVsOutliers.of(ff, fy), performability.run(), performability.blocks(),
                    timelines.timelines(), weights, redundancy.result(), runTimeline.result(), byStrategy.phases(),
                    byStrategy.faultFree());
        }
    }

    private FailoverAnalysis() {
    }
}
