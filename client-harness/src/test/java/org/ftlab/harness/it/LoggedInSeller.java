package org.ftlab.harness.it;

import org.ftlab.auction.api.AuctionDraft;
import org.ftlab.auction.api.AuctionService;

/** An account created and logged in through the service, for tests that need one. */
record LoggedInSeller(String clientId, String username, long accountId, String token) {
    static final String PASSWORD = "correct-horse";

    static LoggedInSeller create() throws Exception {
        AuctionService s = SharedLab.service();
        String clientId = SharedLab.unique("client-");
        String username = SharedLab.unique("user");
        long id = s.createAccount(SharedLab.header(clientId), username, PASSWORD).value().accountId();
        String token = s.login(SharedLab.header(clientId), username, PASSWORD).value().token();
        return new LoggedInSeller(clientId, username, id, token);
    }

    long post(String title, long startingPriceCents, long durationSeconds) throws Exception {
        return SharedLab.service().postAuction(SharedLab.header(clientId), token,
                new AuctionDraft(title, "described by a test", startingPriceCents, durationSeconds))
                .value().auctionId();
    }
}
