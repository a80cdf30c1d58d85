package org.ftlab.rm.db;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.ftlab.os.Placement;
import org.ftlab.os.access.DatabaseEndpoint;

/**
 * Fencing at the database: ends the database sessions of a failed replica's process, so that the transactions it
 * left open roll back and release their row locks at once. Without it they last until the kernel has torn the killed
 * process down (100–200 ms for a stopped JVM of half a gigabyte), and meanwhile the request the replica was executing
 * holds its request_log row: the same request hedged or retried on another replica waits for it.
 *
 * <p>Mechanism only: the Replication Manager decides when a replica is fenced (and still SIGKILLs it). The sessions
 * are found by their client end: the process's TCP sockets to the database port (its open files and the kernel's
 * socket table under {@code /proc}), matched by client port (and address) against the HOST column of the database's
 * process list, then ended with {@code KILL CONNECTION}. The lab's database user may end its own sessions without
 * extra privileges. A process that is already gone has no sessions left to end. Every fencing is an order of a view
 * epoch, which the database refuses when it has seen a newer one ({@link EpochFence}).
 */
public final class SessionFence implements AutoCloseable {
    private static final int STATEMENT_TIMEOUT_SECONDS = 2;
    /** MySQL/MariaDB "unknown thread id": the session ended by itself meanwhile. */
    private static final int ER_NO_SUCH_THREAD = 1094;

    private final DatabaseEndpoint endpoint;
    private final int databasePort;
    private Connection admin;

    /** The ends the database sees for a replica's ends: the same, or a forwarder's. */
    private final UnaryOperator<Set<ClientEnd>> seenByDatabase;

    private SessionFence(DatabaseEndpoint endpoint, UnaryOperator<Set<ClientEnd>> seenByDatabase) {
        this.endpoint = endpoint;
        this.databasePort = portOf(endpoint.jdbcUrl());
        this.seenByDatabase = seenByDatabase;
    }

    /**
     * A fence for the database at {@code endpoint}, its connection opened and its query run once now: the first
     * fencing happens during a fail-over, when a first connection (up to a second) would be too slow.
     */
    public static SessionFence open(DatabaseEndpoint endpoint) throws SQLException {
        return open(endpoint, UnaryOperator.identity());
    }

    /**
     * As {@link #open(DatabaseEndpoint)} for a database the replicas reach through a forwarder ({@link WriterProxy}):
     * {@code seenByDatabase} gives the ends the database sees for the replicas' ends.
     */
    static SessionFence open(DatabaseEndpoint endpoint, UnaryOperator<Set<ClientEnd>> seenByDatabase)
            throws SQLException {
        SessionFence fence = new SessionFence(endpoint, seenByDatabase);
        synchronized (fence) {
            fence.sessionsAt(Set.of()); // the process-list query, matching nothing
        }
        return fence;
    }

    /** The TCP port of a {@code jdbc:mysql://host[:port]/db} URL; 3306 when it names none. */
    static int portOf(String jdbcUrl) {
        String rest = jdbcUrl.substring(jdbcUrl.indexOf(':') + 1); // mysql://host:port/db?...
        try {
            int port = URI.create(rest.replaceFirst("^[a-z]+:", "x:")).getPort();
            return port > 0 ? port : 3306;
        } catch (IllegalArgumentException e) {
            return 3306; // e.g. a multi-host URL: the default port, as the driver would use
        }
    }

    /** A client end of a TCP connection: local address (textual, as the database shows it) and port. */
    record ClientEnd(String address, int port) {
    }

    /**
     * Ends every database session whose client end is a socket of process {@code pid}; returns how many it ended.
     * Reading {@code /proc} costs about 15 ms (the kernel walks its whole TCP table), so call it off any critical path:
     * right after a SIGKILL works, because the process keeps its sockets while the kernel frees its memory, and once
     * they are closed the database has rolled its transactions back by itself.
     *
     * @throws IOException if the process's sockets could not be read (it may have exited meanwhile: then 0)
     * @throws EpochFence.Refused if {@code order}'s epoch is older than one the database has seen (a deposed
     *     leader's): nothing was ended
     * @throws SQLException if the database could not be asked or told
     */
    public synchronized int endSessionsOf(long pid, EpochFence.Order order) throws IOException, SQLException {
        return endSessionsAt(clientEndsOf(pid, databasePort), order);
    }

