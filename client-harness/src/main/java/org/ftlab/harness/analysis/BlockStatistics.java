package org.ftlab.harness.analysis;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.ftlab.harness.analysis.RunAnalysis.BlockHistograms;
import org.ftlab.harness.analysis.RunAnalysis.ConfigPlot;
import org.ftlab.harness.analysis.RunAnalysis.Entry;
import org.ftlab.harness.probe.ProbeFile;

/**
 * The latency figures of each block, fed the probe files one at a time: its entries ({@link BlockEntries}), its
 * histograms ({@link LatencyHistograms}) and its plot data ({@link LatencyPlots}); and what a reader must know of
 * them: failed requests, late starts, blocks not at steady state.
 */
final class BlockStatistics {
    private final List<Entry> entries = new ArrayList<>();
    private final List<ConfigPlot> plots = new ArrayList<>();
    private final List<BlockHistograms> histograms = new ArrayList<>();
    private int failures;
    private long lateStarts;
    private long requests;

    /** Adds the block's entries, histograms and plot data. */
    void accept(ProbeFile pf) {
        List<Entry> e = BlockEntries.of(pf);
        entries.addAll(e);
        Entry all = e.get(e.size() - 1);
        failures += all.failures();
        requests += pf.size;
        if (all.openLoop() != null) {
            lateStarts += all.openLoop().lateStarts();
        }
        BlockHistograms h = LatencyHistograms.of(pf, all);
        histograms.add(h);
        plots.add(LatencyPlots.of(pf, h));
    }

    /** Every block's entries, blocks in the order they were accepted. */
    List<Entry> entries() {
        return List.copyOf(entries);
    }

    List<ConfigPlot> plots() {
        return List.copyOf(plots);
    }

    List<BlockHistograms> histograms() {
        return List.copyOf(histograms);
    }

    /** Failed requests, late starts and blocks not at steady state, each when there are any. */
    List<String> warnings() {
        List<String> warnings = new ArrayList<>();
        if (failures > 0) {
            warnings.add(failures + " requests failed; they are counted in 'failures' and left out of the "
                    + "latency statistics");
        }
        if (lateStarts > 0) {
            warnings.add(String.format(Locale.ROOT, "%d of %d open-loop requests (%.2f%%) started more than "
                    + "%d ms after their intended time (every worker of their client was busy); their wait counts in "
                    + "their latency", lateStarts, requests, 100.0 * lateStarts / requests,
                    RunAnalysis.LATE_START_US / 1000));
        }
        List<Entry> unsteady = entries.stream().filter(x -> x.method().equals("all") && x.steady() != null
                && !x.steady().steady()).toList();
        if (!unsteady.isEmpty()) {
            warnings.add(unsteady.size() + " blocks were not at steady state (first-decile mean > "
                    + RunAnalysis.STEADY_STATE_RATIO + " × last-decile mean), e.g. " + unsteady.get(0).label()
                    + String.format(Locale.ROOT, " (%.2f×)", unsteady.get(0).steady().ratio())
                    + ": give more --warmup; they are marked in the headline table");
        }
        return warnings;
    }
}
