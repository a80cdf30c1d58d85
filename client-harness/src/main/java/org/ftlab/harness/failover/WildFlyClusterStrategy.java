package org.ftlab.harness.failover;

import java.io.IOException;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;
import javax.naming.NamingException;
import org.ftlab.auction.api.AuctionException;
import org.ftlab.auction.api.MicroClock;
import org.ftlab.auction.api.Reply;
import org.ftlab.auction.client.ClusterConnection;
import org.ftlab.auction.client.ServiceConnection;
import org.ftlab.rm.api.PrimaryBackupView;

/**
 * The baseline: WildFly's own clustering in place of ftlab's fail-over (docs/architecture.md, "The baseline"). Every
 * request goes through one cluster-aware remote EJB proxy ({@link org.ftlab.auction.client.ClusterConnection}); the EJB
 * client chooses the member for each call (at random among the cluster's members it knows, whatever the view says)
 * and sends again by itself a call it could not send (a member found dead before sending). What no WildFly
 * mechanism does is resend a call in flight when its member crashed or hung (the client cannot know whether it ran):
 * that failure reaches the application, which sends the same request again through the same proxy, as a WildFly
 * application that must not lose an operation does, with the request identity keeping it once. That is the whole
 * retry: no view, no suspicion reported to the Replication Manager, no choice of where it goes, and a fixed
 * invocation timeout ({@code --invocation-timeout-ms}; {@value InvocationTimeout#CEILING_MILLIS} ms unless given), as
 * a WildFly client configures it.
 *
 * <p>Which member served a call is read from its reply; which member a failed call went to, from the destination the
 * EJB client chose (observed, not decided, by {@link org.ftlab.auction.client.ClusterConnection#lastDestination()}).
 */
final class WildFlyClusterStrategy implements FailoverStrategy, AutoCloseable {
    /** The name users give ({@code --strategy wildfly-cluster}). */
    static final String NAME = "wildfly-cluster";
    /** Pause between the application's resends when one failed at once (no member reachable yet), ms. */
    private static final long RESEND_PAUSE_MILLIS = 10;

    private final ReplicaSet replicas;
    private final ServiceConnection cluster;
    /** Member URIs to replica names, from the views read so far. */
    private final Map<String, String> names = new ConcurrentHashMap<>();

    WildFlyClusterStrategy(ReplicaSet replicas) {
        this.replicas = replicas;
        try {
            this.cluster = replicas.connectCluster(replicas.timeout().currentMillis());
            learnNames(replicas.view(false));
        } catch (IOException | NamingException e) {
            throw new IllegalStateException("cannot reach WildFly's cluster: " + FailOver.rootMessage(e), e);
        }
    }

    @Override
    public <T> Outcome<T> invoke(String operation, Call<T> call) throws AuctionException, AllReplicasDownException {
        long sent = MicroClock.nowEpochMicros();
        RuntimeException first;
        try {
            T result = call.invoke(cluster.service());
            return Outcome.firstChoice(result, servedBy(result), 1);
        } catch (RuntimeException failure) {
            first = failure;
        }
        long detected = MicroClock.nowEpochMicros();
        String failedMember = lastMember();
        long deadline = replicas.giveUpDeadline();
        RuntimeException last = first;
        int attempts = 1;
        while (System.nanoTime() < deadline && !replicas.closed()) {
            long resent = MicroClock.nowEpochMicros();
            attempts++;
            try {
                T result = call.invoke(cluster.service());
                long done = MicroClock.nowEpochMicros();
                return Outcome.failedOver(result, servedBy(result), new FailoverPhases(failedMember,
                        detected - sent, resent - detected, done - resent, attempts));
            } catch (RuntimeException again) {
                last = again;
                if (MicroClock.nowEpochMicros() - resent < RESEND_PAUSE_MILLIS * 1000) {
                    LockSupport.parkNanos(RESEND_PAUSE_MILLIS * 1_000_000L);
                }
            }
        }
        throw new AllReplicasDownException("WildFly's cluster answered no resend for " + replicas.giveUpNanos()
                / 1_000_000_000.0 + " s after " + failedMember + " failed (" + attempts + " attempts); last failure: "
                + FailOver.rootMessage(last), last);
    }

    /** The replica that produced {@code result} (every operation answers with a {@link Reply} naming it). */
    private String servedBy(Object result) {
        if (result instanceof Reply<?> r && r.replica() != null) {
            return r.replica();
        }
        String member = lastMember();
        return member != null ? member : "cluster";
    }

    /** The replica the EJB client sent this thread's last call to, by name where a view named it. */
    private String lastMember() {
        URI destination = ClusterConnection.lastDestination();
        if (destination == null) {
            return "cluster";
        }
        String key = key(destination.toString());
        String name = names.get(key);
        if (name == null) {
            try {
                learnNames(replicas.view(true)); // a replacement that joined after the connection was made
            } catch (IOException e) {
                // the URI then names it
            }
            name = names.get(key);
        }
        return name != null ? name : destination.toString();
    }

    private void learnNames(PrimaryBackupView view) {
        for (PrimaryBackupView.Member m : view.members()) {
            names.put(key(m.uri()), m.name());
        }
    }

    /** A member URI without its scheme: the view writes {@code remote+http://h:p}, the EJB client as it likes. */
    private static String key(String uri) {
        int i = uri.indexOf("://");
        String rest = i < 0 ? uri : uri.substring(i + 3);
        return rest.endsWith("/") ? rest.substring(0, rest.length() - 1) : rest;
    }

    @Override
    public void close() {
        cluster.close();
    }
}
