package org.ftlab.rm.db;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Positions as MariaDB states them, ordered by domain 0's sequence number. */
class GtidsTest {
    @Test
    void aPositionIsOrderedByItsDomainZeroSequenceNumberWhateverServerWroteIt() {
        assertEquals(136, Gtids.sequence("0-1-136"));
        assertEquals(137, Gtids.sequence("0-2-137"));
        assertEquals(42, Gtids.sequence("1-5-900,0-3-42"));
        assertEquals(0, Gtids.sequence(""));
        assertEquals(0, Gtids.sequence(null));
        assertEquals(0, Gtids.sequence("1-5-900"), "no transaction in domain 0");
        assertEquals(0, Gtids.sequence("0-1-x"));
    }

    @Test
    void aGaleraPositionIsItsSequenceNumber() {
        assertEquals(900, Gtids.sequence("900"));
        assertEquals(0, Gtids.sequence("-1"), "an unknown Galera position reads as no transaction");
    }
}
