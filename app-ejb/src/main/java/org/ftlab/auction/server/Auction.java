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
@Table(name = "auction")
public class Auction {
    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @ManyToOne(optional = false, fetch = FetchType.LAZY)
    @JoinColumn(name = "seller_id", nullable = false)
    private Account seller;

    @Column(name = "title", nullable = false, length = 100)
    private String title;

    @Column(name = "description", nullable = false, length = 1000)
    private String description;

    @Column(name = "starting_price_cents", nullable = false)
    private long startingPriceCents;

    /** 0 while nobody has bid. */
    @Column(name = "highest_bid_cents", nullable = false)
    private long highestBidCents;

    @ManyToOne(fetch = FetchType.LAZY)
    @JoinColumn(name = "highest_bidder_id")
    private Account highestBidder;

    @Column(name = "bid_count", nullable = false)
    private int bidCount;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    @Column(name = "closes_at", nullable = false)
    private Instant closesAt;

    protected Auction() {
    }

    Auction(Account seller, String title, String description, long startingPriceCents, Instant createdAt,
            Instant closesAt) {
        this.seller = seller;
        this.title = title;
        this.description = description;
        this.startingPriceCents = startingPriceCents;
        this.createdAt = createdAt;
        this.closesAt = closesAt;
    }

    void acceptBid(Account bidder, long amountCents) {
        this.highestBidCents = amountCents;
        this.highestBidder = bidder;
        this.bidCount++;
    }

    boolean isOpenAt(Instant now) {
        return now.isBefore(closesAt);
    }

    /** The smallest amount a new bid must exceed. */
    long amountToBeat() {
        return bidCount == 0 ? startingPriceCents - 1 : highestBidCents;
    }

    public Long getId() {
        return id;
    }

    public Account getSeller() {
        return seller;
    }

    public String getTitle() {
        return title;
    }

    public String getDescription() {
        return description;
    }

    public long getStartingPriceCents() {
        return startingPriceCents;
    }

    public long getHighestBidCents() {
        return highestBidCents;
    }

    public Account getHighestBidder() {
        return highestBidder;
    }

    public int getBidCount() {
        return bidCount;
    }

    public Instant getClosesAt() {
        return closesAt;
    }
}
