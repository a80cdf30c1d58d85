package org.ftlab.os.access;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Properties;
import org.ftlab.os.AtomicFiles;

/**
 * The application user that remote EJB clients authenticate as (SASL DIGEST-MD5 against WildFly's ApplicationRealm).
 * A fresh random password is made for every run and kept in the run directory, readable only by its owner; nothing
 * is known in advance to anyone else on the machine.
 */
public record ApplicationUser(String username, String password) {
    public static final String DEFAULT_USERNAME = "ftlab";
    public static final String FILE_NAME = "credentials.properties";
    private static final String REALM = "ApplicationRealm";
    private static final String MANAGEMENT_REALM = "ManagementRealm";

    public static ApplicationUser random() {
        byte[] bytes = new byte[18];
        new SecureRandom().nextBytes(bytes);
        return new ApplicationUser(DEFAULT_USERNAME, Base64.getUrlEncoder().withoutPadding().encodeToString(bytes));
    }

    /** Saves to {@code dir/credentials.properties} with mode 600. */
    public void save(Path dir) throws IOException {
        Properties p = new Properties();
        p.setProperty("username", username);
        p.setProperty("password", password);
        AtomicFiles.writePrivate(dir.resolve(FILE_NAME), p,
                "ftlab application user for remote EJB calls to this run's replicas");
    }

    public static ApplicationUser load(Path dir) throws IOException {
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(dir.resolve(FILE_NAME))) {
            p.load(in);
        }
        return new ApplicationUser(p.getProperty("username"), p.getProperty("password"));
    }

    /**
     * Writes the user into a replica's {@code application-users.properties} and {@code application-roles.properties}
     * the way WildFly's add-user tool does: {@code user=hex(md5(user:realm:password))}.
     */
    public void installInto(Path configurationDir) throws IOException {
        // Elytron's properties realm takes the digest realm from this marker line; without it logins are rejected.
        String text = "#$REALM_NAME=" + REALM + "$ realm of the users below (written by ftlab)\n"
                + username + "=" + digest() + "\n";
        Files.writeString(configurationDir.resolve("application-users.properties"), text, StandardCharsets.UTF_8);
        Files.writeString(configurationDir.resolve("application-roles.properties"), username + "=\n",
                StandardCharsets.UTF_8);
    }

    /**
     * Writes the user into a replica's {@code mgmt-users.properties} as well (ManagementRealm): the lab's manager
     * then acts on that replica through WildFly's management interface (empties its connection pool at a database
     * fail-over; suspends and resumes it in a lab of WildFly's cluster, whose spares wait suspended). The management
     * interface listens where the replica does, for this lab only.
     */
    public void installManagementInto(Path configurationDir) throws IOException {
        String text = "#$REALM_NAME=" + MANAGEMENT_REALM + "$ realm of the users below (written by ftlab)\n"
                + username + "=" + digest(MANAGEMENT_REALM) + "\n";
        Files.writeString(configurationDir.resolve("mgmt-users.properties"), text, StandardCharsets.UTF_8);
        Files.writeString(configurationDir.resolve("mgmt-groups.properties"), username + "=\n",
                StandardCharsets.UTF_8);
    }

    private String digest() {
        return digest(REALM);
    }

    private String digest(String realm) {
        try {
            MessageDigest md5 = MessageDigest.getInstance("MD5");
            byte[] hash = md5.digest((username + ":" + realm + ":" + password).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JVM lacks MD5, which WildFly's digest realm needs", e);
        }
    }

    @Override
    public String toString() {
        return "ApplicationUser[" + username + "]";
    }
}
