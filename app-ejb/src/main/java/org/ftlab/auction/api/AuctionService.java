package org.ftlab.auction.api;

import jakarta.ejb.Remote;

/**
 * The remote auction service (the middle tier). Every operation takes a {@link RequestHeader}; operations that change
 * state are executed at most once per {@code (clientId, seq)}: a repeated header returns the stored reply with
 * {@link Reply#replayed()} set and changes nothing, so a client may retry on another replica after a fail-over.
 * Read-only operations have no effect to duplicate and are simply executed again.
 *
 * <p>Remote lookup name: {@value #JNDI_NAME}.
 */
@Remote
public interface AuctionService {
    String JNDI_NAME = "ejb:/app-ejb/AuctionServiceBean!org.ftlab.auction.api.AuctionService";

    /**
     * Answers at once with the replica's name, touching no database: a health check, a way to open a connection
     * before it is needed, and the floor of what a remote call costs.
     */
    String ping();

    Reply<AccountInfo> createAccount(RequestHeader header, String username, String password)
            throws InvalidAccountInfoException, InvalidRequestException;

    Reply<LoginToken> login(RequestHeader header, String username, String password)
            throws UnknownUserException, InvalidRequestException;

    Reply<AuctionPosted> postAuction(RequestHeader header, String loginToken, AuctionDraft draft)
            throws InvalidAuctionInfoException, NotLoggedInException, InvalidRequestException;

    Reply<AuctionDetails> viewAuction(RequestHeader header, long auctionId)
            throws UnknownAuctionException, InvalidRequestException;

    Reply<BidReceipt> placeBid(RequestHeader header, String loginToken, long auctionId, long amountCents)
            throws NotLoggedInException, UnknownAuctionException, BidTooLowException, AuctionClosedException,
            InvalidRequestException;

    /**
     * Offers a bid in a race with other bidders: a bid that does not beat the highest is outbid, not refused, and the
     * reply says which (with the auction's leader, price and bid count after it), so a client's history holds the
     * order the service handled the race in. Executed at most once per {@code (clientId, seq)}, like {@link #placeBid}.
     */
    Reply<BidOutcome> offerBid(RequestHeader header, String loginToken, long auctionId, long amountCents)
            throws NotLoggedInException, UnknownAuctionException, AuctionClosedException, InvalidRequestException;

    Reply<BidHistory> bidHistory(RequestHeader header, long auctionId)
            throws UnknownAuctionException, InvalidRequestException;

    Reply<AuctionStatus> auctionStatus(RequestHeader header, long auctionId)
            throws UnknownAuctionException, InvalidRequestException;
}
