package org.ftlab.auction.client;

import org.jboss.ejb.client.Affinity;
import org.jboss.ejb.client.AttachmentKey;
import org.jboss.ejb.client.EJBClientContext;
import org.jboss.ejb.client.EJBClientInterceptor;
import org.jboss.ejb.client.EJBClientInvocationContext;
import org.jboss.ejb.client.URIAffinity;

/**
 * Keeps a {@link ReplicaConnection}'s proxy pinned to its replica when the replicas form WildFly's cluster. A
 * clustered server answers every stateless call with the cluster's affinity, and the EJB client then moves the
 * proxy to it: the next call would go to any member, and a pinned connection would fail over by itself, unmeasured
 * and against the client's strategy. After each call on a proxy pinned to a URI this puts that URI back as the
 * affinity the EJB client keeps. It changes nothing for other proxies, and nothing on a lab without clustering
 * (whose servers send no affinity). Registered once per JVM, by the first {@link ReplicaConnection}.
 */
final class PinnedAffinity implements EJBClientInterceptor {
    private static final AttachmentKey<Affinity> PINNED = new AttachmentKey<>();
    private static final Object LOCK = new Object();
    private static boolean registered;

    private PinnedAffinity() {
    }

    static void register() {
        synchronized (LOCK) {
            if (!registered) {
                EJBClientContext.getCurrent().registerInterceptor(0, new PinnedAffinity());
                registered = true;
            }
        }
    }

    @Override
    public void handleInvocation(EJBClientInvocationContext context) throws Exception {
        Affinity affinity = context.getLocator().getAffinity();
        if (affinity instanceof URIAffinity) {
            context.putAttachment(PINNED, affinity);
        }
        context.sendRequest();
    }

    @Override
    public Object handleInvocationResult(EJBClientInvocationContext context) throws Exception {
        try {
            return context.getResult();
        } finally {
            Affinity pinned = context.getAttachment(PINNED);
            if (pinned != null && !pinned.equals(context.getLocator().getAffinity())) {
                context.setLocator(context.getLocator().withNewAffinity(pinned));
            }
        }
    }
}
