package org.ftlab.harness.analysis;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.DoubleSummaryStatistics;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.ftlab.harness.probe.FaultRecord;
import org.ftlab.harness.probe.ProbeFile;

/**
 * The fail-over breakdown and performability of a run, accumulated one configuration at a time:
 * <ul>
 * <li>per faulty invocation its three phases: fault detection, fail-over, fault-free retry (seed 004). A faulty
 * invocation is a request the client failed over (outcome {@code retried}), or one a hedge or an active replica
 * answered (outcome {@code hedged}) while an injected fault was on (it has a {@code fault_id}); a hedge at any other
 * time is only a hedge;</li>
 * <li>redundancy: the extra requests hedged and active clients send, who answered, and the false suspicions (a
 * fail-over with no fault on: the client's timeout fired on a healthy replica);</li>
 * <li>per fault of a primary, the hand-over: the median latency of the first {@value #HANDOVER_ROWS} requests the
 * new primary served against the last {@value #HANDOVER_ROWS} the old one served (how warm the new primary
 * was);</li>
 * <li>latency of faulty invocations vs fault-free requests (no {@code fault_id}) vs requests that overlapped a fault
 * but did not fail; jitter in the presence of faults (the standard deviation of the latencies that overlapped each
 * fault; min and max over faults);</li>
 * <li>Finding VII of seed 000: the recovery time (faulty-invocation latency) against the largest fault-free
 * outliers;</li>
 * <li>Fault Detector detection times from {@code faults.csv};</li>
 * <li>performability (seed 001 chapter 5) per configuration and for the run, against the fault-free baseline of the
 * <b>same run</b> (the same configurations on the same machine at the same time): goodput, punctuality, the
 * probability of exceeding 0.1 s / 1 s / 2 s, demerits;</li>
 * <li>a timeline around each fault: latency quantiles and completions per 1-s slice.</li>
 * </ul>
 */
