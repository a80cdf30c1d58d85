package org.ftlab.fd;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Replication Manager's door as the detector sees it: the lab's one manager, or the members of a lab of several,
 * one of which leads. A form goes to the member believed to lead; a member that does not lead answers 421 with the
 * leader's address ({@code "leader"}), which is tried next; one that does not answer, or knows no leader yet (503), is
 * passed over for the next member. A post is retried so until a manager takes it or its deadline passes: a report
 * made while the managers elect a new leader reaches the new one.
 */
final class ManagerDoor {
    private static final Pattern LEADER = Pattern.compile("\"leader\"\\s*:\\s*\"([^\"]+)\"");
    private static final long PAUSE_MILLIS = 50;

    private final List<String> members;
    private final String authorization;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();
    /** The member believed to lead. */
    private volatile String leader;

    /** {@code urls}: the members' addresses, comma-separated (one: a lab of one manager). */
    ManagerDoor(String urls, String token) {
        this.members = List.of(urls.split(","));
        this.leader = members.get(0);
        this.authorization = "Bearer " + token;
    }

    /** The first member's address (a lab of one manager: the manager's). */
    String first() {
        return members.get(0);
    }

    /**
     * Posts {@code form} to {@code path} of the leader; returns its answer (200, or a refusal other than "not the
     * leader"), or throws once {@code deadline} has passed without one.
     */
    HttpResponse<String> post(String path, String form, Duration deadline) throws IOException, InterruptedException {
        return post(path, form, deadline, attempt -> { });
    }

    /** As {@link #post(String, String, Duration)}; {@code tried} learns of every attempt that did not end it. */
    HttpResponse<String> post(String path, String form, Duration deadline, Consumer<String> tried)
            throws IOException, InterruptedException {
        long until = System.nanoTime() + deadline.toNanos();
        IOException last = null;
        int next = 0;
        while (true) {
            String target = leader;
            try {
                HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(target + path))
                        .timeout(Duration.ofSeconds(5))
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .header("Authorization", authorization)
                        .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 421) {
                    tried.accept(target + " 421");
                    Matcher m = LEADER.matcher(response.body());
                    leader = m.find() ? m.group(1) : members.get(next++ % members.size());
                    continue;
                }
                if (response.statusCode() != 503) {
                    return response;
                }
                last = new IOException(target + " knows no leader yet");
                tried.accept(target + " 503");
            } catch (IOException e) {
                last = e;
                tried.accept(target + " " + e);
            }
            if (System.nanoTime() > until || members.size() == 1) {
                throw last;
            }
            leader = members.get(next++ % members.size());
            Thread.sleep(PAUSE_MILLIS);
        }
    }
}
