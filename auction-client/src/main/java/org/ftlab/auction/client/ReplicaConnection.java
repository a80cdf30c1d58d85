package org.ftlab.auction.client;

import java.net.URI;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import javax.naming.Context;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import org.ftlab.auction.api.AuctionService;
import org.ftlab.auction.api.StatefulTierControl;
import org.jboss.ejb.client.Affinity;
import org.jboss.ejb.client.EJBClient;

/**
 * A remote EJB proxy to the auction service on one replica, authenticated as the run's application user.
 * A proxy is pinned to its replica (strong URI affinity): it never fails over by itself; fail-over is the job of
 * the client harness's fail-over strategies.
 */
public final class ReplicaConnection implements ServiceConnection {
    private static final long CONNECT_TIMEOUT_MILLIS = 10_000;
    private final String remotingUri;
    private final Context context;
    private final AuctionService service;

    private ReplicaConnection(String remotingUri, Context context, AuctionService service) {
        this.remotingUri = remotingUri;
        this.context = context;
        this.service = service;
    }

    /** Looks up the service at {@code remote+http://host:port}; no network traffic until the first call. */
    public static ReplicaConnection open(String remotingUri, String username, String password)
            throws NamingException {
        return open(remotingUri, username, password, 0);
    }

    /**
     * As {@link #open(String, String, String)}, with an invocation timeout: a call to a hung replica (SIGSTOP) would
     * otherwise block forever; with one it fails after {@code invocationTimeoutMillis} (0: no timeout). With a
     * timeout the connection is opened and checked here (a {@code ping}), so a dead replica fails this call.
     */
    public static ReplicaConnection open(String remotingUri, String username, String password,
            long invocationTimeoutMillis) throws NamingException {
        PinnedAffinity.register(); // on a lab of WildFly's cluster the servers would unpin it
        Properties env = new Properties();
        env.put(Context.INITIAL_CONTEXT_FACTORY, "org.wildfly.naming.client.WildFlyInitialContextFactory");
        env.put(Context.PROVIDER_URL, remotingUri);
        env.put(Context.SECURITY_PRINCIPAL, username);
        env.put(Context.SECURITY_CREDENTIALS, password);
        Context context = new InitialContext(env);
        try {
            AuctionService service = (AuctionService) context.lookup(AuctionService.JNDI_NAME);
            // Pin the proxy to this replica. Otherwise the EJB client, which knows every replica this JVM has
            // connected to, silently retries a failed call on another one: fail-over would happen unmeasured and
            // outside the client's chosen strategy.
            EJBClient.setStrongAffinity(service,
                    Affinity.forUri(URI.create(remotingUri)));
            if (invocationTimeoutMillis > 0) {
                // The first call also opens the connection (the first one of a JVM takes over a second); do it now,
                // under a connection budget, so that the invocation timeout measures only invocations.
                EJBClient.setInvocationTimeout(service, CONNECT_TIMEOUT_MILLIS,
                        TimeUnit.MILLISECONDS);
                service.ping();
                EJBClient.setInvocationTimeout(service, invocationTimeoutMillis,
                        TimeUnit.MILLISECONDS);
            }
            return new ReplicaConnection(remotingUri, context, service);
        } catch (NamingException | RuntimeException e) {
            context.close();
            throw e;
        }
    }

    @Override
    public AuctionService service() {
        return service;
    }

    @Override
    public void invocationTimeout(long millis) {
        EJBClient.setInvocationTimeout(service, millis, TimeUnit.MILLISECONDS);
    }

    /**
     * The replica's stateful tier control ({@link org.ftlab.auction.api.StatefulTierControl}), pinned to this replica,
     * its calls bounded by {@code invocationTimeoutMillis} (a recovery replays: give it minutes).
     */
    public StatefulTierControl tierControl(long invocationTimeoutMillis)
            throws NamingException {
        StatefulTierControl control = (StatefulTierControl) context
                .lookup(StatefulTierControl.JNDI_NAME);
        EJBClient.setStrongAffinity(control,
                Affinity.forUri(URI.create(remotingUri)));
        EJBClient.setInvocationTimeout(control, invocationTimeoutMillis,
                TimeUnit.MILLISECONDS);
        return control;
    }

    public String remotingUri() {
        return remotingUri;
    }

    @Override
    public void close() {
        try {
            context.close();
        } catch (NamingException e) {
            // Closing a naming context only releases client resources; nothing to report.
        }
    }
}
