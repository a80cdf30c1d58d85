package org.ftlab.fd;

import java.util.Collection;
import java.util.function.Consumer;
import org.jgroups.Address;
import org.jgroups.Event;
import org.jgroups.stack.Protocol;

/**
 * Passes every SUSPECT event up unchanged, and first tells a listener. JGroups gives applications views, not
 * suspicions; sitting below VERIFY_SUSPECT, this protocol lets the detector act on a raw suspicion (milliseconds
 * after a crash) instead of waiting for verification and a new view.
 */
public class SuspicionTap extends Protocol {
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
