package org.ftlab.harness.analysis;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.ftlab.harness.analysis.RunAnalysis.Design;
import org.ftlab.harness.analysis.RunAnalysis.Entry;
import org.ftlab.harness.probe.Manifest;

/**
 * What the manifest says of a run: fail-over strategy, settings, fault kinds, design, platform and replicas (a
 * factor the run varies gives its levels joined by commas); "unknown" and a null design (the probe files tell it)
 * for a run without a manifest.
 */
record RunHeader(String strategy, String settings, String faultKind, Design design, String platform,
        String replicas) {
    static final RunHeader NO_MANIFEST = new RunHeader("unknown", "unknown", "unknown", null, "unknown", "unknown");

    /**
     * Reads the manifest of a run with {@code blocks} probe files, adding to {@code warnings} what a reader must know
     * from it.
     */
    static RunHeader read(Path runDir, int blocks, List<String> warnings) throws IOException {
        if (!Manifest.existsIn(runDir)) {
            warnings.add("no manifest.json: the run's status is unknown");
            return NO_MANIFEST;
        }
        Manifest m = Manifest.readAny(runDir);
        Design design = design(m.grid());
        warnings.addAll(warnings(m, design, blocks));
        Manifest.Grid g = m.grid();
        return new RunHeader(g != null && g.strategy() != null ? String.join(",", g.strategy())
                : m.failoverStrategy() == null ? "unknown" : m.failoverStrategy(),
                m.settings().describe(), m.faults().describeKinds(), design,
                g != null && g.platform() != null ? String.join(",", g.platform()) : m.platform(),
                g != null && g.replicas() != null ? g.replicas().stream().map(String::valueOf)
                        .collect(Collectors.joining(",")) : String.valueOf(m.replicas()));
    }

    /**
     * The manifest's design; without a manifest, the design the probe files themselves tell: open loop from a rate
     * in a block's name, the replicates from the blocks'.
     */
    Design designOr(List<Entry> entries) {
        if (design != null) {
            return design;
        }
        boolean open = entries.stream().anyMatch(x -> x.block().openLoop());
        return new Design(open ? "open" : "closed", "unknown", null,
                entries.stream().mapToInt(Entry::replicate).max().orElse(1), 0, 0);
    }

    /** The design the grid records; the plain design for the earliest runs, which recorded none. */
    private static Design design(Manifest.Grid g) {
        if (!g.hasDesign()) {
            return new Design("closed", "sequential", null, 1, 0, 0);
        }
        return new Design(g.arrival() == null ? "closed" : g.arrival(), g.order(), g.seed(),
                g.repeat() == null ? 1 : g.repeat(), g.warmupPerClient() == null ? 0 : g.warmupPerClient(),
                g.labWarmupPerClient() == null ? 0 : g.labWarmupPerClient());
    }

    /**
     * What a reader must know from the manifest: a run that did not finish every block, a sequential order, no
     * request log, a failed exactly-once audit.
     */
    private static List<String> warnings(Manifest m, Design design, int blocks) {
        List<String> warnings = new ArrayList<>();
        Manifest.Grid g = m.grid();
        int repeat = g.repeat() == null ? 1 : g.repeat();
        int configurations = g.configurations() > 0 ? g.configurations() : blocks;
        int planned = configurations * repeat;
        if (!"complete".equals(m.status()) || blocks < planned) {
            warnings.add("the run is " + m.status() + ": " + blocks + " of " + planned
                    + " blocks (configuration × replicate) have probes; statistics cover only those");
        }
        if (design.order().equals("sequential") && g.configurations() > 1) {
            warnings.add("configurations ran in grid order (--order sequential): a factor's effect is "
                    + "confounded with the time it ran at (warm-up, database growth)");
        }
        if (!m.settings().requestLog()) {
            warnings.add("the replicas ran WITHOUT the request log (--request-log off, the exactly-once "
                    + "exercise): a request that reached a replica twice ran twice");
        }
        if (m.audit() != null && !m.audit().passed()) {
            warnings.add("the exactly-once audit failed: " + m.audit().problems());
        }
        return warnings;
    }
}
