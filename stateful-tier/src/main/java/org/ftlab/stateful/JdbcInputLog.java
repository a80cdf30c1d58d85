package org.ftlab.stateful;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.ftlab.tart.DeterminismFault;

/**
 * The input log in the database ({@link TierStore}), with group commit: one writer thread takes every append waiting
 * and writes them in one transaction, under the primary's epoch; each caller returns when its input is committed.
 * With several gateways' callers waiting, a commit carries several inputs, so the log costs less than a transaction
 * per request.
 */
public final class JdbcInputLog implements InputLog, AutoCloseable {
    /** Where connections come from (the replica's data source). */
    @FunctionalInterface
    public interface Connections {
        Connection get() throws SQLException;
    }

    /** Most inputs in one commit. */
    static final int MAX_BATCH = 256;
    private final Connections connections;
    private final long epoch;
    private final LinkedBlockingQueue<Pending> queue = new LinkedBlockingQueue<>();
    private final Thread writer;
    private final AtomicLong commits = new AtomicLong();
    private final AtomicLong appended = new AtomicLong();
    private volatile boolean running = true;

    private record Pending(LoggedInput input, CompletableFuture<Boolean> done) {
    }

    public JdbcInputLog(Connections connections, long epoch) {
        this.connections = connections;
        this.epoch = epoch;
        this.writer = new Thread(this::write, "tart-log-writer");
        writer.setDaemon(true);
        writer.start();
    }

    @Override
    public void append(LoggedInput input) throws Fenced, AlreadyLogged {
        Pending p = new Pending(input, new CompletableFuture<>());
        queue.add(p);
        try {
            if (!p.done().get(60, TimeUnit.SECONDS)) {
                throw new AlreadyLogged(input.input().key());
            }
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Fenced f) {
                throw f;
            }
            throw new IllegalStateException("the input log failed: " + e.getCause().getMessage(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while logging " + input.input().key());
        } catch (TimeoutException e) {
            throw new IllegalStateException("the input log took over 60 s to log " + input.input().key());
        }
    }

    @Override
    public void appendFault(int gateway, DeterminismFault fault) throws Fenced {
        try (Connection c = connections.get()) {
            TierStore.appendFault(c, epoch, new StatefulNetwork.GatewayFault(gateway, fault));
        } catch (SQLException e) {
            throw new IllegalStateException("the input log failed: " + e.getMessage(), e);
        }
    }

    private void write() {
        List<Pending> batch = new ArrayList<>();
        while (running) {
            try {
                Pending first = queue.poll(100, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                queue.drainTo(batch, MAX_BATCH - 1);
                try (Connection c = connections.get()) {
                    boolean[] added = TierStore.append(c, epoch, batch.stream().map(Pending::input).toList());
                    commits.incrementAndGet();
                    appended.addAndGet(batch.size());
                    for (int i = 0; i < added.length; i++) {
                        batch.get(i).done().complete(added[i]);
                    }
                } catch (SQLException | Fenced | RuntimeException e) {
                    for (Pending p : batch) {
                        p.done().completeExceptionally(e);
                    }
                }
                batch.clear();
            } catch (InterruptedException e) {
                break;
            }
        }
        for (Pending p : queue) {
            p.done().completeExceptionally(new IllegalStateException("the input log is closed"));
        }
    }

    /** Inputs per commit so far (group commit's gain). */
    public double inputsPerCommit() {
        long n = commits.get();
        return n == 0 ? 0 : (double) appended.get() / n;
    }

    public long commits() {
        return commits.get();
    }

    @Override
    public void close() {
        running = false;
        writer.interrupt();
    }
}
