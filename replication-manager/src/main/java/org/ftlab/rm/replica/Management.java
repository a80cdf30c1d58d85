package org.ftlab.rm.replica;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Authenticator;
import java.net.HttpURLConnection;
import java.net.PasswordAuthentication;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import org.ftlab.os.access.ApplicationUser;

/**
 * One operation on a replica's WildFly through its management interface (HTTP, JSON, digest authentication as the
 * lab's user).
 */
final class Management {
    private static final int TIMEOUT_MILLIS = 10_000;

    private Management() {
    }

    /**
     * Runs {@code operation} on the resource at {@code address} (WildFly's JSON form, e.g. {@code []} for the server,
     * {@code [{"subsystem":"datasources"}]}).
     *
     * @throws IOException if it did not answer or the operation failed, with WildFly's answer
     */
    static void invoke(Replica replica, ApplicationUser user, String operation, String address) throws IOException {
        URI uri = URI.create("http://" + replica.address() + ":" + replica.managementPort() + "/management");
        HttpURLConnection c = (HttpURLConnection) uri.toURL().openConnection();
        // HttpURLConnection answers WildFly's digest challenge (the JDK's HttpClient knows only basic)
        c.setAuthenticator(new Authenticator() {
            @Override
            protected PasswordAuthentication getPasswordAuthentication() {
                return new PasswordAuthentication(user.username(), user.password().toCharArray());
            }
        });
        c.setConnectTimeout(TIMEOUT_MILLIS);
        c.setReadTimeout(TIMEOUT_MILLIS);
        c.setRequestMethod("POST");
        c.setDoOutput(true);
        c.setRequestProperty("Content-Type", "application/json");
        try (OutputStream out = c.getOutputStream()) {
            out.write(("{\"operation\":\"" + operation + "\",\"address\":" + address + "}")
                    .getBytes(StandardCharsets.UTF_8));
        }
        int status = c.getResponseCode();
        String body;
        try (InputStream in = status < 400 ? c.getInputStream() : c.getErrorStream()) {
            body = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        if (status != 200 || !body.contains("\"outcome\" : \"success\"") && !body.contains("\"outcome\":\"success\"")) {
            throw new IOException("WildFly's " + operation + " of " + replica.name() + " failed: HTTP " + status + " "
                    + body.strip());
        }
    }
}
