package org.ftlab.harness.it;

import static org.ftlab.harness.it.SharedLab.count;
import static org.ftlab.harness.it.SharedLab.header;
import static org.ftlab.harness.it.SharedLab.service;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.ftlab.auction.api.AccountInfo;
import org.ftlab.auction.api.AuctionDraft;
import org.ftlab.auction.api.AuctionPosted;
import org.ftlab.auction.api.BidReceipt;
import org.ftlab.auction.api.InvalidRequestException;
import org.ftlab.auction.api.LoginToken;
import org.ftlab.auction.api.Reply;
import org.ftlab.auction.api.ReplySize;
import org.ftlab.auction.api.RequestHeader;
import org.ftlab.auction.client.ReplicaConnection;
import org.ftlab.rm.LocalLab;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A request repeated with the same (clientId, seq), as a client retrying after a fail-over does, returns the stored
 * reply and changes nothing: each state-changing operation takes effect exactly once.
 */
@ExtendWith(SharedLab.class)
class ExactlyOnceIT {

    @Test
    void repeatedPostReturnsTheSameReplyAndStoresOneAuction() throws Exception {
        LoggedInSeller seller = LoggedInSeller.create();
        RequestHeader h = header(seller.clientId());
        AuctionDraft draft = new AuctionDraft("Once only", "d", 100, 3600);
        Reply<AuctionPosted> first = service().postAuction(h, seller.token(), draft);
        Reply<AuctionPosted> again = service().postAuction(h, seller.token(), draft);

        assertFalse(first.replayed());
        assertTrue(again.replayed());
        assertEquals(first.value(), again.value());
        assertEquals(1, count("SELECT COUNT(*) FROM auction WHERE seller_id = ? AND title = 'Once only'",
                seller.accountId()));
        assertEquals(1, count("SELECT COUNT(*) FROM request_log WHERE client_id = ? AND seq = ?",
                h.clientId(), h.seq()));
    }

    @Test
    void repeatedBidReturnsTheSameReceiptAndStoresOneBid() throws Exception {
        LoggedInSeller seller = LoggedInSeller.create();
        long id = seller.post("Bid once", 100, 3600);
        RequestHeader h = header(seller.clientId());
        Reply<BidReceipt> first = service().placeBid(h, seller.token(), id, 300);
        Reply<BidReceipt> again = service().placeBid(h, seller.token(), id, 300);

        assertEquals(first.value(), again.value());
        assertTrue(again.replayed());
        assertEquals(1, count("SELECT COUNT(*) FROM bid WHERE auction_id = ?", id));
        assertEquals(1, count("SELECT bid_count FROM auction WHERE id = ?", id));
    }

    @Test
    void repeatedCreateAccountAndLoginReturnTheSameAccountAndToken() throws Exception {
        String clientId = SharedLab.unique("c-");
        String username = SharedLab.unique("carol");
        RequestHeader create = header(clientId);
        Reply<AccountInfo> a1 = service().createAccount(create, username, "long-enough");
        Reply<AccountInfo> a2 = service().createAccount(create, username, "long-enough");
        assertEquals(a1.value(), a2.value());
        assertEquals(1, count("SELECT COUNT(*) FROM account WHERE username = ?", username));

        RequestHeader login = header(clientId);
        Reply<LoginToken> t1 = service().login(login, username, "long-enough");
        Reply<LoginToken> t2 = service().login(login, username, "long-enough");
        assertEquals(t1.value(), t2.value());
        assertEquals(1, count("SELECT COUNT(*) FROM login_session WHERE account_id = ?", a1.value().accountId()));
    }

    @Test
    void replayIsShapedToTheReplySizeOfTheRetry() throws Exception {
        LoggedInSeller seller = LoggedInSeller.create();
        RequestHeader original = header(seller.clientId());
        AuctionDraft draft = new AuctionDraft("Resized", "d", 100, 3600);
        service().postAuction(original, seller.token(), draft);
        Reply<AuctionPosted> sized = service().postAuction(
                new RequestHeader(original.clientId(), original.seq(), ReplySize.ofBytes(256)), seller.token(), draft);
        assertTrue(sized.replayed());
        assertEquals(256, sized.payload().length);
    }

    @Test
    void concurrentTwinsOfOneRequestStoreOneAuction() throws Exception {
        LoggedInSeller seller = LoggedInSeller.create();
        LocalLab lab = SharedLab.lab();
        RequestHeader h = header(seller.clientId());
        AuctionDraft draft = new AuctionDraft("Raced", "d", 100, 3600);
        int twins = 4;
        ExecutorService pool = Executors.newFixedThreadPool(twins);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Reply<AuctionPosted>>> replies = new ArrayList<>();
        List<ReplicaConnection> connections = new ArrayList<>();
        try {
            for (int i = 0; i < twins; i++) {
                // Separate connections, as a retry from a second client proxy would arrive.
                ReplicaConnection c = ReplicaConnection.open(lab.primary().remotingUri(), lab.user().username(),
                        lab.user().password());
                connections.add(c);
                Callable<Reply<AuctionPosted>> call = () -> {
                    go.await();
                    return c.service().postAuction(h, seller.token(), draft);
                };
                replies.add(pool.submit(call));
            }
            go.countDown();
            long id = replies.get(0).get().value().auctionId();
            int fresh = 0;
            for (Future<Reply<AuctionPosted>> f : replies) {
                assertEquals(id, f.get().value().auctionId());
                fresh += f.get().replayed() ? 0 : 1;
            }
            assertEquals(1, fresh, "exactly one twin executed, the others got the stored reply");
            assertEquals(1, count("SELECT COUNT(*) FROM auction WHERE seller_id = ? AND title = 'Raced'",
                    seller.accountId()));
        } finally {
            pool.shutdownNow();
            connections.forEach(ReplicaConnection::close);
        }
    }

    @Test
    void reusingASeqForAnotherOperationIsRefused() throws Exception {
        LoggedInSeller seller = LoggedInSeller.create();
        RequestHeader h = header(seller.clientId());
        long id = service().postAuction(h, seller.token(), new AuctionDraft("Seq reuse", "d", 100, 3600))
                .value().auctionId();
        InvalidRequestException e = assertThrows(InvalidRequestException.class,
                () -> service().placeBid(h, seller.token(), id, 500));
        assertTrue(e.getMessage().contains("already used for postAuction"), e.getMessage());
        assertEquals(0, count("SELECT COUNT(*) FROM bid WHERE auction_id = ?", id));
    }

    @Test
    void readsAreNotLoggedBecauseRepeatingThemChangesNothing() throws Exception {
        LoggedInSeller seller = LoggedInSeller.create();
        long id = seller.post("Read twice", 100, 3600);
        RequestHeader h = header("reader");
        assertArrayEquals(new Object[] {service().viewAuction(h, id).value()},
                new Object[] {service().viewAuction(h, id).value()});
        assertEquals(0, count("SELECT COUNT(*) FROM request_log WHERE client_id = 'reader'"));
    }
}
