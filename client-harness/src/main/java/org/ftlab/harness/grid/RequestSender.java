package org.ftlab.harness.grid;

import org.ftlab.auction.api.MicroClock;
import org.ftlab.auction.api.Reply;
import org.ftlab.auction.api.ReplySize;
import org.ftlab.auction.api.RequestHeader;
import org.ftlab.auction.api.ThreadSchedstat;
import org.ftlab.harness.failover.Outcome;
import org.ftlab.harness.failover.PluginFailure;
import org.ftlab.harness.history.History;
import org.ftlab.harness.probe.ProbeTable;
import org.ftlab.harness.workload.Workload;

/**
 * Sends a client's requests and completes their probe rows. The timed path is the invocation between two clock
 * readings; the request is prepared before it, its shadow (with shadow traffic) mirrored after it.
 */
final class RequestSender {
    /** Whether the clients shadow their requests to the backups ({@code --shadow}). */
    private final boolean shadows;
    private final RunControl control;

    RequestSender(boolean shadows, RunControl control) {
        this.shadows = shadows;
        this.control = control;
    }

    /** One request as the grid sends it: the workload's request, its header (seq) and its phase. */
    record Sent(Workload.Request request, RequestHeader header, ProbeTable.Phase phase) {
    }

    /** The next request of {@code c}: operation {@code operation}, reply size {@code reply}, of block {@code tag}. */
    static Sent prepare(GridClient c, ReplySize reply, String tag, int operation, ProbeTable.Phase phase) {
        RequestHeader header = c.session().next(reply);
        return new Sent(c.workload().next(operation, header, tag), header, phase);
    }

    /** Invokes {@code r} and completes its row {@code row} of {@code table}. */
    void invoke(Sent r, GridClient c, ProbeTable table, int row, int sizedBytes) {
        boolean observed = r.header().observed();
        // outside the timed path, as the second reading
        long runQueue = observed ? ThreadSchedstat.runQueueNanos() : ThreadSchedstat.UNKNOWN;
        // the history's invocation before the first reading, its completion after the second: off the timed path
        History.Operation history = c.session().invoked(r.request().invocation(), r.header().seq());
        long sent = MicroClock.nowEpochMicros();
        try {
            Outcome<?> o = r.request().invoke(c.session().client);
            long received = MicroClock.nowEpochMicros();
            if (history != null) {
                history.ok(r.request().replyValue(o), o.servedBy(), r.request().replyKey(o));
            }
            if (observed) {
                table.clientRunQueue(row, ThreadSchedstat.deltaMicros(runQueue, ThreadSchedstat.runQueueNanos()));
            }
            table.served(row, sizedBytes, sent, received, o.result() instanceof Reply<?> reply ? reply : null,
                    o.servedBy(), o.served().wireName(), o.phases(), o.sentTo());
            table.replyDigest(row, r.request().replyDigest(o));
            r.request().completed(o);
            if (shadows) {
                c.session().client.mirror(r.request().shadow()); // after the timed path; only with shadow traffic
            }
        } catch (PluginFailure e) {
            long failed = MicroClock.nowEpochMicros();
            control.pluginFailed(e);
            recordFailure(history, e);
            table.failed(row, sent, failed, e);
        } catch (Exception e) {
            long failed = MicroClock.nowEpochMicros();
            recordFailure(history, e);
            table.failed(row, sent, failed, e);
        }
    }

    private static void recordFailure(History.Operation history, Exception e) {
        if (history != null) {
            history.failed(e);
        }
    }

    /**
     * Sends {@code request} of {@code c} outside any block (a final read): recorded in the run's history, in no
     * probe table; a failure is in the history too, and is returned.
     */
    static Exception untimed(Workload.Request request, long seq, GridClient c) {
        History.Operation history = c.session().invoked(request.invocation(), seq);
        try {
            Outcome<?> o = request.invoke(c.session().client);
            if (history != null) {
                history.ok(request.replyValue(o), o.servedBy(), request.replyKey(o));
            }
            request.completed(o);
            return null;
        } catch (Exception e) {
            recordFailure(history, e);
            return e;
        }
    }

    /** Sends one closed-loop request and thinks. */
    void closedLoop(Sent r, GridClient c, ProbeTable table, int sizedBytes, int thinkMillis)
            throws InterruptedException {
        int row = table.claim(r.header().seq(), r.request().method(), 0, r.phase());
        invoke(r, c, table, row, sizedBytes);
        table.setIntendedToSend(row); // closed loop: intended = sent
        if (thinkMillis > 0) {
            Thread.sleep(thinkMillis);
        }
    }

    /** A reply size as a probe row records it: its bytes, or -1 for the original reply. */
    static int sizedBytes(ReplySize reply) {
        return reply.isOriginal() ? -1 : reply.bytes();
    }
}