    /**
     * As {@link #endSessionsOf(long, EpochFence.Order)} for process {@code pid} on host {@code where}: on another
     * machine its sockets are read there, over the host's shared connection.
     */
    public int endSessionsOf(long pid, Placement where, EpochFence.Order order) throws IOException, SQLException {
        if (!where.isRemote()) {
            return endSessionsOf(pid, order);
        }
        String proc = where.run("cd /proc/" + pid + " 2>/dev/null || exit 0; for f in fd/*; do readlink $f; done "
                + "2>/dev/null | grep '^socket:'; echo " + TABLES + "; cat net/tcp net/tcp6 2>/dev/null; true");
        synchronized (this) {
            return endSessionsAt(clientEndsIn(proc, databasePort), order);
        }
    }

    /** {@link EpochFence#reset}: a new lab's first leader. */
    public synchronized void resetEpoch(EpochFence.Order order) throws SQLException {
        onAdmin(c -> {
            EpochFence.reset(c, order);
            return null;
        });
    }

    /** {@link EpochFence#raise}: a leader that starts acting. */
    public synchronized void raiseEpoch(EpochFence.Order order) throws SQLException {
        onAdmin(c -> {
            EpochFence.raise(c, order);
            return null;
        });
    }

    /** The database's {@link EpochFence}: the highest epoch ordered at, and the orders it refused. */
    public synchronized EpochFence.State epoch() throws SQLException {
        return onAdmin(EpochFence::read);
    }

    /** Runs {@code action} on the kept connection; a failure other than a refusal drops the connection. */
    private <T> T onAdmin(EpochFence.Action<T> action) throws SQLException {
        try {
            return action.run(admin());
        } catch (EpochFence.Refused refused) {
            throw refused;
        } catch (SQLException e) {
            closeAdmin();
            throw e;
        }
    }

    private static final String TABLES = "--tables--";

    /** The client ends to {@code remotePort} in a process's socket inodes and TCP tables as read on its host. */
    static Set<ClientEnd> clientEndsIn(String proc, int remotePort) {
        Set<String> inodes = new HashSet<>();
        Set<ClientEnd> ends = new HashSet<>();
        boolean tables = false;
        for (String line : proc.lines().toList()) {
            if (line.equals(TABLES)) {
                tables = true;
            } else if (!tables && line.startsWith("socket:[")) {
                inodes.add(line.substring(8, line.length() - 1));
            } else if (tables) {
                ClientEnd end = parseSocketLine(line, remotePort, inodes);
                if (end != null) {
                    ends.add(end);
                }
            }
        }
        return ends;
    }

    private int endSessionsAt(Set<ClientEnd> replicaEnds, EpochFence.Order order) throws SQLException {
        Set<ClientEnd> ends = seenByDatabase.apply(replicaEnds);
        if (ends.isEmpty()) {
            return 0;
        }
        List<Long> ids;
        try {
            ids = sessionsAt(ends);
        } catch (SQLException e) {
            ids = sessionsAt(ends); // once more on a fresh connection: the kept one may have timed out
        }
        List<Long> sessions = ids;
        return onAdmin(c -> EpochFence.order(c, order, conn -> {
            int ended = 0;
            try (Statement s = conn.createStatement()) {
                s.setQueryTimeout(STATEMENT_TIMEOUT_SECONDS);
                for (long id : sessions) {
                    try {
                        s.execute("KILL CONNECTION " + id);
                        ended++;
                    } catch (SQLException e) {
                        if (e.getErrorCode() != ER_NO_SUCH_THREAD) {
                            throw e;
                        }
                    }
                }
            }
            return ended;
        }));
    }

    /** Ids of the sessions whose client end is one of {@code ends}; on failure the connection is dropped. */
    private List<Long> sessionsAt(Set<ClientEnd> ends) throws SQLException {
        List<Long> ids = new ArrayList<>();
        try (Statement s = admin().createStatement()) {
            s.setQueryTimeout(STATEMENT_TIMEOUT_SECONDS);
            try (ResultSet rs = s.executeQuery("SELECT ID, HOST FROM information_schema.PROCESSLIST"
                    + " WHERE ID <> CONNECTION_ID()")) {
                while (rs.next()) {
                    if (matches(rs.getString(2), ends)) {
                        ids.add(rs.getLong(1));
                    }
                }
            }
            return ids;
        } catch (SQLException e) {
            closeAdmin();
            throw e;
        }
    }

