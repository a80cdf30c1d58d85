package org.ftlab.auction.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ReplySizeTest {

    @Test
    void parsesTheGridsReplySizes() {
        assertSame(ReplySize.ORIGINAL, ReplySize.parse("original"));
        assertSame(ReplySize.ORIGINAL, ReplySize.parse("orig"));
        assertEquals(ReplySize.ofBytes(256), ReplySize.parse("256"));
        assertEquals(1024, ReplySize.parse(" 1024 ").bytes());
    }

    @Test
    void rejectsWhatIsNotASize() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ReplySize.parse("big")).getMessage()
                .contains("'original' or a byte count"));
        assertThrows(IllegalArgumentException.class, () -> ReplySize.ofBytes(-1));
        assertThrows(IllegalArgumentException.class, () -> ReplySize.ofBytes(ReplySize.MAX_BYTES + 1));
    }
}
