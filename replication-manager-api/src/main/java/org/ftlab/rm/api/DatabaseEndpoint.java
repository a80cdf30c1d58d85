package org.ftlab.rm.api;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Objects;
import java.util.Properties;
import org.ftlab.os.AtomicFiles;

/**
 * Where the database tier is and how to log in: a MySQL Connector/J URL ({@code jdbc:mysql://host:port/db}) and
 * credentials. The same endpoint is handed to every replica's datasource.
 */
public record DatabaseEndpoint(String jdbcUrl, String user, String password) {

    public DatabaseEndpoint {
        Objects.requireNonNull(jdbcUrl, "jdbcUrl");
        Objects.requireNonNull(user, "user");
        password = password == null ? "" : password;
        if (!jdbcUrl.startsWith("jdbc:mysql://")) {
            throw new IllegalArgumentException("database URL must start with jdbc:mysql:// (MySQL Connector/J), was '"
                    + jdbcUrl + "'");
        }
    }

    public Connection connect() throws SQLException {
        Properties props = new Properties();
        props.setProperty("user", user);
        props.setProperty("password", password);
        return DriverManager.getConnection(jdbcUrl, props);
    }

    /** The URL with the driver options ftlab needs added where the user did not set them. */
    public DatabaseEndpoint withDefaultOptions() {
        StringBuilder url = new StringBuilder(jdbcUrl);
        // Connector/J against MariaDB would make Hibernate query an INFORMATION_SCHEMA column MariaDB lacks.
        appendIfMissing(url, "useInformationSchema", "false");
        // Keep microsecond timestamps exact and in UTC on both server kinds.
        appendIfMissing(url, "connectionTimeZone", "UTC");
        appendIfMissing(url, "forceConnectionTimeZoneToSession", "true");
        // Answer autocommit / isolation / read-only queries from the driver's own record of the session state, and
        // skip COMMIT / ROLLBACK when no statement ran: round trips a request would otherwise pay for nothing.
        appendIfMissing(url, "useLocalSessionState", "true");
        appendIfMissing(url, "useLocalTransactionState", "true");
        return new DatabaseEndpoint(url.toString(), user, password);
    }

    private static void appendIfMissing(StringBuilder url, String key, String value) {
        if (url.indexOf(key + "=") >= 0) {
            return;
        }
        url.append(url.indexOf("?") >= 0 ? '&' : '?').append(key).append('=').append(value);
    }

    /** File name of {@link #saveForAudits}. */
    public static final String AUDIT_FILE = "db.properties";

    /**
     * Saves the endpoint to {@code dir/db.properties} (mode 600) so that the harness can audit the database after
     * a run (every operation exactly once). Only the run's owner can read it.
     */
    public void saveForAudits(Path dir) throws IOException {
        Properties p = new Properties();
        p.setProperty("url", jdbcUrl);
        p.setProperty("user", user);
        p.setProperty("password", password);
        AtomicFiles.writePrivate(dir.resolve(AUDIT_FILE), p, "database of this run, for audits");
    }

    public static DatabaseEndpoint loadForAudits(Path dir) throws IOException {
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(dir.resolve(AUDIT_FILE))) {
            p.load(in);
        }
        return new DatabaseEndpoint(p.getProperty("url"), p.getProperty("user"), p.getProperty("password"));
    }

    /** The URL without credentials, for logs and manifests (Connector/J URLs may carry a password option). */
    public String redactedUrl() {
        return jdbcUrl.replaceAll("(?i)(password=)[^&]*", "$1***");
    }

    @Override
    public String toString() {
        return "DatabaseEndpoint[" + redactedUrl() + ", user=" + user + "]";
    }
}
