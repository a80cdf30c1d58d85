package org.ftlab.os;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * What a Galera node needs besides the server binary (which has the wsrep API built in): Galera's provider library
 * (Debian's {@code galera-4}), {@code rsync}, and MariaDB's state-transfer scripts ({@code wsrep_sst_rsync} and the
 * {@code wsrep_sst_common} it sources, from Debian's {@code mariadb-server} package, which {@code scripts/install-galera}
 * extracts into ftlab's cache without installing a server). Found once per lab; {@link #missing} says in one line
 * what to install. The provider is looked for where Debian and others put it, or where the environment variable
 * {@value #PROVIDER_VARIABLE} says (another distribution's path).
 */
public record GaleraParts(Path provider, Path stateTransferScripts) {
    /** The command that installs every part (as root). */
    static final String INSTALL_COMMAND = "scripts/install-galera";
    /** The environment variable that names the provider's path, if not one of {@link #PROVIDERS}. */
    static final String PROVIDER_VARIABLE = "FTLAB_GALERA_PROVIDER";
    private static final List<Path> PROVIDERS = List.of(Path.of("/usr/lib/galera/libgalera_smm.so"),
            Path.of("/usr/lib/galera-4/libgalera_smm.so"), Path.of("/usr/lib64/galera-4/libgalera_smm.so"));
    private static final String SST_SCRIPT = "wsrep_sst_rsync";
    private static final String SST_COMMON = "wsrep_sst_common";

    /**
     * The parts on this machine.
     *
     * @throws IllegalStateException naming what is missing and the command that installs it
     */
    public static GaleraParts find() {
        String named = System.getenv(PROVIDER_VARIABLE);
        List<Path> providers = named == null || named.isBlank() ? PROVIDERS : List.of(Path.of(named));
        Optional<Path> provider = providers.stream().filter(Files::isReadable).findFirst();
        Optional<Path> scripts = Stream.of(stateTransferCacheDir(), Path.of("/usr/bin"))
                .filter(d -> Files.isExecutable(d.resolve(SST_SCRIPT)) && Files.isReadable(d.resolve(SST_COMMON)))
                .findFirst();
        boolean rsync = Stream.of("/usr/bin/rsync", "/bin/rsync").map(Path::of).anyMatch(Files::isExecutable);
        String missing = missing(provider.isPresent(), rsync, scripts.isPresent());
        if (!missing.isEmpty()) {
            throw new IllegalStateException(missing);
        }
        return new GaleraParts(provider.get(), scripts.get());
    }

    /** The one-line error for what is missing; empty if nothing is. */
    static String missing(boolean provider, boolean rsync, boolean scripts) {
        List<String> parts = Stream.of(provider ? null : "Galera's provider (Debian's galera-4)",
                rsync ? null : "rsync", scripts ? null : "MariaDB's state-transfer scripts (wsrep_sst_rsync)")
                .filter(p -> p != null).toList();
        if (parts.isEmpty()) {
            return "";
        }
        return "--database galera needs " + String.join(", ", parts) + ", which this machine lacks; install them with "
                + INSTALL_COMMAND + " (as root: apt-get install galera-4 rsync, and the scripts from Debian's "
                + "mariadb-server package)";
    }

    /** Where {@code scripts/install-galera} puts the state-transfer scripts: ftlab's cache, beside MariaDB's binaries. */
    static Path stateTransferCacheDir() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path cache = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
        return cache.resolve("ftlab").resolve("wsrep-sst");
    }

    /**
     * Writes the lab's helper directory {@code dir}, which goes first on the nodes' {@code PATH}: the state-transfer
     * scripts, and an {@code rsync} that keeps root's receiving daemon writing as root (a root rsync daemon otherwise
     * writes as {@code nobody}, and a joiner's files could not be written).
     */
    public Path helpers(Path dir) throws IOException {
        Files.createDirectories(dir);
        for (String script : List.of(SST_SCRIPT, SST_COMMON)) {
            Files.copy(stateTransferScripts.resolve(script), dir.resolve(script), StandardCopyOption.REPLACE_EXISTING);
        }
        Files.writeString(dir.resolve("rsync"), """
                #!/bin/sh
                # a state transfer's receiving rsync daemon, started by root, keeps root's uid and gid
                case " $* " in
                  *" --daemon "*) if [ "$(id -u)" = 0 ]; then exec /usr/bin/rsync "$@" -M uid=0 -M gid=0; fi ;;
                esac
                exec /usr/bin/rsync "$@"
                """);
        for (String f : List.of(SST_SCRIPT, SST_COMMON, "rsync")) {
            Files.setPosixFilePermissions(dir.resolve(f), PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        return dir;
    }
}
