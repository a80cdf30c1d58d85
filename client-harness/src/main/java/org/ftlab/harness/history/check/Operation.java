package org.ftlab.harness.history.check;

import org.ftlab.harness.history.HistoryEvent;

/**
 * One operation of a history, as the checker sees it: its invocation and completion paired, its arguments and reply
 * read by the model. A completion it never had, or an {@code info}, leaves its outcome unknown: it may take effect at
 * any time after its invocation, or never ({@link #returnIndex} then is {@link Long#MAX_VALUE}).
 *
 * @param id its rank among the key's operations, in the order they were invoked
 * @param input the model's reading of its arguments
 * @param output the model's reading of its reply; null when the outcome is unknown
 * @param callIndex the history index of its invocation
 * @param returnIndex the history index of its completion; {@link Long#MAX_VALUE} when the outcome is unknown
 * @param invoke its invocation
 * @param completion its completion; null when it never completed
 */
public record Operation(int id, Object input, Object output, long callIndex, long returnIndex, HistoryEvent invoke,
        HistoryEvent completion) {
    public boolean outcomeUnknown() {
        return returnIndex == Long.MAX_VALUE;
    }

    Operation withId(int newId) {
        return new Operation(newId, input, output, callIndex, returnIndex, invoke, completion);
    }
}