    /** Whether a process-list HOST ({@code host:port}) is one of {@code ends}. */
    static boolean matches(String host, Set<ClientEnd> ends) {
        if (host == null) {
            return false;
        }
        int colon = host.lastIndexOf(':');
        if (colon < 0) {
            return false; // a Unix-socket session: never a replica's
        }
        int port;
        try {
            port = Integer.parseInt(host.substring(colon + 1));
        } catch (NumberFormatException e) {
            return false;
        }
        String address = host.substring(0, colon).replace("[", "").replace("]", "");
        for (ClientEnd end : ends) {
            if (end.port() == port && (address.equals(end.address())
                    || address.equals("localhost") && isLoopback(end.address()))) {
                return true;
            }
        }
        return false;
    }

    private static boolean isLoopback(String address) {
        return address.startsWith("127.") || address.equals("::1") || address.equals("::ffff:127.0.0.1");
    }

    /** The client ends of process {@code pid}'s TCP connections to {@code remotePort}. */
    static Set<ClientEnd> clientEndsOf(long pid, int remotePort) throws IOException {
        Set<String> inodes = new HashSet<>();
        Path fds = Path.of("/proc", Long.toString(pid), "fd");
        try (Stream<Path> list = Files.list(fds)) {
            for (Path fd : (Iterable<Path>) list::iterator) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) {
                        inodes.add(target.substring(8, target.length() - 1));
                    }
                } catch (NoSuchFileException e) {
                    // closed while listing
                }
            }
        } catch (NoSuchFileException e) {
            return Set.of(); // the process is gone, and its sessions with it
        }
        Set<ClientEnd> ends = new HashSet<>();
        for (String table : List.of("tcp", "tcp6")) {
            Path file = Path.of("/proc", Long.toString(pid), "net", table);
            List<String> lines;
            try {
                lines = Files.readAllLines(file);
            } catch (NoSuchFileException e) {
                continue;
            }
            for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
                ClientEnd end = parseSocketLine(line, remotePort, inodes);
                if (end != null) {
                    ends.add(end);
                }
            }
        }
        return ends;
    }

    /**
     * One line of {@code /proc/net/tcp} or {@code tcp6}: its client end if the socket is one of {@code inodes} and
     * goes to {@code remotePort}, else null.
     */
    static ClientEnd parseSocketLine(String line, int remotePort, Set<String> inodes) {
        String[] f = line.trim().split("\\s+");
        if (f.length < 10 || !inodes.contains(f[9])) {
            return null;
        }
        String[] local = f[1].split(":");
        String[] remote = f[2].split(":");
        if (local.length != 2 || remote.length != 2 || Integer.parseInt(remote[1], 16) != remotePort) {
            return null;
        }
        return new ClientEnd(address(local[0]), Integer.parseInt(local[1], 16));
    }

    /** A kernel socket-table address (hex, 32-bit words in host order, little-endian here) as text. */
    static String address(String hex) {
        if (hex.length() == 8) {
            return ipv4(hex);
        }
        if (hex.startsWith("0000000000000000FFFF0000")) {
            return ipv4(hex.substring(24)); // an IPv4-mapped IPv6 address
        }
        if (hex.equals("00000000000000000000000001000000")) {
            return "::1";
        }
        return hex; // another IPv6 address: never equal to a process-list host, so left alone
    }

    private static String ipv4(String hex) {
        long v = Long.parseLong(hex, 16);
        return (v & 0xff) + "." + (v >> 8 & 0xff) + "." + (v >> 16 & 0xff) + "." + (v >> 24 & 0xff);
    }

    private Connection admin() throws SQLException {
        if (admin == null || admin.isClosed()) {
            admin = endpoint.connect();
        }
        return admin;
    }

    private void closeAdmin() {
        if (admin != null) {
            try {
                admin.close();
            } catch (SQLException e) {
                // already broken
            }
            admin = null;
        }
    }

    @Override
    public synchronized void close() {
        closeAdmin();
    }
}
