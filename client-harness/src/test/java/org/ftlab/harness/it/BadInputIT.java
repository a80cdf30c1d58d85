package org.ftlab.harness.it;

import static org.ftlab.harness.it.SharedLab.header;
import static org.ftlab.harness.it.SharedLab.service;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.ftlab.auction.api.AuctionClosedException;
import org.ftlab.auction.api.AuctionDraft;
import org.ftlab.auction.api.AuctionException;
import org.ftlab.auction.api.BidTooLowException;
import org.ftlab.auction.api.InvalidAccountInfoException;
import org.ftlab.auction.api.InvalidAuctionInfoException;
import org.ftlab.auction.api.InvalidRequestException;
import org.ftlab.auction.api.NotLoggedInException;
import org.ftlab.auction.api.ReplySize;
import org.ftlab.auction.api.RequestHeader;
import org.ftlab.auction.api.UnknownAuctionException;
import org.ftlab.auction.api.UnknownUserException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.function.Executable;

/** Each bad input is refused with its declared exception and a message saying what is wrong, and writes nothing. */
@ExtendWith(SharedLab.class)
class BadInputIT {
    private static final long NO_SUCH_AUCTION = 9_000_000_000L;
    private static LoggedInSeller seller;
    private static long openAuction;

    @BeforeAll
    static void seller() throws Exception {
        seller = LoggedInSeller.create();
        openAuction = seller.post("Open item", 1000, 3600);
    }

    /** Asserts the refusal type and message, and that no table gained a row. */
    private static <T extends AuctionException> void refusedWithoutWriting(Class<T> type, String messagePart,
            Executable call) throws Exception {
        long before = SharedLab.writtenRows();
        T refusal = assertThrows(type, call);
        assertTrue(refusal.getMessage().contains(messagePart),
                () -> "message '" + refusal.getMessage() + "' should contain '" + messagePart + "'");
        assertEquals(before, SharedLab.writtenRows(), "a refused request must not write anything");
    }

    private static AuctionDraft draft(String title, String description, long price, long duration) {
        return new AuctionDraft(title, description, price, duration);
    }

    @Test
    void emptyTitleIsInvalidAuctionInfo() throws Exception {
        refusedWithoutWriting(InvalidAuctionInfoException.class, "title must not be empty", () ->
                service().postAuction(header(seller.clientId()), seller.token(), draft("  ", "d", 1, 60)));
    }

    @Test
    void negativePriceIsInvalidAuctionInfo() throws Exception {
        refusedWithoutWriting(InvalidAuctionInfoException.class, "must not be negative", () ->
                service().postAuction(header(seller.clientId()), seller.token(), draft("t", "d", -1, 60)));
    }

    @Test
    void oversizeTitleIsInvalidAuctionInfo() throws Exception {
        refusedWithoutWriting(InvalidAuctionInfoException.class, "at most 100", () ->
                service().postAuction(header(seller.clientId()), seller.token(), draft("x".repeat(101), "d", 1, 60)));
    }

    @Test
    void oversizeDescriptionIsInvalidAuctionInfo() throws Exception {
        refusedWithoutWriting(InvalidAuctionInfoException.class, "at most 1000", () ->
                service().postAuction(header(seller.clientId()), seller.token(), draft("t", "y".repeat(1001), 1, 60)));
    }

    @Test
    void zeroDurationIsInvalidAuctionInfo() throws Exception {
        refusedWithoutWriting(InvalidAuctionInfoException.class, "duration", () ->
                service().postAuction(header(seller.clientId()), seller.token(), draft("t", "d", 1, 0)));
    }

    @Test
    void postingWithAnUnknownTokenIsNotLoggedIn() throws Exception {
        refusedWithoutWriting(NotLoggedInException.class, "unknown login token", () ->
                service().postAuction(header(seller.clientId()), "forged-token", draft("t", "d", 1, 60)));
    }

