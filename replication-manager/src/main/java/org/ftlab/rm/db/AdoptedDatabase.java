package org.ftlab.rm.db;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;
import org.ftlab.os.OrphanGuard;
import org.ftlab.os.Placement;
import org.ftlab.os.ProcessTools;
import org.ftlab.os.access.DatabaseEndpoint;

/**
 * The lab's embedded database server as a manager that leads after the one that started it sees it: the same
 * endpoint, the server's process by its pid, stopped (SIGTERM, then SIGKILL) when the lab stops. Its guard keeps it
 * from outliving the lab.
 */
public final class AdoptedDatabase implements DatabaseServer {
    private static final Duration STOP_GRACE = Duration.ofSeconds(30);

    private final DatabaseEndpoint endpoint;
    private final long pid;
    private final Placement placement;
    private final OrphanGuard guard;

    private AdoptedDatabase(DatabaseEndpoint endpoint, long pid, Placement placement, OrphanGuard guard) {
        this.endpoint = endpoint;
        this.pid = pid;
        this.placement = placement;
        this.guard = guard;
    }

    /** The server {@code pid} on {@code placement}, reached at {@code endpoint}. */
    public static AdoptedDatabase of(DatabaseEndpoint endpoint, long pid, Placement placement) {
        return new AdoptedDatabase(endpoint, pid, placement, pid > 0 ? OrphanGuard.watch(pid) : OrphanGuard.NONE);
    }

    @Override
    public DatabaseEndpoint endpoint() {
        return endpoint;
    }

    @Override
    public DatabaseFlavor flavor() {
        return DatabaseFlavor.MARIADB;
    }

    @Override
    public OptionalLong pid() {
        return pid > 0 ? OptionalLong.of(pid) : OptionalLong.empty();
    }

    @Override
    public Placement placement() {
        return placement;
    }

    @Override
    public void close() {
        Optional<ProcessHandle> server = pid > 0 ? ProcessHandle.of(pid) : Optional.empty();
        server.ifPresent(p -> ProcessTools.terminate(p, STOP_GRACE));
        guard.close();
    }
}
