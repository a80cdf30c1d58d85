package org.ftlab.auction.server;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionManagement;
import jakarta.ejb.TransactionManagementType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.UserTransaction;
import java.time.Instant;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.ftlab.auction.api.AuctionPosted;
import org.ftlab.auction.api.ReplicaProperties;
import org.ftlab.auction.api.ReplySize;

/**
 * Makes a warm backup warm: before the replica reports ready, it runs the service's database paths (the request-log
 * lookup and insert, the login, auction and bid lookups, and the inserts of every operation) in transactions that
 * are rolled back, and the reads outside transactions as the service runs them. Without this, the
 * first request after a fail-over pays for Hibernate's first-use work (hundreds of milliseconds), which would be
 * measured as fail-over time. It writes nothing.
 */
@Startup
@Singleton
@TransactionManagement(TransactionManagementType.BEAN)
public class ReplicaWarmup {
    private static final Logger LOG = Logger.getLogger(ReplicaWarmup.class.getName());

    @PersistenceContext(unitName = "ftlab")
    private EntityManager em;

    @Resource
    private UserTransaction tx;

    @PostConstruct
    void warmUp() {
        if (!AuctionServiceBean.REQUEST_LOG) {
            LOG.warning("request log OFF (" + ReplicaProperties.REQUEST_LOG + "=off): a request "
                    + "that reaches this replica twice runs twice; for the exactly-once exercise only");
        }
        if (AuctionServiceBean.STALE_READS) {
            LOG.warning("stale reads ON (" + ReplicaProperties.STALE_READS + "=on): auction status is answered from a "
                    + "cache never invalidated; for the linearizability check's negative control only");
        }
        // By default enough rounds for the JIT to compile these paths (C1 compiles a method after some hundreds of
        // calls); the lab's warm rounds set it.
        int rounds = ReplicaProperties.warmRounds();
        if (rounds == 0) {
            LOG.info("no warm-up at deployment (" + ReplicaProperties.WARM_ROUNDS + "=0)");
            return;
        }
        // Keys of this replica's own: replicas booting side by side warm up at once, and the same keys inserted by
        // two of them would wait on each other's locks (InnoDB then ends one transaction as a deadlock).
        String own = "ftlab-warmup-" + System.getProperty("jboss.node.name", "replica");
        long t0 = System.nanoTime();
        try {
            for (int i = 0; i < rounds; i++) {
                tx.begin();
                try {
                    // The lookups every state-changing request starts with.
                    em.find(RequestLogEntry.class, new RequestLogEntry.Key(own, i));
                    em.find(LoginSession.class, own);
                    em.find(Auction.class, -1L);
                    em.createQuery("select a from Account a where a.username = :u", Account.class)
                            .setParameter("u", own).getResultList();
                    em.createQuery("select b from Bid b join fetch b.bidder where b.auction.id = :id"
                            + " order by b.amountCents desc, b.id desc", Bid.class)
                            .setParameter("id", -1L).getResultList();
                    // The writes of account creation, login, posting and bidding (identity inserts happen at
                    // persist), all rolled back below.
                    Instant now = Instant.now();
                    Account account = new Account(own + "-" + i, "warmup", now);
                    em.persist(account);
                    em.persist(new LoginSession(own + "-" + i, account, now.plusSeconds(60)));
                    Auction auction = new Auction(account, "warm-up", "never committed", 100, now,
                            now.plusSeconds(60));
                    em.persist(auction);
                    auction.acceptBid(account, 200);
                    em.persist(new Bid(auction, account, 200, now));
                    byte[] reply = ReplyCodec.serialize(new AuctionPosted(i, now.toEpochMilli()));
                    em.persist(new RequestLogEntry(own, i, "warmup", reply, now));
                    em.flush();
                    ReplyCodec.sizedPayload(new AuctionPosted(i, 0), ReplySize.ofBytes(512));
                } finally {
                    tx.rollback();
                }
                // The reads, which run outside transactions.
                em.createQuery("select a from Auction a join fetch a.seller where a.id = :id", Auction.class)
                        .setParameter("id", -1L).getResultList();
                em.createQuery("select a from Auction a left join fetch a.highestBidder where a.id = :id",
                        Auction.class).setParameter("id", -1L).getResultList();
            }
            LOG.info("warmed up the database paths in " + rounds + " rounds, " + (System.nanoTime() - t0) / 1_000_000
                    + " ms");
        } catch (Exception e) {
            // A cold replica still works; only its first requests are slower.
            LOG.log(Level.WARNING, "warm-up failed; the first requests will be slower", e);
        }
    }
}