public final class FailoverAnalysis {
    /** Seconds before a fault's start that its timeline shows. */
    static final int TIMELINE_BEFORE_S = 5;
    /** Seconds after a fault's end (restoration) that its timeline shows, within {@link #TIMELINE_MAX_S}. */
    static final int TIMELINE_AFTER_S = 5;
    static final int TIMELINE_MAX_S = 40;
    static final long[] THRESHOLDS_US = {100_000, 1_000_000, 2_000_000};
    /** Requests on each side of a hand-over whose medians are compared. */
    static final int HANDOVER_ROWS = 100;

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
    }

    /** Statistics of one phase of the faulty invocations, µs. */
    public record PhaseStats(String phase, int count, double meanUs, long medianUs, long minUs, long maxUs) {
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
     * (at most {@value #HANDOVER_ROWS}) requests the failed primary served before the fault, and of the first
     * {@code newCount} the replica that served most requests after it served (faulty invocations left out).
     */
    public record Handover(String oldReplica, String newReplica, long oldMedianUs, long newMedianUs, int oldCount,
            int newCount, Integer backToSpeedS) {
        public double ratio() {
            return oldMedianUs == 0 ? Double.NaN : (double) newMedianUs / oldMedianUs;
        }

        /** How {@link #backToSpeedS} reads: "1 s", or "not within 30 s" (or the block's end). */
        public String backToSpeed() {
            return backToSpeedS == null ? "not within " + BACK_TO_SPEED_MAX_S + " s" : backToSpeedS + " s";
        }
    }

    /** A window of the new primary's requests is back to speed when its median is within this of the old one's. */
    static final double BACK_TO_SPEED_RATIO = 1.2;
    /** How far after its first request the new primary's windows are looked at. */
    static final int BACK_TO_SPEED_MAX_S = 30;

    /**
     * When a new primary was back to speed: its requests (sent at {@code sendUs}, taking {@code latencyUs}) cut into
     * 1-s windows from the first one's send time; the answer is the end of the first window, in seconds, whose median
     * is within {@value #BACK_TO_SPEED_RATIO}× the old primary's last median ({@code 1}: the first second already
     * was). Null when no window of the first {@value #BACK_TO_SPEED_MAX_S} s was.
     */
    static Integer backToSpeedS(long[] sendUs, long[] latencyUs, long oldMedianUs) {
        if (sendUs.length == 0) {
            return null;
        }
        long t0 = Arrays.stream(sendUs).min().getAsLong();
        LongList[] windows = new LongList[BACK_TO_SPEED_MAX_S];
        for (int i = 0; i < sendUs.length; i++) {
            int w = (int) ((sendUs[i] - t0) / 1_000_000L);
            if (w < windows.length) {
                (windows[w] == null ? windows[w] = new LongList() : windows[w]).add(latencyUs[i]);
            }
        }
        for (int w = 0; w < windows.length; w++) {
            if (windows[w] != null) {
                long[] l = windows[w].toArray();
                Arrays.sort(l);
                if (LatencyStats.perMille(l, 500) <= BACK_TO_SPEED_RATIO * oldMedianUs) {
                    return w + 1;
                }
            }
        }
        return null;
    }

    /**
     * What redundancy cost and bought: requests, the copies sent beyond one per request ({@code extraRequests}:
     * hedges, active replicas, fail-over retries), answers that came from a hedge or an active replica other than
     * the first choice, fail-overs with no fault on (false suspicions) and who answered how many requests.
     */
    public record Redundancy(long requests, long extraRequests, long hedgedAnswers, long falseSuspicions,
            Map<String, Long> answeredBy) {
        /** Extra requests ÷ requests. */
        @com.fasterxml.jackson.annotation.JsonProperty
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

    /** Collects the fail-over data of each configuration as it is read. */
    public static final class Accumulator {
        private final List<FaultRecord> faults;
        private final Demerits weights;
        private final Map<String, LongList> latencyByFault = new HashMap<>();
        private final Map<String, Integer> faultyByFault = new HashMap<>();
        private final Map<String, Integer> failedByFault = new HashMap<>();
        private final Map<String, String> configByFault = new HashMap<>();
        private final LongList faultFree = new LongList();
        private final LongList faulty = new LongList();
        private final LongList overlapping = new LongList();
        private final LongList[] phases = {new LongList(), new LongList(), new LongList(), new LongList()};
        /** The phases again per fail-over strategy, when the run varies it (side by side in one run). */
        private final Map<String, LongList[]> phasesByStrategy = new java.util.TreeMap<>();
        /** The fault-free latencies per fail-over strategy, when the run varies it. */
        private final Map<String, LongList> faultFreeByStrategy = new java.util.TreeMap<>();
        private final List<Performability> configs = new ArrayList<>();
        private final Map<String, Timeline> timelines = new LinkedHashMap<>();
        private final Map<String, Handover> handovers = new HashMap<>();
        private final Map<String, Long> answeredBy = new java.util.TreeMap<>();
        private long extraRequests;
        private long hedgedAnswers;
        private long falseSuspicions;
        private long requests;
        private long failed;
        private final long[] over = new long[3];
        private double demerits;
        private double fullSliceCompletions;
        private double idealSliceCompletions;
        private double faultFreeSum;
        private double completedSum;
        private long completedCount;
        private final long[] correctedOver = new long[3];
        private long correctedTotal;
        private long correctedCompleted;
        private double correctedSum;
        private boolean anyOpenLoop;

        /** Latencies of completed requests by the epoch second they were sent in; completions by second. */
        private final java.util.TreeMap<Long, LongList> bySecond = new java.util.TreeMap<>();
        private final Map<Long, Integer> doneBySecond = new HashMap<>();

        public Accumulator(List<FaultRecord> faults, Demerits weights) {
            this.faults = faults;
            this.weights = weights;
        }

        /** Adds one block's probe file to the run's fail-over figures and performability. */
        public void accept(ProbeFile pf) {
            BlockTally b = new BlockTally();
            for (int i = 0; i < pf.size; i++) {
                acceptRow(pf, i, b);
            }
            Double idealMean = b.faultFreeCount == 0 ? null : b.faultFreeSum / b.faultFreeCount;
            exceedance(pf, b, idealMean);
            double blockDemerits = demerits(b);
            CorrectedPerformability corrected = corrected(pf, b, idealMean);
            Double goodput = null;
            if (pf.size > 0) {
                goodput = goodput(pf, b.minSend, b.maxRecv);
                timelines(pf, b.minSend, b.maxRecv);
                handovers(pf, b.minSend, b.maxRecv);
            }
            configs.add(new Performability(pf.block, pf.size, b.failed, b.faulty, goodput,
                    idealMean == null || b.completedCount == 0 ? null
                            : idealMean / (b.completedSum / b.completedCount),
                    frac(b.over[0] + b.failed, pf.size), frac(b.over[1] + b.failed, pf.size),
                    frac(b.over[2] + b.failed, pf.size), blockDemerits, corrected));
            addToRun(pf, b, blockDemerits);
        }

        /** What one block's rows add up to: its span, its latency sums and counts, its exceedances. */
        private static final class BlockTally {
            private long minSend = Long.MAX_VALUE;
            private long maxRecv = Long.MIN_VALUE;
            private double faultFreeSum;
            private int faultFreeCount;
            private double completedSum;
            private int completedCount;
            private int faulty;
            private int failed;
            private final int[] over = new int[3];
            private double excessUs;
        }

        /** Adds row {@code i} to the block's tally and to the run's per-fault, per-second and redundancy figures. */
        private void acceptRow(ProbeFile pf, int i, BlockTally b) {
            b.minSend = Math.min(b.minSend, pf.sendUs[i]);
            b.maxRecv = Math.max(b.maxRecv, pf.recvUs[i]);
            String faultId = joinFault(pf, i);
            if (!pf.completed(i)) {
                if (faultId != null) {
                    failedByFault.merge(faultId, 1, Integer::sum);
                }
                return;
            }
            long latency = pf.latencyUs(i);
            b.completedSum += latency;
            b.completedCount++;
            perSecond(pf, i, latency);
            countRedundancy(pf, i, faultId);
            classify(pf, i, faultId, latency, b);
        }

        /** The id of the fault row {@code i} overlapped, or null; a fault's block is the first it was met in. */
        private String joinFault(ProbeFile pf, int i) {
            String faultId = pf.fault[i] < 0 ? null : pf.faultIds.get(pf.fault[i]);
            if (faultId != null) {
                configByFault.putIfAbsent(faultId, pf.block);
            }
            return faultId;
        }

        /** Adds a completed request's latency to the second it was sent in, its completion to the one it ended in. */
        private void perSecond(ProbeFile pf, int i, long latency) {
            long second = Math.floorDiv(pf.sendUs[i], 1_000_000L);
            bySecond.computeIfAbsent(second, k -> new LongList()).add(latency);
            doneBySecond.merge(Math.floorDiv(pf.recvUs[i], 1_000_000L), 1, Integer::sum);
        }

        /** Counts a completed request's extra copies, who answered it, and whether a hedge or a false suspicion. */
        private void countRedundancy(ProbeFile pf, int i, String faultId) {
            extraRequests += Math.max(0, pf.sentTo[i] - 1);
            if (pf.replica[i] >= 0) {
                answeredBy.merge(pf.replicaNames.get(pf.replica[i]), 1L, Long::sum);
            }
            if (pf.outcome[i] == ProbeFile.HEDGED) {
                hedgedAnswers++;
            }
            if (pf.outcome[i] == ProbeFile.RETRIED && faultId == null) {
                falseSuspicions++;
            }
        }

        /** Files a completed request's latency as faulty (with its phases), fault-free or overlapping, and by fault. */
        private void classify(ProbeFile pf, int i, String faultId, long latency, BlockTally b) {
            if (pf.faultyInvocation(i)) {
                faulty.add(latency);
                b.faulty++;
                if (faultId != null) {
                    faultyByFault.merge(faultId, 1, Integer::sum);
                }
                if (pf.detectUs[i] != ProbeFile.NONE) {
                    addPhases(pf, i, latency);
                }
            } else if (faultId == null) {
                faultFree.add(latency);
                String strategy = strategyOf(pf);
                if (strategy != null) {
                    faultFreeByStrategy.computeIfAbsent(strategy, s -> new LongList()).add(latency);
                }
                b.faultFreeSum += latency;
                b.faultFreeCount++;
            } else {
                overlapping.add(latency);
            }
            if (faultId != null) {
                latencyByFault.computeIfAbsent(faultId, k -> new LongList()).add(latency);
            }
        }

        /** Adds a faulty invocation's detection, fail-over and retry times and its latency to the phases. */
        /** The block's strategy, when the run varies it; else null. */
        private static String strategyOf(ProbeFile pf) {
            org.ftlab.harness.probe.ConfigId id = org.ftlab.harness.probe.ConfigId.parse(pf.block);
            return id == null ? null : id.strategy();
        }

        private void addPhases(ProbeFile pf, int i, long latency) {
            add(phases, pf, i, latency);
            String strategy = strategyOf(pf);
            if (strategy != null) {
                add(phasesByStrategy.computeIfAbsent(strategy,
                        s -> new LongList[] {new LongList(), new LongList(), new LongList(), new LongList()}),
                        pf, i, latency);
            }
        }

        private static void add(LongList[] to, ProbeFile pf, int i, long latency) {
            to[0].add(pf.detectUs[i]);
            to[1].add(pf.failoverUs[i]);
            to[2].add(pf.retryUs[i]);
            to[3].add(latency);
        }

        /**
         * Counts the block's failed requests, its requests over each threshold and its waiting above the fault-free
         * mean {@code idealMean} (none when null).
         */
        private static void exceedance(ProbeFile pf, BlockTally b, Double idealMean) {
            for (int i = 0; i < pf.size; i++) {
                if (!pf.completed(i)) {
                    b.failed++;
                    continue;
                }
                long latency = pf.latencyUs(i);
                for (int k = 0; k < 3; k++) {
                    if (latency > THRESHOLDS_US[k]) {
                        b.over[k]++;
                    }
                }
                if (idealMean != null && latency > idealMean) {
                    b.excessUs += latency - idealMean;
                }
            }
        }

        /** The block's demerits, failures counting as slower than every threshold. */
        private double demerits(BlockTally b) {
            return b.failed * weights.failed() + b.over[2] * weights.over2s() + b.over[1] * weights.over1s()
                    + b.excessUs / 1e6 * weights.excessSecond();
        }

        /**
         * Closed loop: the block's exceedance and punctuality over the latencies corrected for coordinated omission,
         * added to the run's; null in open loop and when every request failed.
         */
        private CorrectedPerformability corrected(ProbeFile pf, BlockTally b, Double idealMean) {
            if (pf.openLoop()) {
                anyOpenLoop = true;
                return null;
            }
            if (b.completedCount == 0) {
                // every request failed: each exceeds every threshold, corrected or not
                for (int k = 0; k < 3; k++) {
                    correctedOver[k] += b.failed;
                }
                correctedTotal += b.failed;
                return null;
            }
            Histogram h = correctedHistogram(pf);
            long total = h.getTotalCount() + b.failed;
            double[] p = new double[3];
            for (int k = 0; k < 3; k++) {
                long exceeding = CoordinatedOmission.countAbove(h, THRESHOLDS_US[k]) + b.failed;
                correctedOver[k] += exceeding;
                p[k] = frac(exceeding, total);
            }
            correctedTotal += total;
            correctedCompleted += h.getTotalCount();
            correctedSum += h.getMean() * h.getTotalCount();
            return new CorrectedPerformability(p[0], p[1], p[2], idealMean == null ? null : idealMean / h.getMean());
        }

        /** The block's completed latencies corrected for coordinated omission (interval: think time + median). */
        private static Histogram correctedHistogram(ProbeFile pf) {
            LongList done = new LongList();
            for (int i = 0; i < pf.size; i++) {
                if (pf.completed(i)) {
                    done.add(pf.latencyUs(i));
                }
            }
            long[] v = done.toArray();
            Arrays.sort(v);
            return CoordinatedOmission.corrected(v, CoordinatedOmission.expectedIntervalUs(pf.thinkMillis,
                    LatencyStats.perMille(v, 500)));
        }

        /**
         * The block's goodput from the whole 1-s slices of its span [minSend, maxRecv], added to the run's; null
         * when no slice is whole, none is free of faults or none is touched by one.
         */
        private Double goodput(ProbeFile pf, long minSend, long maxRecv) {
            int full = (int) ((maxRecv - minSend) / 1_000_000);
            if (full < 1) {
                return null;
            }
            int[] done = completionsPerSlice(pf, minSend, full);
            double freeSum = 0;
            int free = 0;
            double allSlices = 0;
            for (int s = 0; s < full; s++) {
                allSlices += done[s];
                if (!touched(minSend + s * 1_000_000L, minSend + (s + 1) * 1_000_000L)) {
                    freeSum += done[s];
                    free++;
                }
            }
            if (free > 0 && free < full && freeSum > 0) {
                double ideal = freeSum / free;
                fullSliceCompletions += allSlices;
                idealSliceCompletions += ideal * full;
                return (allSlices / full) / ideal;
            }
            return null;
        }

        /** Completions in each of the {@code full} whole 1-s slices from {@code minSend}. */
        private static int[] completionsPerSlice(ProbeFile pf, long minSend, int full) {
            int[] done = new int[full];
            for (int i = 0; i < pf.size; i++) {
                int s = (int) ((pf.recvUs[i] - minSend) / 1_000_000);
                if (pf.completed(i) && s < full) {
                    done[s]++;
                }
            }
            return done;
        }

        /** Adds the block's requests, failures, exceedances, demerits and latency sums to the run's. */
        private void addToRun(ProbeFile pf, BlockTally b, double blockDemerits) {
            requests += pf.size;
            failed += b.failed;
            for (int k = 0; k < 3; k++) {
                over[k] += b.over[k];
            }
            demerits += blockDemerits;
            faultFreeSum += b.faultFreeSum;
            completedSum += b.completedSum;
            completedCount += b.completedCount;
        }

        private boolean touched(long fromUs, long toUs) {
            for (FaultRecord f : faults) {
                if (f.startUs() != ProbeFile.NONE && f.startUs() < toUs && f.endUs() >= fromUs) {
                    return true;
                }
            }
            return false;
        }

        private void timelines(ProbeFile pf, long minSend, long maxRecv) {
            for (FaultRecord f : faults) {
                long start = f.startUs();
                boolean here = pf.block.equals(configByFault.get(f.id()))
                        || (!configByFault.containsKey(f.id()) && start >= minSend && start <= maxRecv);
                if (start == ProbeFile.NONE || !here || timelines.containsKey(f.id())) {
                    continue;
                }
                long endRel = Math.min(Math.max(f.endUs() - start, 0) / 1_000_000 + TIMELINE_AFTER_S + 1,
                        TIMELINE_MAX_S);
                endRel = Math.max(endRel, 10);
                int n = (int) endRel + TIMELINE_BEFORE_S;
                LongList[] lat = new LongList[n];
                int[] done = new int[n];
                for (int i = 0; i < pf.size; i++) {
                    if (!pf.completed(i)) {
                        continue;
                    }
                    int s = slice(pf.sendUs[i], start);
                    if (s >= 0 && s < n) {
                        (lat[s] == null ? lat[s] = new LongList() : lat[s]).add(pf.latencyUs(i));
                    }
                    int r = slice(pf.recvUs[i], start);
                    if (r >= 0 && r < n) {
                        done[r]++;
                    }
                }
                List<Slice> slices = new ArrayList<>();
                for (int s = 0; s < n; s++) {
                    long sliceStart = start + (s - TIMELINE_BEFORE_S) * 1_000_000L;
                    if (sliceStart < minSend - 1_000_000 || sliceStart > maxRecv) {
                        continue; // outside the configuration: nothing was being measured
                    }
                    slices.add(Slice.of(s - TIMELINE_BEFORE_S, lat[s], done[s]));
                }
                timelines.put(f.id(), new Timeline(f.id(), f.label(), pf.block, rel(f.detectedUs(), start),
                        rel(f.promotedUs(), start), rel(f.restoredUs(), start), rel(f.repairedUs(), start), slices,
                        bands(start, start - TIMELINE_BEFORE_S * 1_000_000L, start + endRel * 1_000_000L)));
            }
        }

        /** The hand-over of every primary fault that struck during this block. */
        private void handovers(ProbeFile pf, long minSend, long maxRecv) {
            Integer[] byRecv = null;
            for (FaultRecord f : faults) {
                long start = f.startUs();
                if (start == ProbeFile.NONE || start < minSend || start > maxRecv || handovers.containsKey(f.id())) {
                    continue;
                }
                if (byRecv == null) {
                    byRecv = new Integer[pf.size];
                    for (int i = 0; i < pf.size; i++) {
                        byRecv[i] = i;
                    }
                    java.util.Arrays.sort(byRecv, (a, b) -> Long.compare(pf.recvUs[a], pf.recvUs[b]));
                }
                LongList before = new LongList();
                for (int k = byRecv.length - 1; k >= 0 && before.size() < HANDOVER_ROWS; k--) {
                    int i = byRecv[k];
                    if (pf.completed(i) && pf.recvUs[i] < start && pf.fault[i] < 0 && pf.replica[i] >= 0
                            && pf.replicaNames.get(pf.replica[i]).equals(f.replica())) {
                        before.add(pf.latencyUs(i));
                    }
                }
                Map<String, Integer> after = new HashMap<>();
                int seen = 0;
                for (int k = 0; k < byRecv.length && seen < 2 * HANDOVER_ROWS; k++) {
                    int i = byRecv[k];
                    if (afterFault(pf, i, f)) {
                        after.merge(pf.replicaNames.get(pf.replica[i]), 1, Integer::sum);
                        seen++;
                    }
                }
                if (before.size() == 0 || after.isEmpty()) {
                    continue; // a backup's fault, or no requests on one side
                }
                String next = java.util.Collections.max(after.entrySet(), Map.Entry.comparingByValue()).getKey();
                // every request the new primary served after the fault, in the order they were answered: the first
                // HANDOVER_ROWS are the hand-over's, all of them the windows of its time back to speed
                LongList sends = new LongList();
                LongList latencies = new LongList();
                for (int k = 0; k < byRecv.length; k++) {
                    int i = byRecv[k];
                    if (afterFault(pf, i, f) && pf.replicaNames.get(pf.replica[i]).equals(next)) {
                        sends.add(pf.sendUs[i]);
                        latencies.add(pf.latencyUs(i));
                    }
                }
                long[] b = before.toArray();
                long[] all = latencies.toArray();
                long[] a = Arrays.copyOf(all, Math.min(all.length, HANDOVER_ROWS));
                Arrays.sort(b);
                Arrays.sort(a);
                long oldMedian = LatencyStats.perMille(b, 500);
                handovers.put(f.id(), new Handover(f.replica(), next, oldMedian, LatencyStats.perMille(a, 500),
                        b.length, a.length, backToSpeedS(sends.toArray(), all, oldMedian)));
            }
        }

        /** A completed request sent after fault {@code f} began, not a faulty invocation, answered by a survivor. */
        private static boolean afterFault(ProbeFile pf, int i, FaultRecord f) {
            return pf.completed(i) && pf.sendUs[i] > f.startUs() && pf.fault[i] < 0 && pf.replica[i] >= 0
                    && pf.outcome[i] != ProbeFile.RETRIED
                    && !pf.replicaNames.get(pf.replica[i]).equals(f.replica());
        }

        private static int slice(long t, long start) {
            return (int) Math.floorDiv(t - start, 1_000_000L) + TIMELINE_BEFORE_S;
        }

        private static Double rel(long t, long start) {
            return t == ProbeFile.NONE ? null : (t - start) / 1e6;
        }

        public Result finish(String strategy) {
            List<FaultSummary> summaries = faultSummaries();
            DoubleSummaryStatistics jitter = summaries.stream().map(FaultSummary::jitterUs).filter(j -> j != null)
                    .mapToDouble(Double::doubleValue).summaryStatistics();
            long[] ff = faultFree.toArray();
            Arrays.sort(ff);
            long[] fy = faulty.toArray();
            Arrays.sort(fy);
            return new Result(strategy, summaries, phaseStats(), detectionByKind(), LatencyStats.ofSorted(ff),
                    LatencyStats.ofSorted(fy), LatencyStats.of(overlapping.toArray()),
                    jitter.getCount() == 0 ? null : jitter.getMin(), jitter.getCount() == 0 ? null : jitter.getMax(),
                    recoveryVsOutliers(ff, fy), performability(fy.length), List.copyOf(configs),
                    List.copyOf(timelines.values()), weights,
                    new Redundancy(completedCount, extraRequests, hedgedAnswers, falseSuspicions,
                            java.util.Collections.unmodifiableMap(new LinkedHashMap<>(answeredBy))), runTimeline(),
                    byStrategy(), faultFreeByStrategy());
        }

        /** Per fault: what its requests saw (latency spread and maximum over the requests that overlapped it). */
        private List<FaultSummary> faultSummaries() {
            List<FaultSummary> summaries = new ArrayList<>();
            for (FaultRecord f : faults) {
                LongList l = latencyByFault.get(f.id());
                Double jitter = null;
                Long max = null;
                if (l != null && l.size() > 0) {
                    LatencyStats s = LatencyStats.of(l.toArray());
                    max = s.max();
                    if (s.count() > 1) {
                        jitter = s.std();
                    }
                }
                summaries.add(new FaultSummary(f, configByFault.get(f.id()), faultyByFault.getOrDefault(f.id(), 0),
                        l == null ? 0 : l.size(), jitter, max, handovers.get(f.id()),
                        failedByFault.getOrDefault(f.id(), 0)));
            }
            return summaries;
        }

        /** The faulty invocations' phases: detection, fail-over, retry and their total. */
        private List<PhaseStats> phaseStats() {
            return phaseStats(phases);
        }

        /** Each strategy's phases, when the run varies the strategy (empty otherwise). */
        private Map<String, List<PhaseStats>> byStrategy() {
            Map<String, List<PhaseStats>> out = new LinkedHashMap<>();
            phasesByStrategy.forEach((s, p) -> out.put(s, phaseStats(p)));
            return java.util.Collections.unmodifiableMap(out);
        }

        /** Each strategy's fault-free latencies, when the run varies the strategy (empty otherwise). */
        private Map<String, LatencyStats> faultFreeByStrategy() {
            Map<String, LatencyStats> out = new LinkedHashMap<>();
            faultFreeByStrategy.forEach((s, l) -> out.put(s, LatencyStats.of(l.toArray())));
            return java.util.Collections.unmodifiableMap(out);
        }

        private static List<PhaseStats> phaseStats(LongList[] phases) {
            List<PhaseStats> phaseStats = new ArrayList<>();
            String[] names = {"detection", "failover", "retry", "total"};
            for (int k = 0; k < 4; k++) {
                PhaseStats p = phase(names[k], phases[k].toArray());
                if (p != null) {
                    phaseStats.add(p);
                }
            }
            return phaseStats;
        }

        /** The Fault Detector's detection time, per fault kind. */
        private List<PhaseStats> detectionByKind() {
            List<PhaseStats> detection = new ArrayList<>();
            for (String kind : faults.stream().map(FaultRecord::label).distinct().toList()) {
                PhaseStats d = phase(kind, faults.stream().filter(f -> f.label().equals(kind))
                        .map(FaultRecord::detectionUs).filter(x -> x != null).mapToLong(Long::longValue).toArray());
                if (d != null) {
                    detection.add(d);
                }
            }
            return detection;
        }

        /** Recovery against the fault-free outliers ({@code ff}, {@code fy}: fault-free and faulty, sorted). */
        private static RecoveryVsOutliers recoveryVsOutliers(long[] ff, long[] fy) {
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

        /** The whole run's performability, of {@code faultyCount} faulty invocations. */
        private Performability performability(int faultyCount) {
            return new Performability("all", (int) requests, (int) failed, faultyCount,
                    idealSliceCompletions > 0 ? fullSliceCompletions / idealSliceCompletions : null,
                    faultFree.size() == 0 || completedCount == 0 ? null
                            : (faultFreeSum / faultFree.size()) / (completedSum / completedCount),
                    frac(over[0] + failed, requests), frac(over[1] + failed, requests),
                    frac(over[2] + failed, requests), demerits, anyOpenLoop || correctedTotal == 0 ? null
                            : new CorrectedPerformability(frac(correctedOver[0], correctedTotal),
                                    frac(correctedOver[1], correctedTotal), frac(correctedOver[2], correctedTotal),
                                    faultFree.size() == 0 || correctedCompleted == 0 ? null
                                            : (faultFreeSum / faultFree.size()) / (correctedSum
                                                    / correctedCompleted)));
        }

        /** Every fault that overlaps [fromUs, toUs], as bands in seconds relative to {@code originUs}. */
        private List<Band> bands(long originUs, long fromUs, long toUs) {
            List<Band> bands = new ArrayList<>();
            for (FaultRecord g : faults) {
                long s = g.startUs();
                long e = g.repairedUs() != ProbeFile.NONE ? Math.max(g.repairedUs(), g.endUs()) : g.endUs();
                if (s != ProbeFile.NONE && s <= toUs && e >= fromUs) {
                    bands.add(new Band(g.id(), g.label(), g.target(), (s - originUs) / 1e6, (e - originUs) / 1e6));
                }
            }
            return bands;
        }

        /** The whole run second by second, from the first second a request was sent in. */
        private RunTimeline runTimeline() {
            if (bySecond.isEmpty()) {
                return new RunTimeline(List.of(), List.of());
            }
            long first = bySecond.firstKey();
            List<Slice> slices = new ArrayList<>();
            for (Map.Entry<Long, LongList> e : bySecond.entrySet()) {
                slices.add(Slice.of((int) (e.getKey() - first), e.getValue(),
                        doneBySecond.getOrDefault(e.getKey(), 0)));
            }
            long originUs = first * 1_000_000L;
            return new RunTimeline(slices, bands(originUs, originUs, (bySecond.lastKey() + 1) * 1_000_000L));
        }

        private static PhaseStats phase(String name, long[] v) {
            if (v.length == 0) {
                return null;
            }
            LatencyStats s = LatencyStats.of(v);
            return new PhaseStats(name, s.count(), s.mean(), s.median(), s.min(), s.max());
        }

        private static double frac(long n, long of) {
            return of == 0 ? 0 : (double) n / of;
        }
    }

    private FailoverAnalysis() {
    }
}
