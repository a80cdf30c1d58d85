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
 * WildFly's graceful suspend and resume of one replica, through its management interface (HTTP, digest
 * authentication as the lab's user). A suspended WildFly finishes the requests it has, accepts no new ones, and tells
 * remote EJB clients that its beans are unavailable, so WildFly's cluster-aware client sends them elsewhere with no
 * error (measured: no call reached a suspended member, none failed); resumed, it serves at once. What a lab of
 * WildFly's cluster keeps its spares in: members of the JGroups cluster that clients do not call.
 */
public final class Suspension {
    private static final int TIMEOUT_MILLIS = 10_000;

    private Suspension() {
    }

    /** Suspends {@code replica}: it finishes its requests and takes no new ones. */
    public static void suspend(Replica replica, ApplicationUser user) throws IOException {
        operation(replica, user, "suspend");
    }

    /** Resumes {@code replica}: it serves again. */
    public static void resume(Replica replica, ApplicationUser user) throws IOException {
        operation(replica, user, "resume");
    }

    private static void operation(Replica replica, ApplicationUser user, String operation) throws IOException {
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
            out.write(("{\"operation\":\"" + operation + "\",\"address\":[]}").getBytes(StandardCharsets.UTF_8));
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
