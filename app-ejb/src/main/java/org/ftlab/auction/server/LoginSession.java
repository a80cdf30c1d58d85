package org.ftlab.auction.server;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.Table;
import java.time.Instant;

/** A login, kept in the database because replicas are stateless: any replica must accept it after a fail-over. */
@Entity
@Table(name = "login_session")
public class LoginSession {
    @Id
    @Column(name = "token", length = 64)
    private String token;

    @ManyToOne(optional = false, fetch = FetchType.LAZY)
    @JoinColumn(name = "account_id", nullable = false)
    private Account account;

    @Column(name = "expires_at", nullable = false)
    private Instant expiresAt;

    protected LoginSession() {
    }

    LoginSession(String token, Account account, Instant expiresAt) {
        this.token = token;
        this.account = account;
        this.expiresAt = expiresAt;
    }

    public String getToken() {
        return token;
    }

    public Account getAccount() {
        return account;
    }

    public Instant getExpiresAt() {
        return expiresAt;
    }
}
