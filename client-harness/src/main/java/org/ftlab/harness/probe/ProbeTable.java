package org.ftlab.harness.probe;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.regex.Pattern;
import org.ftlab.auction.api.Reply;
import org.ftlab.auction.api.ServerProbes;
import org.ftlab.harness.failover.FailoverPhases;

/**
 * Per-request probe rows of one client in preallocated columns, so that recording a request on the timed path is a
 * handful of array stores (no I/O, no allocation). Rows are written out after the run, atomically.
 *
 * <p>A row is first claimed ({@link #claim}: its seq, method, intended send time and phase), then completed by
 * {@link #ok}, {@link #retried} or {@link #failed}. One thread claims rows (so rows are in the order requests were
 * scheduled); another may complete a claimed row, e.g. an open-loop client's worker, as long as the table is read
 * only after every worker is done. The {@code record*} methods claim and complete in one step (closed loop: the
 * intended send time is the send time).
 *
 * <p>All timestamps are microseconds since the Unix epoch; client columns come from the client's clock, server
 * columns from the replica's (see docs/probe-format.md).
 */
public final class ProbeTable {
    /** A reply digest: lower-case hex, at most 256 bits. */
    private static final Pattern DIGEST = Pattern.compile("[0-9a-f]{1,64}");
    /** A server time that was not measured (a workload whose replies carry no server probes). */
    private static final long NO_PROBE = Long.MIN_VALUE;

    /** The probe file header (docs/probe-format.md); later columns may be added, never reordered. */
    public static final String HEADER = "client,seq,method,reply_bytes,client_send_us,client_recv_us,server_recv_us,"
            + "db_start_us,db_end_us,server_send_us,epoch_us,replica,outcome,fault_id,detect_us,failover_us,retry_us,"
            + "intended_us,phase,replicate,sent_to,commit_start_us,server_thread,server_cpu_us,server_runqueue_us,"
            + "client_runqueue_us,db_cpu_us,db_runqueue_us,db_connection,reply_digest,server_arrive_us";
    /** The header before {@code server_arrive_us} was appended (still readable). */
    public static final String HEADER_V6 = "client,seq,method,reply_bytes,client_send_us,client_recv_us,"
            + "server_recv_us,db_start_us,db_end_us,server_send_us,epoch_us,replica,outcome,fault_id,detect_us,"
            + "failover_us,retry_us,intended_us,phase,replicate,sent_to,commit_start_us,server_thread,server_cpu_us,"
            + "server_runqueue_us,client_runqueue_us,db_cpu_us,db_runqueue_us,db_connection,reply_digest";
    /** The header before {@code reply_digest} was appended (still readable). */
    public static final String HEADER_V5 = "client,seq,method,reply_bytes,client_send_us,client_recv_us,"
            + "server_recv_us,db_start_us,db_end_us,server_send_us,epoch_us,replica,outcome,fault_id,detect_us,"
            + "failover_us,retry_us,intended_us,phase,replicate,sent_to,commit_start_us,server_thread,server_cpu_us,"
            + "server_runqueue_us,client_runqueue_us,db_cpu_us,db_runqueue_us,db_connection";
    /** The header before {@code db_connection} was appended (still readable). */
    public static final String HEADER_V4 = "client,seq,method,reply_bytes,client_send_us,client_recv_us,"
            + "server_recv_us,db_start_us,db_end_us,server_send_us,epoch_us,replica,outcome,fault_id,detect_us,"
            + "failover_us,retry_us,intended_us,phase,replicate,sent_to,commit_start_us,server_thread,server_cpu_us,"
            + "server_runqueue_us,client_runqueue_us,db_cpu_us,db_runqueue_us";
    /** The header before {@code commit_start_us} … {@code client_runqueue_us} were appended (still readable). */
    public static final String HEADER_V3 = "client,seq,method,reply_bytes,client_send_us,client_recv_us,"
            + "server_recv_us,db_start_us,db_end_us,server_send_us,epoch_us,replica,outcome,fault_id,detect_us,"
            + "failover_us,retry_us,intended_us,phase,replicate,sent_to";
    /** The header before {@code sent_to} was appended (still readable). */
    public static final String HEADER_V2 = "client,seq,method,reply_bytes,client_send_us,client_recv_us,"
            + "server_recv_us,db_start_us,db_end_us,server_send_us,epoch_us,replica,outcome,fault_id,detect_us,"
            + "failover_us,retry_us,intended_us,phase,replicate";
    /** The header before {@code intended_us}, {@code phase} and {@code replicate} were appended (still readable). */
    public static final String HEADER_V1 = "client,seq,method,reply_bytes,client_send_us,client_recv_us,"
            + "server_recv_us,db_start_us,db_end_us,server_send_us,epoch_us,replica,outcome,fault_id,detect_us,"
            + "failover_us,retry_us";
    public static final String PHASE_WARMUP = "warmup";
    public static final String PHASE_MEASURE = "measure";
    public static final String PHASE_HOLD = "hold";

