package org.ftlab.harness.cli;

import org.ftlab.os.GaleraParts;
import org.ftlab.os.access.DatabaseEndpoint;
import org.ftlab.rm.api.DatabaseTier;
import picocli.CommandLine.Option;

/** The database options shared by the commands that start a lab. */
public final class DatabaseOptions {
    @Option(names = "--database", paramLabel = "MODE[:N]", defaultValue = "single",
            description = "The database tier: single (one embedded server, the default), or N embedded MariaDB "
                    + "servers replicated by MariaDB itself, failed over by the manager: semisync[:N] "
                    + "(semi-synchronous, AFTER_SYNC), async[:N] (the negative control), galera[:N] (Galera "
                    + "Cluster, one writer; needs scripts/install-galera); N defaults to 3 (docs/running.md).")
    String database;

    @Option(names = "--db-url", paramLabel = "JDBC_URL",
            description = "Use an existing MySQL 8 / MariaDB (jdbc:mysql://host:3306/ftlab) instead of the embedded one.")
    String dbUrl;

    @Option(names = "--db-user", paramLabel = "USER", description = "User for --db-url.")
    String dbUser;

    @Option(names = "--db-password", paramLabel = "PASSWORD", description = "Password for --db-url.")
    String dbPassword;

    /** The database tier the options name. */
    DatabaseTier tier() {
        DatabaseTier tier = DatabaseTier.parse(database);
        if (tier.replicated() && dbUrl != null) {
            throw new IllegalArgumentException("--database " + tier.wireName() + " starts its own servers; leave out "
                    + "--db-url");
        }
        if (tier.mode() == DatabaseTier.Mode.GALERA) {
            GaleraParts.find(); // what this machine lacks, in one line, before a lab starts
        }
        return tier;
    }

    /** The external database the options name, or null for the embedded one. */
    DatabaseEndpoint external() {
        if (dbUrl != null) {
            if (dbUser == null) {
                throw new IllegalArgumentException("--db-url needs --db-user (and --db-password if the user has one)");
            }
            return new DatabaseEndpoint(dbUrl, dbUser, dbPassword);
        }
        if (dbUser != null || dbPassword != null) {
            throw new IllegalArgumentException("--db-user and --db-password go with --db-url");
        }
        return null;
    }
}
