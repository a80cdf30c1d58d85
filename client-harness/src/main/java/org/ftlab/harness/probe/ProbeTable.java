package org.ftlab.harness.probe;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.ftlab.auction.api.Reply;
import org.ftlab.auction.api.ServerProbes;
import org.ftlab.harness.failover.FailoverPhases;

/**
 * Per-request probe rows of one client in preallocated columns, so that recording a request on the timed path is a
 * handful of array stores (no I/O, no allocation). Rows are written out after the run, atomically.
 *
 * <p>All timestamps are microseconds since the Unix epoch; client columns come from the client's clock, server
 * columns from the replica's (see docs/probe-format.md).
 */
public final class ProbeTable {
    /** The probe file header (docs/probe-format.md); later columns may be added, never reordered. */
    public static final String HEADER = "client,seq,method,reply_bytes,client_send_us,client_recv_us,server_recv_us,"
            + "db_start_us,db_end_us,server_send_us,epoch_us,replica,outcome,fault_id,detect_us,failover_us,retry_us";

    private final String clientId;
    private final long[] seq;
    private final String[] method;
    private final int[] replyBytes;
    private final long[] clientSend;
    private final long[] clientRecv;
    private final long[] serverRecv;
    private final long[] dbStart;
    private final long[] dbEnd;
    private final long[] serverSend;
    private final String[] replica;
    private final String[] outcome;
    /** Fail-over phases of faulty invocations, µs; -1 for fault-free rows. */
    private final long[] detect;
    private final long[] failover;
    private final long[] retry;
    private final String[] faultId;
    private int size;

    public ProbeTable(String clientId, int capacity) {
        this.clientId = clientId;
        seq = new long[capacity];
        method = new String[capacity];
        replyBytes = new int[capacity];
        clientSend = new long[capacity];
        clientRecv = new long[capacity];
        serverRecv = new long[capacity];
        dbStart = new long[capacity];
        dbEnd = new long[capacity];
        serverSend = new long[capacity];
        replica = new String[capacity];
        outcome = new String[capacity];
        detect = new long[capacity];
        failover = new long[capacity];
        retry = new long[capacity];
        faultId = new String[capacity];
    }

    /** Records a successful invocation. {@code replyBytes} is the payload size, or -1 for the natural reply. */
    public void recordOk(long seqNo, String methodName, int replyPayloadBytes, long sendMicros, long recvMicros,
            Reply<?> reply) {
        int i = size++;
        seq[i] = seqNo;
        method[i] = methodName;
        replyBytes[i] = replyPayloadBytes;
        clientSend[i] = sendMicros;
        clientRecv[i] = recvMicros;
        ServerProbes p = reply.probes();
        serverRecv[i] = p.receivedMicros();
        dbStart[i] = p.dbStartMicros();
        dbEnd[i] = p.dbEndMicros();
        serverSend[i] = p.replySentMicros();
        replica[i] = reply.replica();
        outcome[i] = "ok";
        detect[i] = -1;
        faultId[i] = null;
    }

    /**
     * Records a faulty invocation that succeeded after fail-over: outcome {@code retried}, with its three phases.
     * {@code fault} names the injected fault it met, or null if unknown yet.
     */
    public void recordRetried(long seqNo, String methodName, int replyPayloadBytes, long sendMicros, long recvMicros,
            Reply<?> reply, FailoverPhases phases, String fault) {
        recordOk(seqNo, methodName, replyPayloadBytes, sendMicros, recvMicros, reply);
        int i = size - 1;
        outcome[i] = "retried";
        detect[i] = phases.detectMicros();
        failover[i] = phases.failoverMicros();
        retry[i] = phases.retryMicros();
        faultId[i] = fault;
    }

    /**
     * Marks every row whose request overlapped {@code [fromMicros, toMicros]} (client clock) as affected by
     * {@code fault}; a row already marked keeps its fault.
     */
    public void markOverlapping(String fault, long fromMicros, long toMicros) {
        for (int i = 0; i < size; i++) {
            if (faultId[i] == null && clientSend[i] <= toMicros && clientRecv[i] >= fromMicros) {
                faultId[i] = fault;
            }
        }
    }

    /** Phases of row {@code i} if it was a faulty invocation: {detect, failover, retry} µs, else null. */
    public long[] phasesAt(int i) {
        return detect[i] < 0 ? null : new long[] {detect[i], failover[i], retry[i]};
    }

    /** Records a failed invocation; the outcome names the exception class. */
    public void recordFailure(long seqNo, String methodName, long sendMicros, long recvMicros, Throwable failure) {
        int i = size++;
        faultId[i] = null;
        seq[i] = seqNo;
        method[i] = methodName;
        replyBytes[i] = -1;
        clientSend[i] = sendMicros;
        clientRecv[i] = recvMicros;
        replica[i] = "";
        outcome[i] = "failed:" + failure.getClass().getSimpleName();
        detect[i] = -1;
    }

    public int size() {
        return size;
    }

    public String clientId() {
        return clientId;
    }

    /** Latency of row {@code i} (client receive minus client send), in microseconds. */
    public long latencyMicros(int i) {
        return clientRecv[i] - clientSend[i];
    }

    public long seqAt(int i) {
        return seq[i];
    }

    public String methodAt(int i) {
        return method[i];
    }

    /** True if the request completed (first time, or after fail-over). */
    public boolean isOk(int i) {
        return "ok".equals(outcome[i]) || "retried".equals(outcome[i]);
    }

    public long serverRecvMicros(int i) {
        return serverRecv[i];
    }

    public long serverSendMicros(int i) {
        return serverSend[i];
    }

    public long clientSendMicros(int i) {
        return clientSend[i];
    }

    public long clientRecvMicros(int i) {
        return clientRecv[i];
    }

    /**
     * Writes the rows of all tables to {@code file} as CSV: first to a temporary file in the same directory, then an
     * atomic rename, so a crash never leaves a half-written file under the final name.
     */
    public static void writeCsv(Path file, Iterable<ProbeTable> tables) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try (BufferedWriter out = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
            out.write(HEADER);
            out.write('\n');
            StringBuilder row = new StringBuilder(160);
            for (ProbeTable t : tables) {
                for (int i = 0; i < t.size; i++) {
                    row.setLength(0);
                    boolean ok = t.isOk(i);
                    row.append(t.clientId).append(',').append(t.seq[i]).append(',').append(t.method[i]).append(',');
                    if (t.replyBytes[i] >= 0) {
                        row.append(t.replyBytes[i]);
                    }
                    row.append(',').append(t.clientSend[i]).append(',').append(t.clientRecv[i]).append(',');
                    if (ok) {
                        row.append(t.serverRecv[i]).append(',').append(t.dbStart[i]).append(',')
                                .append(t.dbEnd[i]).append(',').append(t.serverSend[i]);
                    } else {
                        row.append(",,,");
                    }
                    // epoch_us: when the request was sent, on the client's wall clock (for timelines).
                    row.append(',').append(t.clientSend[i]).append(',').append(t.replica[i]).append(',')
                            .append(t.outcome[i]).append(',');
                    row.append(t.faultId[i] == null ? "" : t.faultId[i]);
                    if (t.detect[i] >= 0) {
                        row.append(',').append(t.detect[i]).append(',').append(t.failover[i]).append(',')
                                .append(t.retry[i]);
                    } else {
                        row.append(",,,");
                    }
                    row.append('\n');
                    out.write(row.toString());
                }
            }
        }
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}
