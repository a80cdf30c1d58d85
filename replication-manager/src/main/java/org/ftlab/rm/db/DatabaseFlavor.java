package org.ftlab.rm.db;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;

/**
 * Which server is behind a {@code jdbc:mysql:} URL. Connector/J reports MariaDB as "MySQL", so Hibernate would pick
 * the MySQL dialect, which emits SQL that MariaDB rejects; the launcher asks the server and passes the right dialect.
 */
public enum DatabaseFlavor {
    MARIADB("org.hibernate.dialect.MariaDBDialect"),
    MYSQL("org.hibernate.dialect.MySQLDialect");

    private final String hibernateDialect;

    DatabaseFlavor(String hibernateDialect) {
        this.hibernateDialect = hibernateDialect;
    }

    public String hibernateDialect() {
        return hibernateDialect;
    }

    public static DatabaseFlavor of(Connection connection) throws SQLException {
        try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery("SELECT VERSION()")) {
            rs.next();
            return rs.getString(1).toLowerCase(Locale.ROOT).contains("mariadb") ? MARIADB : MYSQL;
        }
    }
}
