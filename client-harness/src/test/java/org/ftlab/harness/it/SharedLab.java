package org.ftlab.harness.it;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicLong;
import org.ftlab.auction.api.AuctionService;
import org.ftlab.auction.api.ReplySize;
import org.ftlab.auction.api.RequestHeader;
import org.ftlab.auction.client.ReplicaConnection;
import org.ftlab.rm.LocalLab;
import org.ftlab.rm.replica.Replica;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One real lab for all integration test classes of a run: the embedded MariaDB and one provisioned WildFly replica,
 * started once (about 10 s) and stopped when the test JVM's root context closes.
 */
public final class SharedLab implements BeforeAllCallback, ExtensionContext.Store.CloseableResource {
    private static LocalLab lab;
    private static ReplicaConnection connection;
    private static final AtomicLong SEQ = new AtomicLong();

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        synchronized (SharedLab.class) {
            if (lab == null) {
                Path runDir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "it-lab-");
                lab = LocalLab.start(new LocalLab.Options(runDir, serverHome(), null, null));
                Replica replica = lab.startReplica("r1");
                connection = ReplicaConnection.open(replica.remotingUri(), lab.user().username(),
                        lab.user().password());
                context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL).put(SharedLab.class.getName(), this);
            }
        }
    }

    @Override
    public void close() {
        synchronized (SharedLab.class) {
            if (connection != null) {
                connection.close();
            }
            if (lab != null) {
                lab.close();
            }
            lab = null;
        }
    }

    /** The provisioned server the build made (app-ejb/target/server). */
    public static Path serverHome() {
        String dir = System.getProperty("ftlab.server.dir");
        return Path.of(dir != null ? dir : "../app-ejb/target/server").toAbsolutePath().normalize();
    }

    static LocalLab lab() {
        return lab;
    }

    static AuctionService service() {
        return connection.service();
    }

    /** A header with a fresh sequence number for {@code clientId}. */
    static RequestHeader header(String clientId) {
        return new RequestHeader(clientId, SEQ.incrementAndGet(), ReplySize.ORIGINAL);
    }

    static RequestHeader header(String clientId, ReplySize size) {
        return new RequestHeader(clientId, SEQ.incrementAndGet(), size);
    }

    /** A name no earlier test or run used. */
    static String unique(String prefix) {
        return prefix + Long.toString(System.nanoTime(), 36);
    }

    /** Runs {@code SELECT COUNT(*) ...} directly against the database: the audit view, not the service's. */
    static long count(String sql, Object... params) throws SQLException {
        try (Connection c = lab.database().endpoint().connect(); PreparedStatement st = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                st.setObject(i + 1, params[i]);
            }
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** Total rows of the business tables and the request log, to prove that a refused request wrote nothing. */
    static long writtenRows() throws SQLException {
        return count("SELECT (SELECT COUNT(*) FROM account) + (SELECT COUNT(*) FROM login_session)"
                + " + (SELECT COUNT(*) FROM auction) + (SELECT COUNT(*) FROM bid) + (SELECT COUNT(*) FROM request_log)");
    }
}
