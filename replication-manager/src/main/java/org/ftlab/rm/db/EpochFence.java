package org.ftlab.rm.db;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Locale;

/**
 * Fencing by epoch at the database: the database keeps the highest view epoch a Replication Manager has given an
 * order at (table {@code manager_epoch}), and refuses an order of an older one. A leader that was deposed while it
 * was stopped or cut off (rm-hang, rm-partition) wakes believing in the view it last knew; the orders it then gives
 * carry that view's epoch, which its successor's have left behind: each new leader begins a new epoch when it starts
 * acting, and raises the fence to it before it acts.
 *
 * <p>Mechanism only, in one transaction on the caller's connection: the fence's row is read {@code FOR UPDATE}, so a
 * newer leader's raise waits for an order in progress and an order waits for a raise in progress (the order and the
 * raise are serialised at the database, the target, not in either manager); an order of an older epoch is rolled back
 * unexecuted, and counted in the row ({@link State#refused}). The row belongs to a lab: its first leader
 * {@link #reset}s it. As the stateful tier's {@code tart_epoch} fences an old primary's appends to its log.
 */
public final class EpochFence {
    /** An order's credentials: the view epoch it was decided in, and the manager that gives it. */
    public record Order(long epoch, String member, long term) {
        @Override
        public String toString() {
            return String.format(Locale.ROOT, "epoch %d (%s, term %d)", epoch, member, term);
        }
    }

    /** The fence as the database keeps it: the highest epoch ordered at, by whom, and the orders it refused. */
    public record State(long epoch, String member, long term, long refused, String lastRefused) {
    }

    /** An order refused by the database: its epoch is older than one the database has seen. */
    public static final class Refused extends SQLException {
        private static final long serialVersionUID = 1L;
        private final transient Order order;
        private final long seenEpoch;

        Refused(Order order, long seenEpoch, String seenMember) {
            super("refused by the database: the order's epoch " + order.epoch() + " (" + order.member()
                    + ") is older than epoch " + seenEpoch + " (" + seenMember + ")");
            this.order = order;
            this.seenEpoch = seenEpoch;
        }

        public Order order() {
            return order;
        }

        public long seenEpoch() {
            return seenEpoch;
        }
    }

    /** What an order does at the database, on the fence's connection, inside its transaction. */
    @FunctionalInterface
    public interface Action<T> {
        T run(Connection c) throws SQLException;
    }

    private EpochFence() {
    }

    /** A new lab's first leader: the fence starts at {@code order}'s epoch, whatever an earlier lab left in it. */
    public static void reset(Connection c, Order order) throws SQLException {
        inTransaction(c, () -> {
            try (PreparedStatement ps = c.prepareStatement("REPLACE INTO manager_epoch (id, epoch, member, term, "
                    + "refused, last_refused) VALUES (1, ?, ?, ?, 0, NULL)")) {
                ps.setLong(1, order.epoch());
                ps.setString(2, order.member());
                ps.setLong(3, order.term());
                ps.executeUpdate();
            }
            return null;
        });
    }

    /** A leader that starts acting: from now on the database refuses every order of an older epoch than its. */
    public static void raise(Connection c, Order order) throws SQLException {
        order(c, order, conn -> null);
    }

    /**
     * Runs {@code action} if {@code order}'s epoch is not older than the fence's, and raises the fence to it; otherwise
     * counts the refusal and throws {@link Refused} without running it.
     */
    public static <T> T order(Connection c, Order order, Action<T> action) throws SQLException {
        Refused refused;
        try {
            return inTransaction(c, () -> {
                try (PreparedStatement ps = c.prepareStatement("SELECT epoch, member FROM manager_epoch WHERE id = 1 "
                        + "FOR UPDATE"); ResultSet rs = ps.executeQuery()) {
                    if (rs.next() && rs.getLong(1) > order.epoch()) {
                        throw new Refused(order, rs.getLong(1), rs.getString(2)); // rolled back: nothing written
                    }
                }
                try (PreparedStatement up = c.prepareStatement("INSERT INTO manager_epoch (id, epoch, member, term, "
                        + "refused) VALUES (1, ?, ?, ?, 0) ON DUPLICATE KEY UPDATE epoch = VALUES(epoch), "
                        + "member = VALUES(member), term = VALUES(term)")) {
                    up.setLong(1, order.epoch());
                    up.setString(2, order.member());
                    up.setLong(3, order.term());
                    up.executeUpdate();
                }
                return action.run(c);
            });
        } catch (Refused e) {
            refused = e;
        }
        try (PreparedStatement ps = c.prepareStatement("UPDATE manager_epoch SET refused = refused + 1, "
                + "last_refused = ? WHERE id = 1")) {
            ps.setString(1, order.toString());
            ps.executeUpdate(); // autocommit: the refusal is counted though the order was not run
        }
        throw refused;
    }

    /** The fence's state; empty (epoch -1) in a database no manager has ordered at. */
    public static State read(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT epoch, member, term, refused, last_refused FROM "
                + "manager_epoch WHERE id = 1"); ResultSet rs = ps.executeQuery()) {
            return rs.next() ? new State(rs.getLong(1), rs.getString(2), rs.getLong(3), rs.getLong(4),
                    rs.getString(5)) : new State(-1, null, -1, 0, null);
        }
    }

    private interface Body<T> {
        T run() throws SQLException;
    }

    private static <T> T inTransaction(Connection c, Body<T> body) throws SQLException {
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(false);
        try {
            T result = body.run();
            c.commit();
            return result;
        } catch (SQLException | RuntimeException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(auto);
        }
    }
}