    /**
     * Why a request was sent: to be measured; to warm the system up first; or to hold the load while the other
     * clients of a block finish the same method (closed loop), so that every measured request met the same number
     * of busy clients. Only {@code measure} rows are measured.
     */
    public enum Phase {
        MEASURE(PHASE_MEASURE), WARMUP(PHASE_WARMUP), HOLD(PHASE_HOLD);

        private final String wireName;

        Phase(String wireName) {
            this.wireName = wireName;
        }

        public String wireName() {
            return wireName;
        }
    }

    private final String clientId;
    private long[] seq;
    private String[] method;
    private int[] replyBytes;
    private long[] clientSend;
    private long[] clientRecv;
    private long[] serverRecv;
    private long[] dbStart;
    private long[] dbEnd;
    private long[] serverSend;
    private long[] commitStart;
    private long[] serverThread;
    private long[] serverCpu;
    private long[] serverRunQueue;
    private long[] clientRunQueue;
    private long[] dbCpu;
    private long[] dbRunQueue;
    private long[] dbConnection;
    private long[] serverArrive;
    private String[] replica;
    private String[] outcome;
    /** Fail-over phases of faulty invocations, µs; -1 for fault-free rows. */
    private long[] detect;
    private long[] failover;
    private long[] retry;
    private String[] faultId;
    /** The replica whose failure or slowness sent the request elsewhere (rows with phases), else null; not written. */
    private String[] divertedFrom;
    /** What the reply said, as its workload digests it (a replay oracle compares it); null: no digest. */
    private String[] replyDigest;
    /** When the request was scheduled to be sent (open loop); the send time in closed loop. */
    private long[] intended;
    private Phase[] phase;
    /** Replicas the request was sent to (more than one when hedged, replicated actively or failed over). */
    private int[] sentTo;
    private final int replicate;
    private int size;

    public ProbeTable(String clientId, int capacity) {
        this(clientId, capacity, 1);
    }

    /** A table for one client's rows in replicate {@code replicate} (1…R) of a configuration. */
    public ProbeTable(String clientId, int capacity, int replicate) {
        this.clientId = clientId;
        this.replicate = replicate;
        intended = new long[capacity];
        phase = new Phase[capacity];
        sentTo = new int[capacity];
        seq = new long[capacity];
        method = new String[capacity];
        replyBytes = new int[capacity];
        clientSend = new long[capacity];
        clientRecv = new long[capacity];
        serverRecv = new long[capacity];
        dbStart = new long[capacity];
        dbEnd = new long[capacity];
        serverSend = new long[capacity];
        commitStart = new long[capacity];
        serverThread = new long[capacity];
        serverCpu = new long[capacity];
        serverRunQueue = new long[capacity];
        clientRunQueue = new long[capacity];
        dbCpu = new long[capacity];
        dbRunQueue = new long[capacity];
        dbConnection = new long[capacity];
        serverArrive = new long[capacity];
        Arrays.fill(clientRunQueue, -1);
        replica = new String[capacity];
        outcome = new String[capacity];
        detect = new long[capacity];
        failover = new long[capacity];
        retry = new long[capacity];
        faultId = new String[capacity];
        divertedFrom = new String[capacity];
        replyDigest = new String[capacity];
    }

    /**
     * Claims the next row for a request about to be sent: its sequence number, method, the time it was scheduled to
     * be sent (µs since the epoch) and whether it is a warm-up request. Complete it with {@link #ok}, {@link #retried}
     * or {@link #failed}.
     */
    public int claim(long seqNo, String methodName, long intendedMicros, Phase why) {
        if (size == seq.length) {
            grow(); // only rows beyond the planned count (hold rows) ever get here: off the measured path
        }
        int i = size++;
        seq[i] = seqNo;
        method[i] = methodName;
        intended[i] = intendedMicros;
        phase[i] = why;
        faultId[i] = null;
        divertedFrom[i] = null;
        replyDigest[i] = null;
        detect[i] = -1;
        outcome[i] = "failed:Unfinished";
        replica[i] = "";
        replyBytes[i] = -1;
        sentTo[i] = 0;
        return i;
    }

