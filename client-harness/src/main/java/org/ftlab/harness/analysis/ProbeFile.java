package org.ftlab.harness.analysis;

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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ftlab.harness.probe.ProbeTable;

/**
 * One configuration's probe file ({@code probes/<config>.csv}) read into columns of primitives: the one parser of
 * probe rows in ftlab. A damaged file is an {@link IllegalArgumentException} naming the file and line, never a
 * silently skipped row. Timestamps are µs since the epoch; {@link #NONE} marks an empty field.
 */
public final class ProbeFile {
    /** An empty numeric field (no server probes on a failed request, no phases on a fault-free one). */
    public static final long NONE = Long.MIN_VALUE;
    public static final byte OK = 0;
    public static final byte RETRIED = 1;
    public static final byte FAILED = 2;

    private static final Pattern CONFIG = Pattern.compile("c(\\d+)-t(\\d+)-r(orig|\\d+)");
    private static final int COLUMNS = ProbeTable.HEADER.split(",").length;

    public final String config;
    public final int clients;
    public final int thinkMillis;
    /** {@code original} or the reply size in bytes. */
    public final String reply;
    public final int size;
    /** Distinct client ids; {@link #client} indexes into it. */
    public final List<String> clientIds;
    /** Distinct method names; {@link #method} indexes into it. */
    public final List<String> methods;
    /** Distinct fault ids; {@link #fault} indexes into it, -1 for none. */
    public final List<String> faultIds;
    public final int[] client;
    public final byte[] method;
    public final byte[] outcome;
    public final short[] fault;
    public final long[] sendUs;
    public final long[] recvUs;
    public final long[] serverRecvUs;
    public final long[] dbStartUs;
    public final long[] dbEndUs;
    public final long[] serverSendUs;
    public final long[] detectUs;
    public final long[] failoverUs;
    public final long[] retryUs;

    private ProbeFile(String config, Matcher m, Columns c) {
        this.config = config;
        this.clients = Integer.parseInt(m.group(1));
        this.thinkMillis = Integer.parseInt(m.group(2));
        this.reply = m.group(3).equals("orig") ? "original" : m.group(3);
        this.size = c.size;
        this.clientIds = List.copyOf(c.clientIds);
        this.methods = List.copyOf(c.methods);
        this.faultIds = List.copyOf(c.faultIds);
        this.client = Arrays.copyOf(c.client, size);
        this.method = Arrays.copyOf(c.method, size);
        this.outcome = Arrays.copyOf(c.outcome, size);
        this.fault = Arrays.copyOf(c.fault, size);
        this.sendUs = Arrays.copyOf(c.t[0], size);
        this.recvUs = Arrays.copyOf(c.t[1], size);
        this.serverRecvUs = Arrays.copyOf(c.t[2], size);
        this.dbStartUs = Arrays.copyOf(c.t[3], size);
        this.dbEndUs = Arrays.copyOf(c.t[4], size);
        this.serverSendUs = Arrays.copyOf(c.t[5], size);
        this.detectUs = Arrays.copyOf(c.t[6], size);
        this.failoverUs = Arrays.copyOf(c.t[7], size);
        this.retryUs = Arrays.copyOf(c.t[8], size);
    }

    /** The configuration id of a probe file name, or null when the name is not one. */
    public static Matcher configName(String id) {
        Matcher m = CONFIG.matcher(id);
        return m.matches() ? m : null;
    }

    public static ProbeFile read(Path file) throws IOException {
        String name = file.getFileName().toString().replaceFirst("\\.csv$", "");
        Matcher m = configName(name);
        if (m == null) {
            throw new IllegalArgumentException(file + ": not a configuration probe file (expected a name like "
                    + "c04-t20-r512.csv)");
        }
        Columns c = new Columns();
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String header = in.readLine();
            if (header == null || !header.startsWith(ProbeTable.HEADER)) {
                throw new IllegalArgumentException(file + ": missing or unknown header; expected " + ProbeTable.HEADER);
            }
            String line;
            int lineNo = 1;
            while ((line = in.readLine()) != null) {
                lineNo++;
                String[] f = line.split(",", -1);
                if (f.length < COLUMNS) {
                    throw new IllegalArgumentException(file + " line " + lineNo + " has " + f.length + " fields, "
                            + "expected " + COLUMNS + ": the file is truncated or damaged");
                }
                try {
                    c.add(f);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException(file + " line " + lineNo + ": a timestamp or phase is not a "
                            + "number (" + e.getMessage() + "): the file is damaged");
                }
            }
        }
        return new ProbeFile(name, m, c);
    }

    /** Latency (client receive − client send) of row i, µs. */
    public long latencyUs(int i) {
        return recvUs[i] - sendUs[i];
    }

    public boolean completed(int i) {
        return outcome[i] != FAILED;
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
        int[] client = new int[1024];
        byte[] method = new byte[1024];
        byte[] outcome = new byte[1024];
        short[] fault = new short[1024];
        long[][] t = new long[9][1024];

        void add(String[] f) {
            if (size == client.length) {
                int n = size * 2;
                client = Arrays.copyOf(client, n);
                method = Arrays.copyOf(method, n);
                outcome = Arrays.copyOf(outcome, n);
                fault = Arrays.copyOf(fault, n);
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
            outcome[size] = f[12].equals("ok") ? OK : f[12].equals("retried") ? RETRIED : FAILED;
            if (outcome[size] == FAILED && !f[12].startsWith("failed")) {
                throw new NumberFormatException("unknown outcome '" + f[12] + "'");
            }
            fault[size] = f[13].isEmpty() ? -1 : (short) index(faultIds, f[13]);
            int[] cols = {4, 5, 6, 7, 8, 9, 14, 15, 16};
            for (int k = 0; k < cols.length; k++) {
                String v = f[cols[k]];
                t[k][size] = v.isEmpty() ? NONE : Long.parseLong(v);
            }
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
