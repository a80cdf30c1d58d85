package org.ftlab.harness.analysis;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.ftlab.harness.analysis.RunAnalysis.BlockHistograms;
import org.ftlab.harness.analysis.RunAnalysis.ClientSeries;
import org.ftlab.harness.analysis.RunAnalysis.ConfigPlot;
import org.ftlab.harness.probe.ProbeFile;

/** A block's plot data: each client's latencies in request order, the latency CDF, and the percentile spectra. */
final class LatencyPlots {
    /** Points per client in the latency-vs-request plots. */
    static final int SERIES_POINTS = 400;

    private LatencyPlots() {
    }

    /**
     * The plot data of the block's completed requests, the spectra from its histograms {@code h}. A client's series
     * longer than {@value #SERIES_POINTS} points is cut into equal buckets, each shown by its slowest request. The
     * CDF is at every percent, every 0.1% above 99% and every 0.01% above 99.9%.
     */
    static ConfigPlot of(ProbeFile pf, BlockHistograms h) {
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
            series.add(series(pf.clientIds.get(c), lat.toArray()));
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

    /** One client's latencies {@code v} (µs, request order) thinned to at most {@value #SERIES_POINTS} points. */
    private static ClientSeries series(String client, long[] v) {
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
        return new ClientSeries(client, index, ms);
    }
}
