package org.ftlab.harness.analysis;

import java.util.ArrayList;
import java.util.List;
import org.ftlab.harness.analysis.FailoverAnalysis.Band;
import org.ftlab.harness.probe.FaultRecord;
import org.ftlab.harness.probe.ProbeFile;

/** Faults as bands on a time-based plot: each from its start to its repair, or to its end when never repaired. */
final class FaultBands {
    private FaultBands() {
    }

    /** Every fault that overlaps [fromUs, toUs], as bands in seconds relative to {@code originUs}. */
    static List<Band> within(List<FaultRecord> faults, long originUs, long fromUs, long toUs) {
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
}
