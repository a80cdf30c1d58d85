package org.ftlab.rm.db;

import java.io.IOException;
import java.net.ConnectException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.ftlab.rm.api.DatabaseFailover;
import org.ftlab.rm.api.DatabaseNode;
import org.ftlab.rm.api.DatabaseTier;
import org.ftlab.rm.api.DatabaseView;
import org.ftlab.rm.db.ReplicatedDatabase.Server;

/**
 * Keeps the view of a replicated database as the manager keeps the replicas': it watches every server (a query
 * heartbeat that also reads the engine's position), and when the writer fails — its process gone or its port closed
 * ({@code crash}), or no answer within the timeout ({@code hang}) — fences it (SIGKILL: a hung writer must never come
 * back as a second one; every connection to it is cut; a Galera cluster evicts it from its group), promotes the
 * replica that received the most of the writer's transactions, points the other replicas at it, sends the service's
 * connections there, records the phases up to the new writer's first commit, and re-seeds the failed server as a
 * replica. A failed replica is fenced and re-seeded.
 */
public final class DatabaseKeeper implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(DatabaseKeeper.class.getName());
    /** The heartbeat's period. */
    static final long HEARTBEAT_MILLIS = 100;
    /** The least time without an answer that makes a live server failed: a busy writer's fsync may take a while. */
    static final long MIN_TIMEOUT_MILLIS = 1_000;
    private static final long FIRST_COMMIT_WAIT_MILLIS = 120_000;

    private final ReplicatedDatabase db;
    private final long timeoutMillis;
    private final Object lock = new Object();
    /** Guarded by {@link #lock}. */
    private final List<DatabaseFailover> failovers = new ArrayList<>();
    /**
     * The servers being rebuilt, guarded by {@link #lock}: each stays rejoining in the {@link #view} until its
     * fail-over records it back, so that a view never shows the tier whole before the fail-over that made it so ends.
     */
    private final Set<String> rebuilding = new HashSet<>();
    private final ExecutorService watchers;
    private final ExecutorService actor = single("db-failover");
    private final ExecutorService rebuilder = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "db-rebuild");
        t.setDaemon(true);
        return t;
    });
    private final ExecutorService firstCommits = single("db-first-commit");
    private volatile boolean closed;

    /** Told after each new writer takes writes (the service's stateful tier recovers from it). */
    private final Runnable writerMoved;

    private DatabaseKeeper(ReplicatedDatabase db, long timeoutMillis, Runnable writerMoved) {
        this.db = db;
        this.writerMoved = writerMoved;
        this.timeoutMillis = Math.max(MIN_TIMEOUT_MILLIS, timeoutMillis);
        this.watchers = Executors.newFixedThreadPool(db.servers().size(), r -> {
            Thread t = new Thread(r, "db-watch");
            t.setDaemon(true);
            return t;
        });
    }

    /** Starts watching {@code db}; a server is failed after {@code timeoutMillis} (at least 1 s) without an answer. */
    public static DatabaseKeeper start(ReplicatedDatabase db, long timeoutMillis) {
        return start(db, timeoutMillis, () -> { });
    }

    /** As {@link #start(ReplicatedDatabase, long)}; {@code writerMoved} runs after each new writer takes writes. */
    public static DatabaseKeeper start(ReplicatedDatabase db, long timeoutMillis, Runnable writerMoved) {
        DatabaseKeeper keeper = new DatabaseKeeper(db, timeoutMillis, writerMoved);
        for (Server s : db.servers()) {
            keeper.watchers.execute(() -> keeper.watch(s));
        }
        return keeper;
    }

    private static ExecutorService single(String name) {
        return Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
    }

    /** The database's view now. */
    public DatabaseView view() {
        synchronized (lock) {
            List<DatabaseNode> nodes = db.nodes().stream().map(n -> rebuilding.contains(n.name())
                    ? new DatabaseNode(n.name(), DatabaseNode.Role.REJOINING, n.pid(), n.position()) : n).toList();
            return new DatabaseView(db.tier(), db.writer().map(s -> s.name).orElse(null), nodes, failovers);
        }
    }

    /** The heartbeat of one server, for the lab's life: a failure goes to the one acting thread. */
    private void watch(Server s) {
        Connection c = null;
        MariaDbProcess watched = null;
        long lastAnswer = System.nanoTime();
        while (!closed) {
            MariaDbProcess p = s.process;
            DatabaseNode.Role role = s.role;
            if (p != watched) { // rebuilt: a new process, a new session
                closeQuietly(c);
                c = null;
                watched = p;
                lastAnswer = System.nanoTime();
            }
            if (role == DatabaseNode.Role.FAILED || role == DatabaseNode.Role.REJOINING || p == null) {
                sleep(HEARTBEAT_MILLIS);
                continue;
            }
            try {
                if (c == null) {
                    c = db.admin(s, timeoutMillis);
                }
                s.position = db.position(c, role == DatabaseNode.Role.WRITER);
                lastAnswer = System.nanoTime();
            } catch (SQLException e) {
                closeQuietly(c);
                c = null;
                boolean gone = !p.alive();
                long silentMillis = (System.nanoTime() - lastAnswer) / 1_000_000;
                if (gone || connectionRefused(e) || silentMillis >= timeoutMillis) {
                    String verdict = gone || connectionRefused(e) ? "crash" : "hang";
                    if (s.process == p && s.role == role) {
                        s.role = DatabaseNode.Role.FAILED;
                        actor.execute(() -> failed(s, role, verdict));
                    }
                    continue;
                }
            }
            sleep(HEARTBEAT_MILLIS);
        }
        closeQuietly(c);
    }

    private static boolean connectionRefused(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ConnectException) {
                return true;
            }
        }
        return false;
    }

    /** Acts on a failed server (the acting thread only). */
    private void failed(Server s, DatabaseNode.Role was, String verdict) {
        if (closed) {
            return;
        }
        long detected = nowMicros();
        if (was != DatabaseNode.Role.WRITER) {
            LOG.info("database: replica " + s.name + " failed (" + verdict + "); re-seeding it");
            s.process.kill();
            db.exclude(s);
            db.writer().ifPresent(w -> {
                s.role = DatabaseNode.Role.REJOINING;
                rebuilder.execute(() -> rebuild(s, w, -1));
            });
            return;
        }
        String lastWriterPosition = s.position;
        db.holdConnections();
        s.process.kill();
        db.exclude(s);
        long fenced = nowMicros();
        LOG.info("database: writer " + s.name + " failed (" + verdict + "); fenced");
        Optional<Candidate> chosen = mostAdvancedReplica();
        if (chosen.isEmpty()) {
            restartWriter(s, verdict, detected, fenced, lastWriterPosition);
            return;
        }
        Server next = chosen.get().server;
        String promotedPosition;
        try {
            promotedPosition = db.promote(next, chosen.get().received);
            for (Server other : db.servers()) {
                if (other != next && other.role == DatabaseNode.Role.REPLICA) {
                    try {
                        db.repoint(other, next);
                    } catch (SQLException e) {
                        LOG.log(Level.WARNING, "database: " + other.name + " could not follow " + next.name
                                + "; re-seeding it", e);
                        other.role = DatabaseNode.Role.FAILED;
                        other.process.kill();
                        rebuilder.execute(() -> rebuild(other, next, -1));
                    }
                }
            }
            db.route(next);
        } catch (SQLException e) {
            LOG.log(Level.SEVERE, "database: promoting " + next.name + " failed", e);
            record(new DatabaseFailover(s.name, verdict, null, detected, fenced, 0, 0, 0, lastWriterPosition, "", 0));
            return;
        }
        long promoted = nowMicros();
        // what the new writer lacks of the old one's: what it had received of them (binary logs), or all it has once
        // it applied what the cluster ordered (Galera)
        String reached = db.tier().mode() == DatabaseTier.Mode.GALERA ? promotedPosition : chosen.get().received;
        long behind = Math.max(0, Gtids.sequence(lastWriterPosition) - Gtids.sequence(reached));
        int index = record(new DatabaseFailover(s.name, verdict, next.name, detected, fenced, promoted, 0, 0,
                lastWriterPosition, promotedPosition, behind));
        LOG.info("database: " + next.name + " is the writer (" + promotedPosition + ")" + (behind > 0
                ? "; " + behind + " of " + s.name + "'s transactions never reached it" : ""));
        firstCommits.execute(() -> awaitFirstCommit(index, next, promotedPosition));
        writerMoved.run();
        rebuilder.execute(() -> rebuild(s, next, index));
        rebuildOthersFailed(s, next);
    }

    /**
     * No replica is left: the failed writer restarts on its own data (InnoDB's crash recovery) and is the writer
     * again, as a person would restart the one server; then the failed replicas are rebuilt from it.
     */
    private void restartWriter(Server s, String verdict, long detected, long fenced, String lastWriterPosition) {
        LOG.warning("database: no replica answers; restarting " + s.name + " on its own data as the writer");
        try {
            String position = db.restartAsWriter(s);
            db.route(s);
            long promoted = nowMicros();
            int index = record(new DatabaseFailover(s.name, verdict, s.name, detected, fenced, promoted, 0, promoted,
                    lastWriterPosition, position, 0));
            firstCommits.execute(() -> awaitFirstCommit(index, s, position));
            writerMoved.run();
            rebuildOthersFailed(s, s);
        } catch (IOException | SQLException e) {
            LOG.log(Level.SEVERE, "database: restarting " + s.name + " failed; the database has no writer", e);
            s.process.kill();
            record(new DatabaseFailover(s.name, verdict, null, detected, fenced, 0, 0, 0, lastWriterPosition, "", 0));
        }
    }

    /** Rebuilds, from {@code writer}, every failed server but {@code except} (whose rebuild is already under way). */
    private void rebuildOthersFailed(Server except, Server writer) {
        for (Server other : db.servers()) {
            if (other != except && other != writer && other.role == DatabaseNode.Role.FAILED) {
                other.role = DatabaseNode.Role.REJOINING;
                rebuilder.execute(() -> rebuild(other, writer, -1));
            }
        }
    }

    /** A live replica and what it received of the writer's transactions. */
    private record Candidate(Server server, String received) {
    }

    /** The live replica that received the most (ties: the lowest name); empty if none answers. */
    private Optional<Candidate> mostAdvancedReplica() {
        List<Candidate> candidates = new ArrayList<>();
        for (Server r : db.servers()) {
            if (r.role != DatabaseNode.Role.REPLICA) {
                continue;
            }
            try (Connection c = db.admin(r, timeoutMillis)) {
                String received = db.position(c, false);
                r.position = received;
                candidates.add(new Candidate(r, received));
            } catch (SQLException e) {
                LOG.info("database: replica " + r.name + " does not answer (" + e.getMessage() + ")");
            }
        }
        return candidates.stream().max(Comparator.<Candidate>comparingLong(c -> Gtids.sequence(c.received))
                .thenComparing(c -> -c.server.serverId));
    }

    private void awaitFirstCommit(int index, Server writer, String promotedPosition) {
        long deadline = System.nanoTime() + FIRST_COMMIT_WAIT_MILLIS * 1_000_000;
        try (Connection c = db.admin(writer, 0)) {
            while (!closed && System.nanoTime() < deadline && writer.role == DatabaseNode.Role.WRITER) {
                if (Gtids.sequence(db.position(c, true)) > Gtids.sequence(promotedPosition)) {
                    long at = nowMicros();
                    synchronized (lock) {
                        failovers.set(index, failovers.get(index).withFirstCommit(at));
                    }
                    return;
                }
                sleep(2);
            }
        } catch (SQLException e) {
            LOG.log(Level.INFO, "database: the new writer's first commit was not seen", e);
        }
    }

    /** Re-seeds {@code s} from {@code writer}; {@code index}: the fail-over it ends, or -1. */
    private void rebuild(Server s, Server writer, int index) {
        if (closed) {
            return;
        }
        synchronized (lock) {
            rebuilding.add(s.name);
        }
        try {
            String own = db.rejoin(s, writer);
            long at = nowMicros();
            synchronized (lock) {
                if (index >= 0) {
                    DatabaseFailover f = failovers.get(index);
                    // what the failed writer had logged beyond what its successor received, as its own files say
                    long behind = Math.max(f.transactionsBehind(), Gtids.sequence(own)
                            - Gtids.sequence(f.promotedPosition()));
                    failovers.set(index, f.withRejoined(at).withTransactionsBehind(behind));
                }
                rebuilding.remove(s.name);
            }
            LOG.info("database: " + s.name + " is back as a replica of " + writer.name);
        } catch (IOException | SQLException | RuntimeException e) {
            synchronized (lock) {
                rebuilding.remove(s.name);
            }
            if (!closed) {
                s.role = DatabaseNode.Role.FAILED;
                Optional<Server> now = db.writer();
                if (now.isPresent() && now.get() != writer) { // its writer failed meanwhile: from the new one
                    LOG.info("database: rebuilding " + s.name + " again, from " + now.get().name);
                    s.role = DatabaseNode.Role.REJOINING;
                    rebuilder.execute(() -> rebuild(s, now.get(), index));
                } else {
                    LOG.log(Level.WARNING, "database: rebuilding " + s.name + " failed (it waits for the next "
                            + "writer)", e);
                }
            }
        }
    }

    private int record(DatabaseFailover f) {
        synchronized (lock) {
            failovers.add(f);
            return failovers.size() - 1;
        }
    }

    /** Waits until every server is a writer or an up-to-date replica, or {@code timeout} passed; whether it is. */
    public boolean awaitWhole(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!view().whole()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(50);
        }
        return true;
    }

    private static long nowMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000 + now.getNano() / 1_000;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void closeQuietly(Connection c) {
        if (c != null) {
            try {
                c.close();
            } catch (SQLException e) {
                // a dead server's session
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        for (ExecutorService e : List.of(watchers, actor, rebuilder, firstCommits)) {
            e.shutdownNow();
        }
        try {
            actor.awaitTermination(5, TimeUnit.SECONDS);
            rebuilder.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
