package org.ftlab.harness.it;

import static org.ftlab.harness.it.SharedLab.header;
import static org.ftlab.harness.it.SharedLab.service;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.ftlab.auction.api.AuctionDraft;
import org.ftlab.auction.api.MicroClock;
import org.ftlab.auction.api.Reply;
import org.ftlab.auction.api.ReplySize;
import org.ftlab.auction.api.ServerProbes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Reply sizes of the grid and the server-side probes carried in every reply. */
@ExtendWith(SharedLab.class)
class ReplyShapeAndProbesIT {
    private static LoggedInSeller seller;
    private static long auction;

    @BeforeAll
    static void anAuction() throws Exception {
        seller = LoggedInSeller.create();
        auction = seller.post("Sized replies", 100, 3600);
    }

    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(ints = {256, 512, 1024})
    void sizedReplyPayloadIsExactlyTheRequestedLength(int bytes) throws Exception {
        Reply<?> view = service().viewAuction(header("sized", ReplySize.ofBytes(bytes)), auction);
        assertEquals(bytes, view.payload().length);
        assertNull(view.value(), "a sized reply carries the payload instead of the natural value");

        Reply<?> post = service().postAuction(header(seller.clientId(), ReplySize.ofBytes(bytes)), seller.token(),
                new AuctionDraft("Sized post", "d", 100, 3600));
        assertEquals(bytes, post.payload().length);
    }

    @Test
    void originalReplyCarriesTheNaturalValueAndNoPayload() throws Exception {
        Reply<?> view = service().viewAuction(header("sized"), auction);
        assertNotNull(view.value());
        assertNull(view.payload());
    }

    @Test
    void probeTimestampsAreOrderedAndWithinTheClientsRoundTrip() throws Exception {
        for (int i = 0; i < 50; i++) {
            long sent = MicroClock.nowEpochMicros();
            Reply<?> reply = i % 2 == 0
                    ? service().viewAuction(header("probe"), auction)
                    : service().postAuction(header(seller.clientId()), seller.token(),
                            new AuctionDraft("Probed", "d", 100, 3600));
            long received = MicroClock.nowEpochMicros();
            ServerProbes p = reply.probes();
            // Client and replica run on this host and read the same wall clock.
            assertTrue(sent <= p.receivedMicros(), () -> "sent " + sent + " > " + p);
            assertTrue(p.receivedMicros() <= p.dbStartMicros(), p::toString);
            assertTrue(p.dbStartMicros() <= p.dbEndMicros(), p::toString);
            assertTrue(p.dbEndMicros() <= p.replySentMicros(), p::toString);
            assertTrue(p.replySentMicros() <= received, () -> p + " after client receive " + received);
        }
    }
}
