package org.ftlab.stateful;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The tier's tables (sql/schema.sql: {@code tart_epoch}, {@code tart_input}, {@code tart_fault},
 * {@code tart_checkpoint}), read and written over JDBC: by the primary (log, checkpoints, recovery) and by the
 * harness (the checker's final state, the replay oracle). Each method runs on the connection it is given and leaves
 * its transaction mode as it found it.
 */
public final class TierStore {
    private TierStore() {
    }

    /** What a recovery or the oracle reads: the settings, the epoch, the newest checkpoint, the log. */
    public record Recovered(TierSettings settings, long epoch, Checkpoint checkpoint, long checkpointId,
            List<LoggedInput> inputs, List<StatefulNetwork.GatewayFault> faults) {
    }

    /** A stored checkpoint's row: its id, epoch, messages handled, size and capture time. */
    public record CheckpointRow(long id, long epoch, long messages, long bytes, long captureUs) {
    }

    /** Starts a new run of the tier at {@code epoch}: settings stored, inputs, changes and checkpoints removed. */
    public static void reset(Connection c, long epoch, TierSettings settings) throws SQLException {
        inTransaction(c, () -> {
            try (Statement st = c.createStatement()) {
                st.executeUpdate("DELETE FROM tart_input");
                st.executeUpdate("DELETE FROM tart_fault");
                st.executeUpdate("DELETE FROM tart_checkpoint");
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO tart_epoch (id, epoch, settings) VALUES (1, ?, ?)"
                    + " ON DUPLICATE KEY UPDATE epoch = VALUES(epoch), settings = VALUES(settings)")) {
                ps.setLong(1, epoch);
                ps.setBytes(2, Serial.toBytes(settings));
                ps.executeUpdate();
            }
            return null;
        });
    }

    /**
     * Makes {@code epoch} the log's (a new primary's, before it recovers): from then on an append of an older epoch
     * fails. Waits for appends in progress (they hold the epoch row shared). Refuses an epoch older than the log's.
     */
    public static TierSettings claim(Connection c, long epoch) throws SQLException {
        return inTransaction(c, () -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT epoch, settings FROM tart_epoch WHERE id = 1 FOR "
                    + "UPDATE")) {
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        throw new SQLException("the stateful tier was never configured in this database");
                    }
                    if (rs.getLong(1) > epoch) {
                        throw new SQLException("epoch " + epoch + " is older than the log's " + rs.getLong(1));
                    }
                    TierSettings s = Serial.fromBytes(rs.getBytes(2), TierSettings.class);
                    try (PreparedStatement up = c.prepareStatement("UPDATE tart_epoch SET epoch = ? WHERE id = 1")) {
                        up.setLong(1, epoch);
                        up.executeUpdate();
                    }
                    return s;
                }
            }
        });
    }

    /**
     * Appends {@code batch} under {@code epoch} in one transaction: returns, for each, whether it was appended (false:
     * its request identity is logged already). Throws {@link InputLog.Fenced} if the log's epoch is another.
     */
    public static boolean[] append(Connection c, long epoch, List<LoggedInput> batch) throws SQLException,
            InputLog.Fenced {
        return inFencedTransaction(c, epoch, () -> {
            boolean[] added = new boolean[batch.size()];
            try (PreparedStatement ps = c.prepareStatement("INSERT IGNORE INTO tart_input (gateway, stamp, epoch, "
                    + "client_id, seq, input) VALUES (?, ?, ?, ?, ?, ?)")) {
                for (LoggedInput in : batch) {
                    ps.setInt(1, in.gateway());
                    ps.setLong(2, in.stamp());
                    ps.setLong(3, epoch);
                    ps.setString(4, in.input().clientId());
                    ps.setLong(5, in.input().seq());
                    ps.setBytes(6, Serial.toBytes(in.input()));
                    ps.addBatch();
                }
                int[] counts = ps.executeBatch();
                for (int i = 0; i < counts.length; i++) {
                    added[i] = counts[i] != 0;
                }
            }
            return added;
        });
    }

    /** Appends an estimator change under {@code epoch}. */
    public static void appendFault(Connection c, long epoch, StatefulNetwork.GatewayFault fault) throws SQLException,
            InputLog.Fenced {
        inFencedTransaction(c, epoch, () -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO tart_fault (gateway, effective_vt, epoch, fault)"
                    + " VALUES (?, ?, ?, ?)")) {
                ps.setInt(1, fault.gateway());
                ps.setLong(2, fault.fault().effectiveVt());
                ps.setLong(3, epoch);
                ps.setBytes(4, Serial.toBytes(fault));
                ps.executeUpdate();
            }
            return null;
        });
    }

    /** Stores a checkpoint taken under {@code epoch}; returns its id. All are kept: the oracle checks each. */
    public static long writeCheckpoint(Connection c, long epoch, Checkpoint checkpoint, byte[] bytes, long captureUs)
            throws SQLException {
        return inTransaction(c, () -> {
            long id;
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO tart_checkpoint (epoch, messages, taken_at, "
                    + "capture_us, state) VALUES (?, ?, ?, ?, ?)", Statement.RETURN_GENERATED_KEYS)) {
                ps.setLong(1, epoch);
                ps.setLong(2, checkpoint.messages());
                ps.setTimestamp(3, Timestamp.from(Instant.now()));
                ps.setLong(4, captureUs);
                ps.setBytes(5, bytes);
                ps.executeUpdate();
                try (ResultSet keys = ps.getGeneratedKeys()) {
                    keys.next();
                    id = keys.getLong(1);
                }
            }
            return id;
        });
    }

    /** Every checkpoint stored, oldest first (their rows, not their states). */
    public static List<CheckpointRow> checkpoints(Connection c) throws SQLException {
        List<CheckpointRow> out = new ArrayList<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT id, epoch, messages, LENGTH(state), capture_us FROM "
                        + "tart_checkpoint ORDER BY id")) {
            while (rs.next()) {
                out.add(new CheckpointRow(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5)));
            }
        }
        return out;
    }

    /** The checkpoint stored as {@code id}. */
    public static Checkpoint checkpoint(Connection c, long id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT state FROM tart_checkpoint WHERE id = ?")) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new SQLException("no checkpoint " + id);
                }
                return Checkpoint.fromBytes(rs.getBytes(1));
            }
        }
    }

    /** The id of the newest checkpoint (the one recovery restores), 0 if none; -1 if the tier was never configured. */
    public static long newestCheckpointId(Connection c) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT (SELECT COUNT(*) FROM tart_epoch), (SELECT id FROM "
                        + "tart_checkpoint ORDER BY messages DESC, id DESC LIMIT 1)")) {
            rs.next();
            return rs.getLong(1) == 0 ? -1 : rs.getLong(2);
        }
    }

    /**
     * As {@link #read(Connection, boolean)} with the tail only, given {@code standby}, a checkpoint a passive replica
     * already holds as {@code standbyId}: used when it is still the newest, so that its bytes are not read again.
     */
    public static Recovered read(Connection c, long standbyId, Checkpoint standby) throws SQLException {
        return newestCheckpointId(c) == standbyId && standby != null ? read(c, true, standbyId, standby)
                : read(c, true);
    }

    /**
     * What the tier's recovery reads: the settings and epoch, the newest checkpoint (or the empty one), and every
     * input and estimator change logged.
     */
    public static Recovered read(Connection c) throws SQLException {
        return read(c, false);
    }

    /**
     * As {@link #read(Connection)}; with {@code tailOnly}, only the inputs a recovery from the newest checkpoint
     * replays (each gateway's stamped after the last it had delivered then): what a new primary reads.
     */
    public static Recovered read(Connection c, boolean tailOnly) throws SQLException {
        return read(c, tailOnly, 0, null);
    }

    private static Recovered read(Connection c, boolean tailOnly, long knownId, Checkpoint known)
            throws SQLException {
        TierSettings settings;
        long epoch;
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT epoch, settings FROM tart_epoch WHERE id = 1")) {
            if (!rs.next()) {
                throw new SQLException("the stateful tier was never configured in this database");
            }
            epoch = rs.getLong(1);
            settings = Serial.fromBytes(rs.getBytes(2), TierSettings.class);
        }
        Checkpoint newest = Checkpoint.empty(settings.gateways());
        long newestId = 0;
        if (known != null) {
            newest = known;
            newestId = knownId;
        } else {
            try (Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery("SELECT id, state FROM tart_checkpoint ORDER BY messages DESC, id "
                            + "DESC LIMIT 1")) {
                if (rs.next()) {
                    newestId = rs.getLong(1);
                    newest = Checkpoint.fromBytes(rs.getBytes(2));
                }
            }
        }
        List<LoggedInput> inputs = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT gateway, stamp, input FROM tart_input WHERE gateway = ?"
                + " AND stamp > ? ORDER BY stamp")) {
            for (int g = 0; g < settings.gateways(); g++) {
                ps.setInt(1, g);
                ps.setLong(2, tailOnly ? newest.deliveredStamp()[g] : Long.MIN_VALUE);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        inputs.add(new LoggedInput(rs.getInt(1), rs.getLong(2), Serial.fromBytes(rs.getBytes(3),
                                Input.class)));
                    }
                }
            }
        }
        List<StatefulNetwork.GatewayFault> faults = new ArrayList<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT fault FROM tart_fault ORDER BY gateway, effective_vt")) {
            while (rs.next()) {
                faults.add(Serial.fromBytes(rs.getBytes(1), StatefulNetwork.GatewayFault.class));
            }
        }
        return new Recovered(settings, epoch, newest, newestId, inputs, faults);
    }

    @FunctionalInterface
    private interface Work<T> {
        T run() throws SQLException, InputLog.Fenced;
    }

    private static <T> T inTransaction(Connection c, Work<T> work) throws SQLException {
        try {
            return inFencedTransaction(c, -1, work);
        } catch (InputLog.Fenced e) {
            throw new IllegalStateException(e);
        }
    }

    /** Runs {@code work} in one transaction; with {@code epoch >= 0}, only while the log's epoch is that one. */
    private static <T> T inFencedTransaction(Connection c, long epoch, Work<T> work) throws SQLException,
            InputLog.Fenced {
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(false);
        try {
            if (epoch >= 0) {
                // shared: appends run side by side, a new primary's claim (FOR UPDATE) waits for them and then wins
                try (PreparedStatement ps = c.prepareStatement("SELECT epoch FROM tart_epoch WHERE id = 1 LOCK IN "
                        + "SHARE MODE")) {
                    try (ResultSet rs = ps.executeQuery()) {
                        long now = rs.next() ? rs.getLong(1) : -1;
                        if (now != epoch) {
                            throw new InputLog.Fenced("the log's epoch is " + now + ", this primary's " + epoch);
                        }
                    }
                }
            }
            T result = work.run();
            c.commit();
            return result;
        } catch (SQLException | InputLog.Fenced | RuntimeException e) {
            try {
                c.rollback();
            } catch (SQLException ignored) {
                // the connection is gone: the transaction with it
            }
            throw e;
        } finally {
            c.setAutoCommit(auto);
        }
    }
}
