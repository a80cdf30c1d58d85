package org.ftlab.fd;

import java.util.Collection;
import java.util.function.Consumer;
import org.jgroups.Address;
import org.jgroups.Event;
import org.jgroups.stack.Protocol;

/**
 * Passes every SUSPECT event up unchanged, and first tells a listener. JGroups gives applications views, not
 * suspicions. {@link RawSuspicionTap}, placed below VERIFY_SUSPECT, sees raw suspicions (milliseconds after a crash,
 * but also false ones, e.g. a member still busy joining); {@link VerifiedSuspicionTap}, placed above, sees only
 * those that VERIFY_SUSPECT confirmed (the member did not answer within its timeout). Two distinct classes because
 * a stack finds its protocols by class.
 */
public abstract class SuspicionTap extends Protocol {
    private volatile Consumer<Collection<Address>> listener = suspects -> { };

    public void setListener(Consumer<Collection<Address>> listener) {
        this.listener = listener;
    }

    @Override
    @SuppressWarnings("unchecked")
    public Object up(Event evt) {
        if (evt.getType() == Event.SUSPECT) {
            try {
                listener.accept((Collection<Address>) evt.getArg());
            } catch (RuntimeException e) {
                log.error("suspicion listener failed", e);
            }
        }
        return up_prot.up(evt);
    }
}
