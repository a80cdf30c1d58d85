package org.ftlab.harness.client;

import java.util.Properties;
import javax.naming.Context;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import org.ftlab.auction.api.AuctionService;

/**
 * A remote EJB proxy to the auction service on one replica, authenticated as the run's application user.
 * A proxy is bound to its replica: it never fails over by itself (fail-over is the client library's job).
 */
public final class ReplicaConnection implements AutoCloseable {
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
        Properties env = new Properties();
        env.put(Context.INITIAL_CONTEXT_FACTORY, "org.wildfly.naming.client.WildFlyInitialContextFactory");
        env.put(Context.PROVIDER_URL, remotingUri);
        env.put(Context.SECURITY_PRINCIPAL, username);
        env.put(Context.SECURITY_CREDENTIALS, password);
        Context context = new InitialContext(env);
        try {
            AuctionService service = (AuctionService) context.lookup(AuctionService.JNDI_NAME);
            return new ReplicaConnection(remotingUri, context, service);
        } catch (NamingException | RuntimeException e) {
            context.close();
            throw e;
        }
    }

    public AuctionService service() {
        return service;
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
