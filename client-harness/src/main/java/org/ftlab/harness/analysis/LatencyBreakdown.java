package org.ftlab.harness.analysis;

import org.ftlab.harness.analysis.RunAnalysis.Breakdown;
import org.ftlab.harness.probe.ProbeFile;

/**
 * Where a method's time went (seed 002): the mean middleware, server and database components of its completed
 * requests that carry server probes, over all of them and over the slowest 1%.
 */
final class LatencyBreakdown {
    private LatencyBreakdown() {
    }

    /**
     * The breakdown of method index {@code method} (-1: every method); the slowest 1% are the requests whose service
     * time is at least {@code p99Us}. Null when no request carries server probes.
     */
    static Breakdown of(ProbeFile pf, int method, long p99Us) {
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
            if (latency >= p99Us) {
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
}
