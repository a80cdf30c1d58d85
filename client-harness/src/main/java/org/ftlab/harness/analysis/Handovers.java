package org.ftlab.harness.analysis;

import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.ftlab.harness.analysis.FailoverAnalysis.Handover;
import org.ftlab.harness.probe.FaultRecord;
import org.ftlab.harness.probe.ProbeFile;

/**
 * Per fault of a primary, the hand-over: the median latency of the last {@value #HANDOVER_ROWS} requests the failed
 * primary served before the fault against the first {@value #HANDOVER_ROWS} the new primary served after it (how
 * warm the new primary was), and when the new primary was back to speed. A fault's hand-over is found in the block
 * its start falls in; a backup's fault has none.
 */
final class Handovers {
    /** Requests on each side of a hand-over whose medians are compared. */
    static final int HANDOVER_ROWS = 100;
    /** A window of the new primary's requests is back to speed when its median is within this of the old one's. */
    static final double BACK_TO_SPEED_RATIO = 1.2;
    /** How far after its first request the new primary's windows are looked at. */
    static final int BACK_TO_SPEED_MAX_S = 30;

    private final List<FaultRecord> faults;
    private final Map<String, Handover> byFault = new HashMap<>();

    Handovers(List<FaultRecord> faults) {
        this.faults = faults;
    }

    /** Finds the hand-over of every primary fault that struck during this block and has none yet. */
    void accept(ProbeFile pf) {
        if (pf.size == 0) {
            return;
        }
        BlockSpan span = BlockSpan.of(pf);
        Integer[] byRecv = null;
        for (FaultRecord f : faults) {
            long start = f.startUs();
            if (start == ProbeFile.NONE || !span.covers(start) || byFault.containsKey(f.id())) {
                continue;
            }
            if (byRecv == null) {
                byRecv = byReceiveTime(pf);
            }
            Handover h = handover(pf, byRecv, f);
            if (h != null) {
                byFault.put(f.id(), h);
            }
        }
    }

    /** The hand-overs found, by fault id. */
    Map<String, Handover> byFault() {
        return Collections.unmodifiableMap(byFault);
    }

    /** The block's row indices in the order their replies were received. */
    private static Integer[] byReceiveTime(ProbeFile pf) {
        Integer[] byRecv = new Integer[pf.size];
        for (int i = 0; i < pf.size; i++) {
            byRecv[i] = i;
        }
        Arrays.sort(byRecv, (a, b) -> Long.compare(pf.recvUs[a], pf.recvUs[b]));
        return byRecv;
    }

    /**
     * The hand-over of fault {@code f} from the block's rows in receive order; null when the faulty replica served
     * none of the requests before it (a backup's fault) or no survivor served one after it.
     */
    private static Handover handover(ProbeFile pf, Integer[] byRecv, FaultRecord f) {
        long start = f.startUs();
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
            return null;
        }
        String next = Collections.max(after.entrySet(), Map.Entry.comparingByValue()).getKey();
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
        return new Handover(f.replica(), next, oldMedian, LatencyStats.perMille(a, 500), b.length, a.length,
                backToSpeedS(sends.toArray(), all, oldMedian));
    }

    /** A completed request sent after fault {@code f} began, not a faulty invocation, answered by a survivor. */
    private static boolean afterFault(ProbeFile pf, int i, FaultRecord f) {
        return pf.completed(i) && pf.sendUs[i] > f.startUs() && pf.fault[i] < 0 && pf.replica[i] >= 0
                && pf.outcome[i] != ProbeFile.RETRIED
                && !pf.replicaNames.get(pf.replica[i]).equals(f.replica());
    }

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
}
