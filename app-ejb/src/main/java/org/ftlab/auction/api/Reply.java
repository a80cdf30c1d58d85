package org.ftlab.auction.api;

import java.io.Serializable;

/**
 * What every operation returns: either the natural result ({@link ReplySize#ORIGINAL}) or a payload of exactly the
 * requested size, plus the server-side probes and which replica served it.
 *
 * @param <T> the natural result type of the operation
 */
public final class Reply<T extends Serializable> implements Serializable {
    private static final long serialVersionUID = 1L;

    private final T value;
    private final byte[] payload;
    private final boolean replayed;
    private final String replica;
    private final ServerProbes probes;
    /** The stateful tier's measures of the request; null for the stateless tier. */
    private final TierProbes tierProbes;

    public Reply(T value, byte[] payload, boolean replayed, String replica, ServerProbes probes) {
        this(value, payload, replayed, replica, probes, null);
    }

    public Reply(T value, byte[] payload, boolean replayed, String replica, ServerProbes probes,
            TierProbes tierProbes) {
        this.value = value;
        this.payload = payload;
        this.replayed = replayed;
        this.replica = replica;
        this.probes = probes;
        this.tierProbes = tierProbes;
    }

    /** What the stateful tier did for the request; null for the stateless tier. */
    public TierProbes tierProbes() {
        return tierProbes;
    }

    /** The natural result; {@code null} when the request asked for a sized payload instead. */
    public T value() {
        return value;
    }

    /** The sized payload (exactly the requested byte count); {@code null} for {@link ReplySize#ORIGINAL}. */
    public byte[] payload() {
        return payload;
    }

    /**
     * True when this reply was not computed now but returned from the request log, because the same
     * {@code (clientId, seq)} had already been executed (a retry after fail-over).
     */
    public boolean replayed() {
        return replayed;
    }

    /** The node name of the replica that produced this reply. */
    public String replica() {
        return replica;
    }

    public ServerProbes probes() {
        return probes;
    }
}
