package org.ftlab.harness.grid;

import org.ftlab.harness.probe.ProbeTable;
import org.ftlab.harness.workload.OperationOrder;

/**
 * A client's share of a block, request by request: {@code warmup} warm-up requests, the order's operations mixed in
 * its proportions, then the measured requests in the order the workload chose, stretch after stretch.
 */
record ClientShare(int warmup, OperationOrder order) {
    /** Its requests, warm-up and measured. */
    int size() {
        return warmup + order.size();
    }

    /** The measured requests. */
    int measured() {
        return order.size();
    }

    /** The operation of the {@code i}-th request (an index into the workload's operations). */
    int operationAt(int i) {
        return i < warmup ? order.warmupOperation(i) : order.operationAt(i - warmup);
    }

    ProbeTable.Phase phaseAt(int i) {
        return i < warmup ? ProbeTable.Phase.WARMUP : ProbeTable.Phase.MEASURE;
    }

    /** The stretches of the measured requests. */
    int stretches() {
        return order.stretches().size();
    }

    /** The stretch whose last measured request is the {@code i}-th of the share; -1 when none ends there. */
    int stretchEndingAt(int i) {
        if (i < warmup) {
            return -1;
        }
        int k = order.stretchAt(i - warmup);
        return order.lastOf(k) == i - warmup ? k : -1;
    }

    /** The operation of stretch {@code k}. */
    int operationOf(int k) {
        return order.stretches().get(k).operation();
    }
}
