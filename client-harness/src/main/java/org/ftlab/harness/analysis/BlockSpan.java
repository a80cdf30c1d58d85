package org.ftlab.harness.analysis;

import org.ftlab.harness.probe.ProbeFile;

/**
 * The time a block's requests span: its first client send and its last client receive, µs since the epoch, over
 * every row (failed ones too).
 */
record BlockSpan(long firstSendUs, long lastRecvUs) {
    /** The span of {@code pf}'s rows; call it on a block with at least one row. */
    static BlockSpan of(ProbeFile pf) {
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (int i = 0; i < pf.size; i++) {
            first = Math.min(first, pf.sendUs[i]);
            last = Math.max(last, pf.recvUs[i]);
        }
        return new BlockSpan(first, last);
    }

    /** Whether {@code tUs} falls within the span, both ends included. */
    boolean covers(long tUs) {
        return tUs >= firstSendUs && tUs <= lastRecvUs;
    }
}
