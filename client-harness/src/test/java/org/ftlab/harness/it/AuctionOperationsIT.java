package org.ftlab.harness.it;

import static org.ftlab.harness.it.SharedLab.header;
import static org.ftlab.harness.it.SharedLab.service;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.ftlab.auction.api.AccountInfo;
import org.ftlab.auction.api.AuctionDetails;
import org.ftlab.auction.api.AuctionDraft;
import org.ftlab.auction.api.AuctionPosted;
import org.ftlab.auction.api.AuctionStatus;
import org.ftlab.auction.api.BidHistory;
import org.ftlab.auction.api.BidReceipt;
import org.ftlab.auction.api.LoginToken;
import org.ftlab.auction.api.Reply;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Every operation of the auction service through a real remote EJB call to a provisioned replica. */
@ExtendWith(SharedLab.class)
class AuctionOperationsIT {

    @Test
    void createAccountReturnsTheNewAccountAndStoresIt() throws Exception {
        String username = SharedLab.unique("alice");
        Reply<AccountInfo> reply = service().createAccount(header("ops"), username, "long-enough");
        assertEquals(username, reply.value().username());
        assertTrue(reply.value().accountId() > 0);
        assertFalse(reply.replayed());
        assertEquals("r1", reply.replica());
        assertEquals(1, SharedLab.count("SELECT COUNT(*) FROM account WHERE username = ?", username));
    }

    @Test
    void loginReturnsATokenThatAnyReplicaCanCheckInTheDatabase() throws Exception {
        String username = SharedLab.unique("bob");
        long id = service().createAccount(header("ops"), username, "long-enough").value().accountId();
        LoginToken token = service().login(header("ops"), username, "long-enough").value();
        assertEquals(id, token.accountId());
        assertEquals(1, SharedLab.count("SELECT COUNT(*) FROM login_session WHERE token = ? AND account_id = ?",
                token.token(), id));
    }

    @Test
    void postedAuctionIsViewableWithEverythingThatWasPosted() throws Exception {
        LoggedInSeller seller = LoggedInSeller.create();
        Reply<AuctionPosted> posted = service().postAuction(header(seller.clientId()), seller.token(),
                new AuctionDraft("Vintage bicycle", "Blue, 3 gears", 2500, 3600));
        long id = posted.value().auctionId();
        AuctionDetails view = service().viewAuction(header("viewer"), id).value();
        assertEquals(id, view.auctionId());
        assertEquals(seller.username(), view.seller());
        assertEquals("Vintage bicycle", view.title());
        assertEquals("Blue, 3 gears", view.description());
        assertEquals(2500, view.startingPriceCents());
        assertEquals(0, view.bidCount());
        assertEquals(posted.value().closesAtEpochMillis(), view.closesAtEpochMillis());
        assertTrue(view.open());
    }

    @Test
    void acceptedBidsRaiseTheHighestBidAndAppearInTheHistoryHighestFirst() throws Exception {
        LoggedInSeller seller = LoggedInSeller.create();
        LoggedInSeller bidder = LoggedInSeller.create();
        long id = seller.post("Lamp", 1000, 3600);
        BidReceipt first = service().placeBid(header(bidder.clientId()), bidder.token(), id, 1000).value();
        BidReceipt second = service().placeBid(header(bidder.clientId()), bidder.token(), id, 1500).value();
        assertEquals(1500, second.amountCents());

        BidHistory history = service().bidHistory(header("viewer"), id).value();
        assertEquals(2, history.bids().size());
        assertEquals(second.bidId(), history.bids().get(0).bidId());
        assertEquals(first.bidId(), history.bids().get(1).bidId());
        assertEquals(bidder.username(), history.bids().get(0).bidder());

        AuctionDetails view = service().viewAuction(header("viewer"), id).value();
        assertEquals(1500, view.highestBidCents());
        assertEquals(2, view.bidCount());
    }

    @Test
    void auctionStatusNamesTheLeadingBidderOrNobody() throws Exception {
        LoggedInSeller seller = LoggedInSeller.create();
        LoggedInSeller bidder = LoggedInSeller.create();
        long id = seller.post("Chair", 500, 3600);
        AuctionStatus before = service().auctionStatus(header("viewer"), id).value();
        assertNull(before.leadingBidder());
        assertTrue(before.open());

        service().placeBid(header(bidder.clientId()), bidder.token(), id, 700);
        AuctionStatus after = service().auctionStatus(header("viewer"), id).value();
        assertEquals(bidder.username(), after.leadingBidder());
        assertEquals(700, after.highestBidCents());
        assertEquals(1, after.bidCount());
        assertNotNull(service().auctionStatus(header("viewer"), id).probes());
    }
}
