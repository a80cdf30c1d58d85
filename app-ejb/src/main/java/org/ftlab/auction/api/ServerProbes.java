package org.ftlab.auction.api;

import java.io.Serializable;

/**
 * Server-side probe timestamps of one invocation, in microseconds since the Unix epoch on the serving replica's
 * wall clock (see {@link MicroClock}).
 *
 * <p>They travel in the reply rather than in a server log, because a crashed replica loses its logs. Differences
 * between two of these are meaningful on their own; comparing them with a client's timestamps is only meaningful
 * when client and replica share a clock (the same host).
 */
public final class ServerProbes implements Serializable {
    private static final long serialVersionUID = 1L;

    private final long receivedMicros;
    private final long dbStartMicros;
    private final long dbEndMicros;
    private final long replySentMicros;

    public ServerProbes(long receivedMicros, long dbStartMicros, long dbEndMicros, long replySentMicros) {
        this.receivedMicros = receivedMicros;
        this.dbStartMicros = dbStartMicros;
        this.dbEndMicros = dbEndMicros;
        this.replySentMicros = replySentMicros;
    }

    /** When the bean began handling the request. */
    public long receivedMicros() {
        return receivedMicros;
    }

    /** When the bean started its database work (first statement of the transaction). */
    public long dbStartMicros() {
        return dbStartMicros;
    }

    /** When the bean's database work ended (after commit or rollback). */
    public long dbEndMicros() {
        return dbEndMicros;
    }

    /** When the reply left the bean, the last thing the bean does. */
    public long replySentMicros() {
        return replySentMicros;
    }

    @Override
    public String toString() {
        return "ServerProbes[recv=" + receivedMicros + ", dbStart=" + dbStartMicros + ", dbEnd=" + dbEndMicros
                + ", sent=" + replySentMicros + "]";
    }
}
