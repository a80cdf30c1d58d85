package org.ftlab.auction.server;

import jakarta.persistence.Column;
import jakarta.persistence.Embeddable;
import jakarta.persistence.EmbeddedId;
import jakarta.persistence.Entity;
import jakarta.persistence.Lob;
import jakarta.persistence.Table;
import java.io.Serializable;
import java.time.Instant;
import java.util.Objects;

/**
 * The stored reply of a state-changing request, written in the same transaction as the change. Its primary key
 * {@code (client_id, seq)} is what makes a retried request execute at most once: two replicas racing on the same
 * request cannot both commit.
 */
@Entity
@Table(name = "request_log")
public class RequestLogEntry {
    @EmbeddedId
    private Key key;

    @Column(name = "operation", nullable = false, length = 32)
    private String operation;

    /** The natural reply value, Java-serialized; re-shaped to the requested size on every replay. */
    @Lob
    @Column(name = "reply", nullable = false)
    private byte[] reply;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    protected RequestLogEntry() {
    }

    RequestLogEntry(String clientId, long seq, String operation, byte[] reply, Instant createdAt) {
        this.key = new Key(clientId, seq);
        this.operation = operation;
        this.reply = reply;
        this.createdAt = createdAt;
    }

    public String getOperation() {
        return operation;
    }

    public byte[] getReply() {
        return reply;
    }

    @Embeddable
    public static class Key implements Serializable {
        private static final long serialVersionUID = 1L;

        @Column(name = "client_id", length = 64)
        private String clientId;

        @Column(name = "seq")
        private long seq;

        protected Key() {
        }

        public Key(String clientId, long seq) {
            this.clientId = clientId;
            this.seq = seq;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && k.seq == seq && k.clientId.equals(clientId);
        }

        @Override
        public int hashCode() {
            return Objects.hash(clientId, seq);
        }
    }
}