    @Test
    void postingWithoutATokenIsNotLoggedIn() throws Exception {
        refusedWithoutWriting(NotLoggedInException.class, "no login token", () ->
                service().postAuction(header(seller.clientId()), null, draft("t", "d", 1, 60)));
    }

    @Test
    void viewingAnUnknownAuctionIsUnknownAuction() throws Exception {
        refusedWithoutWriting(UnknownAuctionException.class, "unknown auction " + NO_SUCH_AUCTION, () ->
                service().viewAuction(header("viewer"), NO_SUCH_AUCTION));
    }

    @Test
    void historyAndStatusOfAnUnknownAuctionAreUnknownAuction() throws Exception {
        refusedWithoutWriting(UnknownAuctionException.class, "unknown auction", () ->
                service().bidHistory(header("viewer"), NO_SUCH_AUCTION));
        refusedWithoutWriting(UnknownAuctionException.class, "unknown auction", () ->
                service().auctionStatus(header("viewer"), NO_SUCH_AUCTION));
    }

    @Test
    void biddingOnAnUnknownAuctionIsUnknownAuction() throws Exception {
        refusedWithoutWriting(UnknownAuctionException.class, "unknown auction", () ->
                service().placeBid(header(seller.clientId()), seller.token(), NO_SUCH_AUCTION, 100));
    }

    @Test
    void loginOfAnUnknownUserIsUnknownUser() throws Exception {
        refusedWithoutWriting(UnknownUserException.class, "unknown user", () ->
                service().login(header("c"), SharedLab.unique("nobody"), "whatever-pw"));
    }

    @Test
    void loginWithAWrongPasswordIsUnknownUser() throws Exception {
        refusedWithoutWriting(UnknownUserException.class, "wrong password", () ->
                service().login(header("c"), seller.username(), "not-the-password"));
    }

    @Test
    void bidBelowTheStartingPriceIsTooLow() throws Exception {
        refusedWithoutWriting(BidTooLowException.class, "below the starting price", () ->
                service().placeBid(header(seller.clientId()), seller.token(), openAuction, 999));
    }

    @Test
    void bidNotAboveTheHighestBidIsTooLow() throws Exception {
        long id = seller.post("Contested item", 100, 3600);
        service().placeBid(header(seller.clientId()), seller.token(), id, 500);
        refusedWithoutWriting(BidTooLowException.class, "does not beat the highest bid of 500", () ->
                service().placeBid(header(seller.clientId()), seller.token(), id, 500));
    }

    @Test
    void bidOnAClosedAuctionIsAuctionClosed() throws Exception {
        long id = seller.post("Short auction", 100, 1);
        Thread.sleep(1_200);
        refusedWithoutWriting(AuctionClosedException.class, "closed", () ->
                service().placeBid(header(seller.clientId()), seller.token(), id, 1000));
    }

    @Test
    void shortUsernameOrPasswordIsInvalidAccountInfo() throws Exception {
        refusedWithoutWriting(InvalidAccountInfoException.class, "username must be", () ->
                service().createAccount(header("c"), "ab", "long-enough"));
        refusedWithoutWriting(InvalidAccountInfoException.class, "password must be", () ->
                service().createAccount(header("c"), SharedLab.unique("user"), "short"));
    }

    @Test
    void takenUsernameIsInvalidAccountInfo() throws Exception {
        refusedWithoutWriting(InvalidAccountInfoException.class, "is taken", () ->
                service().createAccount(header("c"), seller.username(), "long-enough"));
    }

    @Test
    void blankClientIdOrNegativeSeqIsAnInvalidRequest() throws Exception {
        refusedWithoutWriting(InvalidRequestException.class, "client id", () ->
                service().viewAuction(new RequestHeader(" ", 1, ReplySize.ORIGINAL), openAuction));
        refusedWithoutWriting(InvalidRequestException.class, "seq must be non-negative", () ->
                service().viewAuction(new RequestHeader("c", -1, ReplySize.ORIGINAL), openAuction));
    }
}