    private void grow() {
        int n = Math.max(16, seq.length * 2);
        seq = Arrays.copyOf(seq, n);
        method = Arrays.copyOf(method, n);
        replyBytes = Arrays.copyOf(replyBytes, n);
        clientSend = Arrays.copyOf(clientSend, n);
        clientRecv = Arrays.copyOf(clientRecv, n);
        serverRecv = Arrays.copyOf(serverRecv, n);
        dbStart = Arrays.copyOf(dbStart, n);
        dbEnd = Arrays.copyOf(dbEnd, n);
        serverSend = Arrays.copyOf(serverSend, n);
        commitStart = Arrays.copyOf(commitStart, n);
        serverThread = Arrays.copyOf(serverThread, n);
        serverCpu = Arrays.copyOf(serverCpu, n);
        serverRunQueue = Arrays.copyOf(serverRunQueue, n);
        dbCpu = Arrays.copyOf(dbCpu, n);
        dbRunQueue = Arrays.copyOf(dbRunQueue, n);
        dbConnection = Arrays.copyOf(dbConnection, n);
        serverArrive = Arrays.copyOf(serverArrive, n);
        int old = clientRunQueue.length;
        clientRunQueue = Arrays.copyOf(clientRunQueue, n);
        Arrays.fill(clientRunQueue, Math.min(old, n), n, -1);
        replica = Arrays.copyOf(replica, n);
        outcome = Arrays.copyOf(outcome, n);
        detect = Arrays.copyOf(detect, n);
        failover = Arrays.copyOf(failover, n);
        retry = Arrays.copyOf(retry, n);
        faultId = Arrays.copyOf(faultId, n);
        divertedFrom = Arrays.copyOf(divertedFrom, n);
        replyDigest = Arrays.copyOf(replyDigest, n);
        intended = Arrays.copyOf(intended, n);
        phase = Arrays.copyOf(phase, n);
        sentTo = Arrays.copyOf(sentTo, n);
    }

    /**
     * How long the client's thread waited in a run queue for a CPU while row {@code i}'s request was in flight, µs
     * ({@code ThreadSchedstat}; -1: unknown).
     */
    public void clientRunQueue(int i, long micros) {
        clientRunQueue[i] = micros;
    }

    /** Completes row {@code i}: a successful invocation; {@code replyPayloadBytes} is -1 for the natural reply. */
    public void ok(int i, int replyPayloadBytes, long sendMicros, long recvMicros, Reply<?> reply) {
        ok(i, replyPayloadBytes, sendMicros, recvMicros, reply, reply.replica());
    }

    /** As above; {@code reply} null: a workload whose replies carry no server probes, served by {@code servedBy}. */
    private void ok(int i, int replyPayloadBytes, long sendMicros, long recvMicros, Reply<?> reply,
            String servedBy) {
        replyBytes[i] = replyPayloadBytes;
        clientSend[i] = sendMicros;
        clientRecv[i] = recvMicros;
        ServerProbes p = reply == null ? null : reply.probes();
        serverRecv[i] = p == null ? NO_PROBE : p.receivedMicros();
        dbStart[i] = p == null ? NO_PROBE : p.dbStartMicros();
        dbEnd[i] = p == null ? NO_PROBE : p.dbEndMicros();
        serverSend[i] = p == null ? NO_PROBE : p.replySentMicros();
        commitStart[i] = p == null ? 0 : p.commitStartMicros();
        serverThread[i] = p == null ? -1 : p.threadId();
        serverCpu[i] = p == null ? -1 : p.cpuMicros();
        serverRunQueue[i] = p == null ? -1 : p.runQueueMicros();
        dbCpu[i] = p == null ? -1 : p.dbCpuMicros();
        dbRunQueue[i] = p == null ? -1 : p.dbRunQueueMicros();
        dbConnection[i] = p == null ? -1 : p.dbConnection();
        serverArrive[i] = p == null ? -1 : p.arrivedMicros();
        replica[i] = reply == null ? servedBy : reply.replica();
        outcome[i] = "ok";
        detect[i] = -1;
        sentTo[i] = 1;
    }

