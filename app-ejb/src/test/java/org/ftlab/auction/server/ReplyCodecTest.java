package org.ftlab.auction.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.ftlab.auction.api.AuctionPosted;
import org.ftlab.auction.api.BidHistory;
import org.ftlab.auction.api.BidRecord;
import org.ftlab.auction.api.ReplySize;
import org.junit.jupiter.api.Test;

class ReplyCodecTest {

    @Test
    void storedRepliesReadBackEqual() {
        BidHistory history = new BidHistory(3, List.of(new BidRecord(1, "ann", 500, 1_700_000_000_000L)));
        assertEquals(history, ReplyCodec.deserialize(ReplyCodec.serialize(history)));
        AuctionPosted posted = new AuctionPosted(42, 1_700_000_000_000L);
        assertEquals(posted, ReplyCodec.deserialize(ReplyCodec.serialize(posted)));
    }

    @Test
    void sizedPayloadIsPaddedWithZerosOrTrimmedToExactlyTheRequestedBytes() {
        AuctionPosted posted = new AuctionPosted(42, 7);
        byte[] natural = posted.toString().getBytes(StandardCharsets.UTF_8);
        for (int size : new int[] {0, 1, natural.length, 256, 512, 1024}) {
            byte[] payload = ReplyCodec.sizedPayload(posted, ReplySize.ofBytes(size));
            assertEquals(size, payload.length);
            int shared = Math.min(size, natural.length);
            assertArrayEquals(Arrays.copyOf(natural, shared), Arrays.copyOf(payload, shared));
            for (int i = shared; i < size; i++) {
                assertEquals(0, payload[i]);
            }
        }
    }

    /** Not a reply type: a tampered request_log row must not make a replica instantiate it. */
    record Foreign(String x) implements Serializable {
    }

    @Test
    void storedBytesOfAForeignClassAreRefused() {
        byte[] bytes = ReplyCodec.serialize(new Foreign("x"));
        assertThrows(IllegalStateException.class, () -> ReplyCodec.deserialize(bytes));
    }
}
