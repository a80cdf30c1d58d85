package org.ftlab.harness.grid;

import java.util.List;
import java.util.Locale;
import org.ftlab.harness.probe.ProbeTable;

/** How long the blocks left will take, from the mean latency seen so far (5 ms until measured). */
final class Eta {
    private final int requestsPerClient;
    private double meanLatencyMillis = 5;

    /** For blocks of {@code requestsPerClient} requests per client, warm-up and measured. */
    Eta(int requestsPerClient) {
        this.requestsPerClient = requestsPerClient;
    }

    /** The mean latency becomes that of {@code tables}' rows, when they have any. */
    void observe(List<ProbeTable> tables) {
        long sum = 0;
        long n = 0;
        for (ProbeTable t : tables) {
            for (int i = 0; i < t.size(); i++) {
                sum += t.latencyMicros(i);
                n++;
            }
        }
        if (n > 0) {
            meanLatencyMillis = sum / 1000.0 / n;
        }
    }

    /** The time {@code remaining} will take: seconds, minutes or hours. */
    String of(List<GridPlan.Block> remaining) {
        double ms = 0;
        for (GridPlan.Block b : remaining) {
            GridConfig c = b.config();
            ms += requestsPerClient * (c.openLoop() ? 1000 / c.ratePerS()
                    : c.thinkMillis() + meanLatencyMillis * Math.max(1, c.clients() / 2.0));
        }
        long s = Math.round(ms / 1000);
        return s < 120 ? s + " s" : s < 7200 ? (s / 60) + " min" : String.format(Locale.ROOT, "%.1f h", s / 3600.0);
    }
}
