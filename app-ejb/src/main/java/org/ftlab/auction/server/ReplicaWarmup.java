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

/**
 * Makes a warm backup warm: before the replica reports ready, it runs the service's database paths (the request-log
 * lookup and insert, the login, auction and bid lookups) in transactions that are rolled back. Without this, the
 * first request after a fail-over pays for Hibernate's first-use work (hundreds of milliseconds), which would be
 * measured as fail-over time. It writes nothing.
 */
@Startup
@Singleton
@TransactionManagement(TransactionManagementType.BEAN)
public class ReplicaWarmup {
    private static final Logger LOG = Logger.getLogger(ReplicaWarmup.class.getName());
    private static final int ROUNDS = 50;

    @PersistenceContext(unitName = "ftlab")
    private EntityManager em;

    @Resource
    private UserTransaction tx;

    @PostConstruct
    void warmUp() {
        long t0 = System.nanoTime();
        try {
            for (int i = 0; i < ROUNDS; i++) {
                tx.begin();
                try {
                    em.find(RequestLogEntry.class, new RequestLogEntry.Key("ftlab-warmup", i));
                    em.find(LoginSession.class, "ftlab-warmup");
                    em.find(Auction.class, -1L);
                    em.createQuery("select a from Account a where a.username = :u", Account.class)
                            .setParameter("u", "ftlab-warmup").getResultList();
                    em.createQuery("select b from Bid b join fetch b.bidder where b.auction.id = :id"
                            + " order by b.amountCents desc, b.id desc", Bid.class)
                            .setParameter("id", -1L).getResultList();
                    em.persist(new RequestLogEntry("ftlab-warmup", i, "warmup", new byte[] {0}, Instant.now()));
                    em.flush();
                } finally {
                    tx.rollback();
                }
            }
            LOG.info("warmed up the database paths in " + (System.nanoTime() - t0) / 1_000_000 + " ms");
        } catch (Exception e) {
            // A cold replica still works; only its first requests are slower.
            LOG.log(Level.WARNING, "warm-up failed; the first requests will be slower", e);
        }
    }
}
