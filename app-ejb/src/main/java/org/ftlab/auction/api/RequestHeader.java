package org.ftlab.auction.api;

import java.io.Serializable;
import java.util.Objects;

/**
 * Identifies one logical client request and the reply shape the client wants.
 *
 * <p>{@code (clientId, seq)} is the request's identity across fail-over: a client that retries a request on another
 * replica sends the same pair, and a replica that finds the pair already executed returns the stored reply instead of
 * executing again. A client must use a fresh {@code seq} for every new request.
 */
public final class RequestHeader implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Longest accepted client id; matches {@code request_log.client_id}. */
    public static final int MAX_CLIENT_ID_LENGTH = 64;

    private final String clientId;
    private final long seq;
    private final ReplySize replySize;
    /** False only in the probe-overhead benchmark: the replica then reads no clock and returns zero probes. */
    private final boolean probes;
    /**
     * False only while a lab's observation is switched off to measure what it costs: the replica then reads no
     * scheduler counters for the request (in a lab that records no events it reads none anyway).
     */
    private final boolean observed;
    /** A rehearsal runs the whole request, database writes included, and rolls them back (keeps replicas hot). */
    private final boolean rehearsal;
    /**
     * For the stateful tier (seed 003): the primary's deterministic components handle it, not a transaction of the
     * stateless tier. Only what the stateful tier offers ({@code postAuction}, {@code offerBid}) takes it.
     */
    private final boolean stateful;

    public RequestHeader(String clientId, long seq, ReplySize replySize) {
        this(clientId, seq, replySize, true, true, false);
    }

    public RequestHeader(String clientId, long seq, ReplySize replySize, boolean probes) {
        this(clientId, seq, replySize, probes, true, false);
    }

    private RequestHeader(String clientId, long seq, ReplySize replySize, boolean probes, boolean observed,
            boolean rehearsal) {
        this(clientId, seq, replySize, probes, observed, rehearsal, false);
    }

    private RequestHeader(String clientId, long seq, ReplySize replySize, boolean probes, boolean observed,
            boolean rehearsal, boolean stateful) {
        this.stateful = stateful;
        this.clientId = Objects.requireNonNull(clientId, "clientId");
        this.seq = seq;
        this.replySize = Objects.requireNonNull(replySize, "replySize");
        this.probes = probes;
        this.observed = observed;
        this.rehearsal = rehearsal;
    }

    /**
     * A header with every field given: how a door other than remote EJB (the HTTP one) rebuilds the header it was
     * sent.
     */
    public static RequestHeader of(String clientId, long seq, ReplySize replySize, boolean probes, boolean observed,
            boolean rehearsal) {
        return new RequestHeader(clientId, seq, replySize, probes, observed, rehearsal);
    }

    /** This header, for a request the replica observes only with its timestamps (no scheduler counters). */
    public RequestHeader unobserved() {
        return new RequestHeader(clientId, seq, replySize, probes, false, rehearsal, stateful);
    }

    /**
     * A rehearsal of a request: the replica runs it exactly as a real one (request-log lookup, business checks,
     * inserts and updates, flush, reply) and then rolls its transaction back, so nothing is stored and the request log
     * does not remember it. The Replication Manager sends rehearsals to keep backups and spares hot.
     */
    public static RequestHeader rehearsal(String clientId, long seq) {
        return new RequestHeader(clientId, seq, ReplySize.ORIGINAL, true, true, true);
    }

    /** What a shadow's client id adds to the client's: no real request carries it, so no shadow meets a real one. */
    public static final String SHADOW_SUFFIX = "/shadow";

    /**
     * This request as a shadow (shadow traffic, docs/architecture.md): a rehearsal (run in full, rolled back, never
     * stored) under the client's shadow id ({@code clientId + "/shadow"}) and the same seq, with this header's reply
     * size and probes. Under the real client id, a shadow would find the real request in the request log (and skip
     * the work it is meant to rehearse) or wait for the real one's row lock while the real one commits.
     */
    public RequestHeader shadow() {
        return new RequestHeader(clientId + SHADOW_SUFFIX, seq, replySize, probes, observed, true);
    }

    /** This header, for the stateful tier. */
    public RequestHeader stateful() {
        return new RequestHeader(clientId, seq, replySize, probes, observed, rehearsal, true);
    }

    /** Whether the request is for the stateful tier. */
    public boolean isStateful() {
        return stateful;
    }

    public boolean isRehearsal() {
        return rehearsal;
    }

    /** Whether the replica takes its four probe timestamps (always, except to measure what they cost). */
    public boolean probes() {
        return probes;
    }

    /** Whether the replica may read its threads' scheduler counters for the request (when its lab observes). */
    public boolean observed() {
        return observed;
    }

    public String clientId() {
        return clientId;
    }

    public long seq() {
        return seq;
    }

    public ReplySize replySize() {
        return replySize;
    }

    @Override
    public String toString() {
        return clientId + "#" + seq + "/" + replySize + (stateful ? "/stateful" : "");
    }
}
