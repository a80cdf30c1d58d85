package org.ftlab.auction.server.stateful;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.ftlab.stateful.Checkpoint;
import org.ftlab.stateful.StatefulNetwork;
import org.ftlab.stateful.TierStore;

/**
 * Ships the engine's soft checkpoints to the database asynchronously (seed 003 §II.F.2): the engine hands one over and
 * goes on; a writer thread stores it. A checkpoint still waiting when a newer one comes is dropped: recovery needs only
 * the newest, and the engine never waits for the database.
 */
final class CheckpointWriter implements StatefulNetwork.CheckpointSink, AutoCloseable {
    private static final Logger LOG = Logger.getLogger(CheckpointWriter.class.getName());
    private final DataSource dataSource;
    private final long epoch;
    private final AtomicReference<Pending> next = new AtomicReference<>();
    private final Thread writer;
    private volatile boolean running = true;

    private record Pending(Checkpoint checkpoint, byte[] bytes, long captureNanos) {
    }

    CheckpointWriter(DataSource dataSource, long epoch) {
        this.dataSource = dataSource;
        this.epoch = epoch;
        this.writer = new Thread(this::write, "tart-checkpoint-writer");
        writer.setDaemon(true);
        writer.start();
    }

    @Override
    public void accept(Checkpoint checkpoint, byte[] bytes, long captureNanos) {
        next.set(new Pending(checkpoint, bytes, captureNanos));
        LockSupport.unpark(writer);
    }

    private void write() {
        while (running) {
            Pending p = next.getAndSet(null);
            if (p == null) {
                LockSupport.parkNanos(50_000_000L);
                continue;
            }
            try (Connection c = dataSource.getConnection()) {
                TierStore.writeCheckpoint(c, epoch, p.checkpoint(), p.bytes(), p.captureNanos() / 1000);
            } catch (SQLException | RuntimeException e) {
                LOG.log(Level.WARNING, "a checkpoint of the stateful tier was not stored: " + e.getMessage());
            }
        }
    }

    @Override
    public void close() {
        running = false;
        LockSupport.unpark(writer);
    }
}