    /**
     * Completes row {@code i} with how the request was served: {@code outcome} is {@code ok}, {@code hedged} or
     * {@code retried} ({@code phases} null only for {@code ok}), sent to {@code replicasSentTo} replicas.
     */
    public void served(int i, int replyPayloadBytes, long sendMicros, long recvMicros, Reply<?> reply, String how,
            FailoverPhases phases, int replicasSentTo) {
        served(i, replyPayloadBytes, sendMicros, recvMicros, reply, reply.replica(), how, phases, replicasSentTo);
    }

    /**
     * As above, for any workload: {@code reply} is the service's reply with its server probes, or null for one
     * without them (those columns stay empty); {@code servedBy} names the replica that answered.
     */
    public void served(int i, int replyPayloadBytes, long sendMicros, long recvMicros, Reply<?> reply,
            String servedBy, String how, FailoverPhases phases, int replicasSentTo) {
        ok(i, replyPayloadBytes, sendMicros, recvMicros, reply, servedBy);
        outcome[i] = how;
        sentTo[i] = replicasSentTo;
        if (phases != null) {
            divertedFrom[i] = phases.failedReplica();
            detect[i] = phases.detectMicros();
            failover[i] = phases.failoverMicros();
            retry[i] = phases.retryMicros();
        }
    }

    /**
     * Completes row {@code i}: a faulty invocation that succeeded after fail-over, outcome {@code retried}, with its
     * three phases. {@code fault} names the injected fault it met, or null if unknown yet.
     */
    public void retried(int i, int replyPayloadBytes, long sendMicros, long recvMicros, Reply<?> reply,
            FailoverPhases phases, String fault) {
        ok(i, replyPayloadBytes, sendMicros, recvMicros, reply);
        outcome[i] = "retried";
        detect[i] = phases.detectMicros();
        failover[i] = phases.failoverMicros();
        retry[i] = phases.retryMicros();
        faultId[i] = fault;
        divertedFrom[i] = phases.failedReplica();
        sentTo[i] = phases.attempts();
    }

    /** Completes row {@code i}: a failed invocation; the outcome names the exception class. */
    public void failed(int i, long sendMicros, long recvMicros, Throwable failure) {
        replyBytes[i] = -1;
        clientSend[i] = sendMicros;
        clientRecv[i] = recvMicros;
        replica[i] = "";
        outcome[i] = "failed:" + failure.getClass().getSimpleName();
        detect[i] = -1;
        sentTo[i] = 0;
    }

    /**
     * Row {@code i}'s reply digest: what the reply said, as its workload digests it (hex; null: none), so that a
     * replay oracle can hold a run's replies to those the clients recorded.
     */
    public void replyDigest(int i, String digest) {
        if (digest != null && !DIGEST.matcher(digest).matches()) {
            throw new IllegalArgumentException("a reply digest is 1 to 64 lower-case hex digits, was '" + digest + "'");
        }
        replyDigest[i] = digest;
    }

    /** Row {@code i}'s reply digest, or null. */
    public String replyDigestAt(int i) {
        return replyDigest[i];
    }

    /** Closed loop: row {@code i}'s intended send time is its send time (call after completing it). */
    public void setIntendedToSend(int i) {
        intended[i] = clientSend[i];
    }

    /** Records a successful measured invocation (closed loop: intended = sent). */
    public void recordOk(long seqNo, String methodName, int replyPayloadBytes, long sendMicros, long recvMicros,
            Reply<?> reply) {
        ok(claim(seqNo, methodName, sendMicros, Phase.MEASURE), replyPayloadBytes, sendMicros, recvMicros, reply);
    }

    /** Records a measured faulty invocation that succeeded after fail-over (closed loop: intended = sent). */
    public void recordRetried(long seqNo, String methodName, int replyPayloadBytes, long sendMicros, long recvMicros,
            Reply<?> reply, FailoverPhases phases, String fault) {
        retried(claim(seqNo, methodName, sendMicros, Phase.MEASURE), replyPayloadBytes, sendMicros, recvMicros, reply,
                phases, fault);
    }

    /**
     * Marks every row whose request overlapped {@code [fromMicros, toMicros]} (client clock) as affected by
     * {@code fault}; a row already marked keeps its fault.
     */
    public void markOverlapping(String fault, long fromMicros, long toMicros) {
        for (int i = 0; i < size; i++) {
            if (faultId[i] == null && intended[i] <= toMicros && clientRecv[i] >= fromMicros) {
                faultId[i] = fault;
            }
        }
    }

