package org.ftlab.auction.server;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PasswordHasherTest {

    @Test
    void theRightPasswordMatchesAndAWrongOneDoesNot() {
        String stored = PasswordHasher.hash("correct-horse");
        assertTrue(PasswordHasher.matches("correct-horse", stored));
        assertFalse(PasswordHasher.matches("correct-horsE", stored));
    }

    @Test
    void samePasswordHashesDifferentlyEachTimeBecauseOfTheSalt() {
        assertNotEquals(PasswordHasher.hash("pw-pw-pw-pw"), PasswordHasher.hash("pw-pw-pw-pw"));
    }

    @Test
    void malformedStoredHashNeverMatches() {
        assertFalse(PasswordHasher.matches("x", "plain-text"));
    }
}
