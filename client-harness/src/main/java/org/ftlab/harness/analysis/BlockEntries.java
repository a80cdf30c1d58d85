package org.ftlab.harness.analysis;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.ftlab.harness.analysis.RunAnalysis.Block;
import org.ftlab.harness.analysis.RunAnalysis.Breakdown;
import org.ftlab.harness.analysis.RunAnalysis.Entry;
import org.ftlab.harness.analysis.RunAnalysis.OpenLoop;
import org.ftlab.harness.analysis.RunAnalysis.SteadyState;
import org.ftlab.harness.probe.ProbeFile;

/**
 * A block's rows of the summary: one {@link Entry} per method and one for all methods together, each with its
 * latency statistics, breakdown, request rate, steady state, coordinated-omission correction (closed loop) or
 * service time and late starts (open loop).
 */
final class BlockEntries {
    private BlockEntries() {
    }

    /** One entry per method (in order of first appearance), then the one for all methods ({@code all}). */
    static List<Entry> of(ProbeFile pf) {
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

    /** The entry of method index {@code method} named {@code name}, or of every method when it is -1. */
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
            if (delay > RunAnalysis.LATE_START_US) {
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
        Breakdown breakdown = stats == null ? null
                : LatencyBreakdown.of(pf, method, LatencyStats.perMille(services, 990));
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
        SteadyState steady = method >= 0 ? SteadyStateCheck.of(pf, method) : allSteady;
        return new Entry(pf.config, pf.clients, pf.thinkMillis, pf.reply, name, failures, stats, breakdown, rate,
                throughput, new Block(pf.block, pf.replicate, pf.ratePerS, pf.warmupRows, pf.strategy,
                        pf.replicas, pf.platform), steady, corrected, open);
    }
}
