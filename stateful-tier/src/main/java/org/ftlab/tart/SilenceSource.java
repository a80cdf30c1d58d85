package org.ftlab.tart;

/** The senders of a receiver, as a curiosity probe reaches them. */
@FunctionalInterface
public interface SilenceSource {
    /**
     * The virtual time through which the sender of {@code wire} promises it sends nothing more than it has sent: a
     * curiosity probe's answer. A promise is never broken, so a receiver may keep the largest it was given.
     */
    long silentThrough(int wire);
}
