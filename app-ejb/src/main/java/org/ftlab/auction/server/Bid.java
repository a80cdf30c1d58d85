package org.ftlab.auction.server;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.Table;
import java.time.Instant;

@Entity
@Table(name = "bid")
public class Bid {
    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @ManyToOne(optional = false, fetch = FetchType.LAZY)
    @JoinColumn(name = "auction_id", nullable = false)
    private Auction auction;

    @ManyToOne(optional = false, fetch = FetchType.LAZY)
    @JoinColumn(name = "bidder_id", nullable = false)
    private Account bidder;

    @Column(name = "amount_cents", nullable = false)
    private long amountCents;

    @Column(name = "placed_at", nullable = false)
    private Instant placedAt;

    protected Bid() {
    }

    Bid(Auction auction, Account bidder, long amountCents, Instant placedAt) {
        this.auction = auction;
        this.bidder = bidder;
        this.amountCents = amountCents;
        this.placedAt = placedAt;
    }

    public Long getId() {
        return id;
    }

    public Account getBidder() {
        return bidder;
    }

    public long getAmountCents() {
        return amountCents;
    }

    public Instant getPlacedAt() {
        return placedAt;
    }
}