    /**
     * Marks every row not yet marked that was diverted from {@code replica} (retried or hedged elsewhere because that
     * replica failed or was slow) and completed at or after {@code fromMicros}, as affected by {@code fault}, the
     * fault of that replica. Such a request may have been sent after the new primary was promoted: the client had not
     * yet seen the new view. Replica names are never reused, so after its fault every such row is the fault's.
     */
    public void markDivertedFrom(String fault, String replicaName, long fromMicros) {
        for (int i = 0; i < size; i++) {
            if (faultId[i] == null && replicaName.equals(divertedFrom[i]) && clientRecv[i] >= fromMicros) {
                faultId[i] = fault;
            }
        }
    }

    /** Phases of row {@code i} if it was a faulty invocation: {detect, failover, retry} µs, else null. */
    public long[] phasesAt(int i) {
        return detect[i] < 0 ? null : new long[] {detect[i], failover[i], retry[i]};
    }

    /** Records a failed measured invocation (closed loop: intended = sent). */
    public void recordFailure(long seqNo, String methodName, long sendMicros, long recvMicros, Throwable failure) {
        failed(claim(seqNo, methodName, sendMicros, Phase.MEASURE), sendMicros, recvMicros, failure);
    }

    public int size() {
        return size;
    }

    public String clientId() {
        return clientId;
    }

    /**
     * Latency of row {@code i} as a user who wanted to send at the intended time sees it: client receive minus
     * intended send, µs (closed loop: minus the send).
     */
    public long latencyMicros(int i) {
        return clientRecv[i] - intended[i];
    }

    public Phase phaseAt(int i) {
        return phase[i];
    }

    /** The fault row {@code i} was affected by, or null. */
    public String faultIdAt(int i) {
        return faultId[i];
    }

    public long intendedMicros(int i) {
        return intended[i];
    }

    public long seqAt(int i) {
        return seq[i];
    }

    public String methodAt(int i) {
        return method[i];
    }

    /** The replica that answered row {@code i} (empty for a failed request). */
    public String replicaAt(int i) {
        return replica[i];
    }

    /** True if the request completed (first time, by a hedge, or after fail-over). */
    public boolean isOk(int i) {
        return "ok".equals(outcome[i]) || "retried".equals(outcome[i]) || "hedged".equals(outcome[i]);
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
                    if (ok && t.serverRecv[i] != NO_PROBE) {
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
                    row.append(',').append(t.intended[i]).append(',')
                            .append(t.phase[i].wireName()).append(',').append(t.replicate).append(',');
                    if (t.sentTo[i] > 0) {
                        row.append(t.sentTo[i]);
                    }
                    row.append(',');
                    boolean probed = ok && t.serverRecv[i] != NO_PROBE;
                    if (probed && t.commitStart[i] > 0) {
                        row.append(t.commitStart[i]);
                    }
                    row.append(',');
                    if (probed && t.serverThread[i] >= 0) {
                        row.append(t.serverThread[i]);
                    }
                    row.append(',');
                    if (probed && t.serverCpu[i] >= 0) {
                        row.append(t.serverCpu[i]);
                    }
                    row.append(',');
                    if (probed && t.serverRunQueue[i] >= 0) {
                        row.append(t.serverRunQueue[i]);
                    }
                    row.append(',');
                    if (t.clientRunQueue[i] >= 0) {
                        row.append(t.clientRunQueue[i]);
                    }
                    row.append(',');
                    if (probed && t.dbCpu[i] >= 0) {
                        row.append(t.dbCpu[i]);
                    }
                    row.append(',');
                    if (probed && t.dbRunQueue[i] >= 0) {
                        row.append(t.dbRunQueue[i]);
                    }
                    row.append(',');
                    if (probed && t.dbConnection[i] > 0) {
                        row.append(t.dbConnection[i]);
                    }
                    row.append(',');
                    if (t.replyDigest[i] != null) {
                        row.append(t.replyDigest[i]);
                    }
                    row.append(',');
                    if (probed && t.serverArrive[i] > 0) {
                        row.append(t.serverArrive[i]);
                    }
                    row.append('\n');
                    out.write(row.toString());
                }
            }
        }
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}
