package org.ftlab.harness.probe;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One block's probe file ({@code probes/<config>[-repK].csv}) read into columns of primitives: the one parser of
 * probe rows in ftlab. Only measured rows are kept: warm-up rows (phase {@code warmup}) and hold rows (phase
 * {@code hold}) are counted in {@link #warmupRows} and {@link #holdRows} and left out, so no statistic can include
 * them. Files written before the {@code intended_us},
 * {@code phase} and {@code replicate} columns existed read as closed loop (intended = sent), all measured, replicate
 * 1. A damaged file is an {@link IllegalArgumentException} naming the file and line, never a silently skipped row.
 * Timestamps are µs since the epoch; {@link #NONE} marks an empty field.
 */
public final class ProbeFile {
    /** An empty numeric field (no server probes on a failed request, no phases on a fault-free one). */
    public static final long NONE = Long.MIN_VALUE;
    public static final byte OK = 0;
    public static final byte RETRIED = 1;
    public static final byte FAILED = 2;
    /** Answered by another replica than the first choice while the first choice had not failed it (a hedge). */
    public static final byte HEDGED = 3;

    private static final int COLUMNS = ProbeTable.HEADER.split(",").length;
    private static final int COLUMNS_V6 = ProbeTable.HEADER_V6.split(",").length;
    private static final int COLUMNS_V5 = ProbeTable.HEADER_V5.split(",").length;
    private static final int COLUMNS_V4 = ProbeTable.HEADER_V4.split(",").length;
    private static final int COLUMNS_V3 = ProbeTable.HEADER_V3.split(",").length;
    private static final int COLUMNS_V2 = ProbeTable.HEADER_V2.split(",").length;
    private static final int COLUMNS_V1 = ProbeTable.HEADER_V1.split(",").length;

    /** The configuration id (without the replicate). */
    public final String config;
    /** The file name without {@code .csv}: the configuration and, in a run with replicates, {@code -repK}. */
    public final String block;
    /** 1…R. */
    public final int replicate;
    public final int clients;
    /** Think time (closed loop); 0 in open loop. */
    public final int thinkMillis;
    /** Requests per second per client (open loop); 0 in closed loop. */
    public final double ratePerS;
    /** Warm-up rows in the file, left out of the columns. */
    public final int warmupRows;
    /** Hold rows in the file (sent to keep the load while other clients finished), left out of the columns. */
    public final int holdRows;
    /** {@code original} or the reply size in bytes. */
    public final String reply;
    /** The fail-over strategy's level when the run varies it; null otherwise (the manifest's one). */
    public final String strategy;
    /** The replication degree's level when the run varies it; 0 otherwise (the manifest's one). */
    public final int replicas;
    /** The middleware platform's level when the run varies it; null otherwise (the manifest's one). */
    public final String platform;
    public final int size;
    /** Distinct client ids; {@link #client} indexes into it. */
    public final List<String> clientIds;
    /** Distinct method names; {@link #method} indexes into it. */
    public final List<String> methods;
    /** Distinct fault ids; {@link #fault} indexes into it, -1 for none. */
    public final List<String> faultIds;
    /** Distinct replicas that answered; {@link #replica} indexes into it, -1 for none (a failed request). */
    public final List<String> replicaNames;
    public final short[] replica;
    /**
     * Replicas each request was sent to: 1 unless hedged, replicated actively or failed over; 0 for a failed
     * request, and 1 for a completed one in files from before the column existed.
     */
    public final int[] sentTo;
    public final int[] client;
    /** The request's sequence number: {@code (clientIds[client[i]], seq[i])} names it across retries. */
    public final long[] seq;
    public final byte[] method;
    public final byte[] outcome;
    public final short[] fault;
    /** When the request was meant to be sent (open loop); the send time in closed loop. */
    public final long[] intendedUs;
    public final long[] sendUs;
    public final long[] recvUs;
    public final long[] serverRecvUs;
    public final long[] dbStartUs;
    public final long[] dbEndUs;
    public final long[] serverSendUs;
    public final long[] detectUs;
    public final long[] failoverUs;
    public final long[] retryUs;
    /** When the bean asked for its commit ({@link #NONE}: no commit, or a file from before the column). */
    public final long[] commitStartUs;
    /** The replica thread that ran the bean (JFR's javaThreadId), -1 if unknown. */
    public final long[] serverThread;
    /** How long the bean's thread ran on a CPU, µs; -1: unknown. */
    public final long[] serverCpuUs;
    /** How long the bean's thread waited for a CPU, µs; -1: unknown. */
    public final long[] serverRunQueueUs;
    /** How long the client's thread waited for a CPU while the request was in flight, µs; -1: unknown. */
    public final long[] clientRunQueueUs;
    /** How long the database thread serving the transaction ran on a CPU during it, µs; -1: unknown. */
    public final long[] dbCpuUs;
    /** How long that database thread waited for a CPU during the transaction, µs; -1: unknown. */
    public final long[] dbRunQueueUs;
    /** The database connection the request's transaction ran on (the id its lock waits are recorded by); -1: unknown. */
    public final long[] dbConnection;
    /**
     * When the replica's I/O thread had read the request, before a worker took it (the HTTP door); {@link #NONE}:
     * unknown (the EJB door, a file from before the column).
     */
    public final long[] serverArriveUs;

    private ProbeFile(ConfigId id, Columns c) {
        this.config = id.config();
        this.block = id.fileStem();
        this.clients = id.clients();
        this.thinkMillis = id.thinkMillis();
        this.ratePerS = id.ratePerS();
        this.reply = id.reply();
        this.strategy = id.strategy();
        this.replicas = id.replicas();
        this.platform = id.platform();
        this.size = c.size;
        this.warmupRows = c.warmupRows;
        this.holdRows = c.holdRows;
        this.replicate = c.replicate > 0 ? c.replicate : Math.max(1, id.replicate());
        this.clientIds = List.copyOf(c.clientIds);
        this.methods = List.copyOf(c.methods);
        this.faultIds = List.copyOf(c.faultIds);
        this.replicaNames = List.copyOf(c.replicaNames);
        this.replica = Arrays.copyOf(c.replica, size);
        this.sentTo = Arrays.copyOf(c.sentTo, size);
        this.client = Arrays.copyOf(c.client, size);
        this.method = Arrays.copyOf(c.method, size);
        this.outcome = Arrays.copyOf(c.outcome, size);
        this.fault = Arrays.copyOf(c.fault, size);
        this.sendUs = Arrays.copyOf(c.t[0], size);
        this.intendedUs = Arrays.copyOf(c.t[9], size);
        this.recvUs = Arrays.copyOf(c.t[1], size);
        this.serverRecvUs = Arrays.copyOf(c.t[2], size);
        this.dbStartUs = Arrays.copyOf(c.t[3], size);
        this.dbEndUs = Arrays.copyOf(c.t[4], size);
        this.serverSendUs = Arrays.copyOf(c.t[5], size);
        this.detectUs = Arrays.copyOf(c.t[6], size);
        this.failoverUs = Arrays.copyOf(c.t[7], size);
        this.retryUs = Arrays.copyOf(c.t[8], size);
        this.seq = Arrays.copyOf(c.t[10], size);
        this.commitStartUs = Arrays.copyOf(c.t[11], size);
        this.serverThread = Arrays.copyOf(c.t[12], size);
        this.serverCpuUs = Arrays.copyOf(c.t[13], size);
        this.serverRunQueueUs = Arrays.copyOf(c.t[14], size);
        this.clientRunQueueUs = Arrays.copyOf(c.t[15], size);
        this.dbCpuUs = Arrays.copyOf(c.t[16], size);
        this.dbRunQueueUs = Arrays.copyOf(c.t[17], size);
        this.dbConnection = Arrays.copyOf(c.t[18], size);
        this.serverArriveUs = Arrays.copyOf(c.t[19], size);
    }

    /** The name of a probe file (without {@code .csv}) parsed, or null when the name is not one. */
    public static ConfigId configName(String stem) {
        return ConfigId.parse(stem);
    }

    public static ProbeFile read(Path file) throws IOException {
        String name = file.getFileName().toString().replaceFirst("\\.csv$", "");
        ConfigId id = configName(name);
        if (id == null) {
            throw new IllegalArgumentException(file + ": not a configuration probe file (expected a name like "
                    + "c04-t20-r512.csv, c04-rate50-rorig.csv or c04-t20-r512-rep2.csv)");
        }
        Columns c = null;
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String header = in.readLine();
            int version = header == null ? 0 : header.startsWith(ProbeTable.HEADER) ? 7
                    : header.startsWith(ProbeTable.HEADER_V6) ? 6 : header.startsWith(ProbeTable.HEADER_V5) ? 5 : header.startsWith(ProbeTable.HEADER_V4) ? 4 : header.startsWith(ProbeTable.HEADER_V3) ? 3 : header.startsWith(ProbeTable.HEADER_V2) ? 2
                    : header.startsWith(ProbeTable.HEADER_V1) ? 1 : 0;
            if (version == 0) {
                throw new IllegalArgumentException(file + ": missing or unknown header; expected " + ProbeTable.HEADER);
            }
            int columns = version == 7 ? COLUMNS : version == 6 ? COLUMNS_V6 : version == 5 ? COLUMNS_V5 : version == 4 ? COLUMNS_V4 : version == 3 ? COLUMNS_V3 : version == 2 ? COLUMNS_V2
                    : COLUMNS_V1;
            c = new Columns(version);
            String line;
            int lineNo = 1;
            while ((line = in.readLine()) != null) {
                lineNo++;
                String[] f = line.split(",", -1);
                if (f.length < columns) {
                    throw new IllegalArgumentException(file + " line " + lineNo + " has " + f.length + " fields, "
                            + "expected " + columns + ": the file is truncated or damaged");
                }
                try {
                    c.add(f);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException(file + " line " + lineNo + ": a timestamp or phase is not a "
                            + "number (" + e.getMessage() + "): the file is damaged");
                }
            }
        }
        return new ProbeFile(id, c);
    }

    /**
     * Latency of row i, µs: client receive − intended send, what a user who meant to send at the intended time
     * waited (closed loop: client receive − client send).
     */
    public long latencyUs(int i) {
        return recvUs[i] - intendedUs[i];
    }

    /** Service time of row i, µs: client receive − client send (the time the request itself took). */
    public long serviceUs(int i) {
        return recvUs[i] - sendUs[i];
    }

    /** How late row i started, µs: client send − intended send (0 in closed loop). */
    public long startDelayUs(int i) {
        return sendUs[i] - intendedUs[i];
    }

    /** Whether the run was open loop (latency counted from intended send times). */
    public boolean openLoop() {
        return ratePerS > 0;
    }

    public boolean completed(int i) {
        return outcome[i] != FAILED;
    }

    /**
     * Whether row i is a faulty invocation: completed after its client failed over ({@code retried}), or answered by
     * a hedge copy while a fault was on ({@code hedged} with a {@code fault_id}). Every summary counts by this.
     */
    public boolean faultyInvocation(int i) {
        return outcome[i] == RETRIED || (outcome[i] == HEDGED && fault[i] >= 0);
    }

    /** Whether row i carries all four server probes (a completed request). */
    public boolean hasServerProbes(int i) {
        return serverRecvUs[i] != NONE && serverSendUs[i] != NONE && dbStartUs[i] != NONE && dbEndUs[i] != NONE;
    }

    /** Growable columns while reading. */
    private static final class Columns {
        int size;
        final List<String> clientIds = new ArrayList<>();
        final Map<String, Integer> clientIndex = new HashMap<>();
        final List<String> methods = new ArrayList<>();
        final List<String> faultIds = new ArrayList<>();
        final List<String> replicaNames = new ArrayList<>();
        short[] replica = new short[1024];
        int[] sentTo = new int[1024];
        int[] client = new int[1024];
        byte[] method = new byte[1024];
        byte[] outcome = new byte[1024];
        short[] fault = new short[1024];
        long[][] t = new long[20][1024];
        int warmupRows;
        int holdRows;
        int replicate;
        /** Whether the header has the intended_us, phase and replicate columns (v2 and later). */
        final boolean v2;
        /** Whether it has the sent_to column (v3). */
        final boolean v3;
        /** Whether it has the commit_start_us … db_runqueue_us columns (v4). */
        final boolean v4;
        /** Whether it has the db_connection column (v5). */
        final boolean v5;
        /** Whether it has the server_arrive_us column (v7). */
        final boolean v7;

        Columns(int version) {
            this.v7 = version >= 7;
            this.v5 = version >= 5;
            this.v2 = version >= 2;
            this.v3 = version >= 3;
            this.v4 = version >= 4;
        }

        void add(String[] f) {
            if (v2) {
                if (!f[18].equals(ProbeTable.PHASE_MEASURE) && !f[18].equals(ProbeTable.PHASE_WARMUP)
                        && !f[18].equals(ProbeTable.PHASE_HOLD)) {
                    throw new NumberFormatException("unknown phase '" + f[18] + "'");
                }
                int rep = Integer.parseInt(f[19]);
                if (replicate != 0 && rep != replicate) {
                    throw new NumberFormatException("replicate " + rep + " in a file of replicate " + replicate);
                }
                replicate = rep;
                if (f[18].equals(ProbeTable.PHASE_WARMUP)) {
                    warmupRows++;
                    return;
                }
                if (f[18].equals(ProbeTable.PHASE_HOLD)) {
                    holdRows++;
                    return;
                }
            }
            if (size == client.length) {
                int n = size * 2;
                client = Arrays.copyOf(client, n);
                method = Arrays.copyOf(method, n);
                outcome = Arrays.copyOf(outcome, n);
                fault = Arrays.copyOf(fault, n);
                replica = Arrays.copyOf(replica, n);
                sentTo = Arrays.copyOf(sentTo, n);
                for (int k = 0; k < t.length; k++) {
                    t[k] = Arrays.copyOf(t[k], n);
                }
            }
            Integer ci = clientIndex.get(f[0]);
            if (ci == null) {
                ci = clientIds.size();
                clientIds.add(f[0]);
                clientIndex.put(f[0], ci);
            }
            client[size] = ci;
            method[size] = (byte) index(methods, f[2]);
            outcome[size] = switch (f[12]) {
                case "ok" -> OK;
                case "retried" -> RETRIED;
                case "hedged" -> HEDGED;
                default -> FAILED;
            };
            if (outcome[size] == FAILED && !f[12].startsWith("failed")) {
                throw new NumberFormatException("unknown outcome '" + f[12] + "'");
            }
            fault[size] = f[13].isEmpty() ? -1 : (short) index(faultIds, f[13]);
            replica[size] = f[11].isEmpty() ? -1 : (short) index(replicaNames, f[11]);
            boolean done = outcome[size] != FAILED;
            sentTo[size] = v3 && !f[20].isEmpty() ? Integer.parseInt(f[20]) : done ? 1 : 0;
            int[] cols = {4, 5, 6, 7, 8, 9, 14, 15, 16};
            for (int k = 0; k < cols.length; k++) {
                String v = f[cols[k]];
                t[k][size] = v.isEmpty() ? NONE : Long.parseLong(v);
            }
            t[9][size] = v2 ? Long.parseLong(f[17]) : t[0][size];
            t[10][size] = Long.parseLong(f[1]);
            t[11][size] = v4 && !f[21].isEmpty() ? Long.parseLong(f[21]) : NONE;
            t[12][size] = v4 && !f[22].isEmpty() ? Long.parseLong(f[22]) : -1;
            for (int k = 0; k < 5; k++) {
                t[13 + k][size] = v4 && !f[23 + k].isEmpty() ? Long.parseLong(f[23 + k]) : -1;
            }
            t[18][size] = v5 && !f[28].isEmpty() ? Long.parseLong(f[28]) : -1;
            t[19][size] = v7 && !f[30].isEmpty() ? Long.parseLong(f[30]) : NONE;
            if (t[0][size] == NONE || t[1][size] == NONE) {
                throw new NumberFormatException("empty client timestamp");
            }
            size++;
        }

        private static int index(List<String> names, String name) {
            int i = names.indexOf(name);
            if (i < 0) {
                names.add(name);
                i = names.size() - 1;
            }
            return i;
        }
    }
}
