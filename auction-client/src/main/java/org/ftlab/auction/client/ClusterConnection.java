package org.ftlab.auction.client;

import java.net.URI;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import javax.naming.Context;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import org.ftlab.auction.api.AuctionService;
import org.jboss.ejb.client.AttachmentKey;
import org.jboss.ejb.client.EJBClient;
import org.jboss.ejb.client.EJBClientContext;
import org.jboss.ejb.client.EJBClientInterceptor;
import org.jboss.ejb.client.EJBClientInvocationContext;

/**
 * WildFly's own fail-over, as a WildFly user gets it: one remote EJB proxy to the whole cluster of a lab started
 * with WildFly's clustering ({@code ftlab lab --wildfly-cluster}). The naming context knows every replica's URI;
 * the first call goes to one of them, whose answer gives the proxy the cluster's affinity, and from then on the EJB
 * client itself chooses a member for each call (at random among those it is connected to; it learns members from
 * the cluster topology the servers send) and sends a call again elsewhere when it could not be sent or the bean was
 * missing. A call in flight when its member crashed or hung fails with a {@link RuntimeException}: the EJB client
 * never sends it again, because it cannot know whether it ran.
 *
 * <p>Nothing of ftlab decides where a call goes. The connection only observes, for the probes, which member the
 * last call on this thread went to ({@link #lastDestination()}): an EJB client interceptor, registered once per
 * JVM, records the destination the client chose for calls through cluster proxies and does nothing else.
 */
public final class ClusterConnection implements ServiceConnection {
    private static final long CONNECT_TIMEOUT_MILLIS = 10_000;
    /** Marks the proxies this class made, so that the observer ignores every other EJB call of the JVM. */
    private static final AttachmentKey<Boolean> CLUSTER_PROXY = new AttachmentKey<>();
    private static final ThreadLocal<URI> LAST_DESTINATION = new ThreadLocal<>();
    private static final Object OBSERVER_LOCK = new Object();
    private static boolean observerRegistered;

    private final Context context;
    private final AuctionService service;

    private ClusterConnection(Context context, AuctionService service) {
        this.context = context;
        this.service = service;
    }

    /**
     * Looks up the service through a naming context that knows every member in {@code remotingUris}
     * ({@code remote+http://host:port}), makes a first call (a ping, under a connection budget) so that the proxy
     * has the cluster's affinity before it is measured, and bounds every later call by
     * {@code invocationTimeoutMillis} (the EJB client's invocation timeout; without one a call to a hung member
     * never returns).
     */
    public static ClusterConnection open(List<String> remotingUris, String username, String password,
            long invocationTimeoutMillis) throws NamingException {
        if (remotingUris.isEmpty()) {
            throw new IllegalArgumentException("a cluster connection needs at least one member's URI");
        }
        if (invocationTimeoutMillis <= 0) {
            throw new IllegalArgumentException("a cluster connection needs an invocation timeout, was "
                    + invocationTimeoutMillis + " ms");
        }
        registerObserver();
        Properties env = new Properties();
        env.put(Context.INITIAL_CONTEXT_FACTORY, "org.wildfly.naming.client.WildFlyInitialContextFactory");
        env.put(Context.PROVIDER_URL, String.join(",", remotingUris));
        env.put(Context.SECURITY_PRINCIPAL, username);
        env.put(Context.SECURITY_CREDENTIALS, password);
        Context context = new InitialContext(env);
        try {
            AuctionService service = (AuctionService) context.lookup(AuctionService.JNDI_NAME);
            EJBClient.putProxyAttachment(service, CLUSTER_PROXY, Boolean.TRUE);
            EJBClient.setInvocationTimeout(service, CONNECT_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
            service.ping();
            EJBClient.setInvocationTimeout(service, invocationTimeoutMillis, TimeUnit.MILLISECONDS);
            return new ClusterConnection(context, service);
        } catch (NamingException | RuntimeException e) {
            context.close();
            throw e;
        }
    }

    private static void registerObserver() {
        synchronized (OBSERVER_LOCK) {
            if (!observerRegistered) {
                // the lowest order: outside WildFly's own interceptors, so it sees the destination they settled on
                EJBClientContext.getCurrent().registerInterceptor(0, new DestinationObserver());
                observerRegistered = true;
            }
        }
    }

    @Override
    public AuctionService service() {
        return service;
    }

    /** The member the last call through a cluster proxy on this thread was sent to (null before any). */
    public static URI lastDestination() {
        return LAST_DESTINATION.get();
    }

    @Override
    public void invocationTimeout(long millis) {
        EJBClient.setInvocationTimeout(service, millis, TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
        try {
            context.close();
        } catch (NamingException e) {
            // Closing a naming context only releases client resources; nothing to report.
        }
    }

    /** Records where the EJB client sent a cluster proxy's call; changes nothing. */
    private static final class DestinationObserver implements EJBClientInterceptor {
        @Override
        public void handleInvocation(EJBClientInvocationContext context) throws Exception {
            context.sendRequest();
        }

        @Override
        public Object handleInvocationResult(EJBClientInvocationContext context) throws Exception {
            try {
                return context.getResult();
            } finally {
                if (Boolean.TRUE.equals(context.getProxyAttachment(CLUSTER_PROXY))) {
                    LAST_DESTINATION.set(context.getDestination());
                }
            }
        }
    }
}
