package org.ftlab.auction.server.stateful;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.ftlab.auction.api.StatefulTierSettings;
import org.ftlab.stateful.TierSettings;
import org.junit.jupiter.api.Test;

/** The stateful tier's settings as the doors carry them, and as the tier runs with them. */
class StatefulTierSettingsTest {
    private static TierSettings asTheTierRunsThem(StatefulTierSettings s) {
        return TierSettings.parse(s.determinism(), s.silence(), s.estimator(), s.checkpointEvery(), s.gateways(),
                s.workSpread());
    }

    @Test
    void theDoorsDefaultsAreTheTiersDefaults() {
        assertEquals(TierSettings.DEFAULTS, asTheTierRunsThem(StatefulTierSettings.DEFAULTS));
    }

    @Test
    void everySettingSurvivesTheDoorAndBack() {
        StatefulTierSettings off = new StatefulTierSettings("off", "lazy", "constant", 100, 3, 0);
        TierSettings t = asTheTierRunsThem(off);
        assertEquals(off, new StatefulTierSettings(t.determinism(), t.silence().wireName(), t.estimator().wireName(),
                t.checkpointEvery(), t.gateways(), t.workSpread()));
    }

    @Test
    void aWordTheTierDoesNotKnowIsRefusedInOneLine() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> asTheTierRunsThem(
                new StatefulTierSettings("maybe", "lazy", "constant", 100, 2, 0)));
        assertEquals("--determinism must be on or off, was 'maybe'", e.getMessage());
    }
}
