package org.ftlab.harness.analysis;

import java.util.ArrayList;
import java.util.List;
import org.ftlab.harness.analysis.FailoverAnalysis.CorrectedPerformability;
import org.ftlab.harness.analysis.FailoverAnalysis.Demerits;
import org.ftlab.harness.analysis.FailoverAnalysis.Performability;
import org.ftlab.harness.probe.FaultRecord;
import org.ftlab.harness.probe.ProbeFile;

/**
 * Performability (seed 001 chapter 5) per block and for the run, against the fault-free requests of the <b>same
 * run</b>: goodput ({@link GoodputTally}), punctuality, the share of requests over 0.1 s / 1 s / 2 s, demerits, and
 * the same over the latencies corrected for coordinated omission ({@link CorrectedTally}).
 */
final class PerformabilityTally {
    /** The exceedance thresholds: 0.1 s, 1 s, 2 s. */
    static final long[] THRESHOLDS_US = {100_000, 1_000_000, 2_000_000};

    private final Demerits weights;
    private final GoodputTally goodput;
    private final CorrectedTally corrected = new CorrectedTally();
    private final List<Performability> blocks = new ArrayList<>();
    private long requests;
    private long failed;
    private long faulty;
    private final long[] over = new long[3];
    private double demerits;
    private double faultFreeSumUs;
    private long faultFreeCount;
    private double completedSumUs;
    private long completedCount;

    PerformabilityTally(List<FaultRecord> faults, Demerits weights) {
        this.goodput = new GoodputTally(faults);
        this.weights = weights;
    }

    /** Adds the block's performability, and its requests to the run's. */
    void accept(ProbeFile pf) {
        BlockTally b = BlockTally.of(pf);
        Double idealMean = b.faultFreeMeanUs();
        double blockDemerits = weights.total(b.failed, b.over[2], b.over[1], b.excessUs);
        CorrectedPerformability c = corrected.accept(pf, b.failed, b.completedCount, idealMean);
        blocks.add(new Performability(pf.block, pf.size, b.failed, b.faulty, goodput.accept(pf),
                idealMean == null || b.completedCount == 0 ? null : idealMean / (b.completedSumUs / b.completedCount),
                frac(b.over[0] + b.failed, pf.size), frac(b.over[1] + b.failed, pf.size),
                frac(b.over[2] + b.failed, pf.size), blockDemerits, c));
        requests += pf.size;
        failed += b.failed;
        faulty += b.faulty;
        for (int k = 0; k < 3; k++) {
            over[k] += b.over[k];
        }
        demerits += blockDemerits;
        faultFreeSumUs += b.faultFreeSumUs;
        faultFreeCount += b.faultFreeCount;
        completedSumUs += b.completedSumUs;
        completedCount += b.completedCount;
    }

    /** Each block's performability, in the order the blocks were accepted. */
    List<Performability> blocks() {
        return List.copyOf(blocks);
    }

    /** The whole run's performability ({@code config} "all"), against the run's fault-free mean. */
    Performability run() {
        Double faultFreeMean = faultFreeCount == 0 ? null : faultFreeSumUs / faultFreeCount;
        return new Performability("all", (int) requests, (int) failed, (int) faulty, goodput.run(),
                faultFreeMean == null || completedCount == 0 ? null
                        : faultFreeMean / (completedSumUs / completedCount),
                frac(over[0] + failed, requests), frac(over[1] + failed, requests), frac(over[2] + failed, requests),
                demerits, corrected.run(faultFreeMean));
    }

    /** {@code n} ÷ {@code of}; 0 when {@code of} is 0. */
    static double frac(long n, long of) {
        return of == 0 ? 0 : (double) n / of;
    }

    /** What one block's rows add up to: latency sums and counts by class, failures, exceedances. */
    private static final class BlockTally {
        private double faultFreeSumUs;
        private int faultFreeCount;
        private double completedSumUs;
        private int completedCount;
        private int faulty;
        private int failed;
        private final int[] over = new int[3];
        private double excessUs;

        static BlockTally of(ProbeFile pf) {
            BlockTally b = new BlockTally();
            for (int i = 0; i < pf.size; i++) {
                RowClass c = RowClass.of(pf, i);
                if (c == RowClass.FAILED) {
                    continue;
                }
                long latency = pf.latencyUs(i);
                b.completedSumUs += latency;
                b.completedCount++;
                if (c == RowClass.FAULTY) {
                    b.faulty++;
                } else if (c == RowClass.FAULT_FREE) {
                    b.faultFreeSumUs += latency;
                    b.faultFreeCount++;
                }
            }
            b.exceedance(pf, b.faultFreeMeanUs());
            return b;
        }

        /** The block's fault-free mean latency, µs; null when it had no fault-free request. */
        Double faultFreeMeanUs() {
            return faultFreeCount == 0 ? null : faultFreeSumUs / faultFreeCount;
        }

        /**
         * Counts the block's failed requests, its requests over each threshold and its waiting above the fault-free
         * mean {@code idealMeanUs} (none when null).
         */
        private void exceedance(ProbeFile pf, Double idealMeanUs) {
            for (int i = 0; i < pf.size; i++) {
                if (!pf.completed(i)) {
                    failed++;
                    continue;
                }
                long latency = pf.latencyUs(i);
                for (int k = 0; k < 3; k++) {
                    if (latency > THRESHOLDS_US[k]) {
                        over[k]++;
                    }
                }
                if (idealMeanUs != null && latency > idealMeanUs) {
                    excessUs += latency - idealMeanUs;
                }
            }
        }
    }
}
