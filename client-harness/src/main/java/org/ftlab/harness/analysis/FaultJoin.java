package org.ftlab.harness.analysis;

import java.util.HashMap;
import java.util.Map;
import org.ftlab.harness.probe.ProbeFile;

/**
 * Probe rows joined to the faults they overlapped: a row's fault is its {@code fault_id}; a fault's block is the
 * first block in which a row overlapped it.
 */
final class FaultJoin {
    private final Map<String, String> blockByFault = new HashMap<>();

    /** Makes {@code pf} the block of every fault its rows overlapped that no earlier block met. */
    void accept(ProbeFile pf) {
        for (int i = 0; i < pf.size; i++) {
            String faultId = faultOf(pf, i);
            if (faultId != null) {
                blockByFault.putIfAbsent(faultId, pf.block);
            }
        }
    }

    /** The block in which a row first overlapped fault {@code faultId}; null when no row did (yet). */
    String blockOf(String faultId) {
        return blockByFault.get(faultId);
    }

    /** The id of the fault row {@code i} overlapped, or null when no fault was on. */
    static String faultOf(ProbeFile pf, int i) {
        return pf.fault[i] < 0 ? null : pf.faultIds.get(pf.fault[i]);
    }
}
