package org.ftlab.harness.failover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Shadow traffic on the test kit's replicas: where shadows go, what a slow or failed backup does to them. */
class ShadowTest {
    private static final Duration GIVE_UP = Duration.ofSeconds(5);

    private static FailoverClient client(SimulatedReplicas lab, double share) throws Exception {
        return lab.client(Strategies.named("reactive"), new ClientTuning(null, null, share), GIVE_UP);
    }

    @Test
    void everyAnsweredRequestsShadowGoesToEveryBackupAndNeverToThePrimary() throws Exception {
        SimulatedReplicas lab = SimulatedReplicas.of(3);
        FailoverClient c = client(lab, 1.0);
        int r1 = lab.calls("r1");
        int r2 = lab.calls("r2");
        int r3 = lab.calls("r3");
        for (int i = 0; i < 20; i++) {
            assertEquals("r1", c.invoke(SimulatedReplicas.PING).result(), "the primary answers the client");
            c.mirror(SimulatedReplicas.PING);
        }
        c.close(); // sends what is queued
        assertEquals(20, lab.calls("r1") - r1, "no shadow went to the primary");
        assertEquals(20, lab.calls("r2") - r2);
        assertEquals(20, lab.calls("r3") - r3);
        assertEquals(new Shadow.Counts(20, 40, 0, 0), c.shadowCounts());
    }

    @Test
    void withoutAShareNoShadowIsSentAndAnOperationWithoutAShadowIsSkipped() throws Exception {
        SimulatedReplicas lab = SimulatedReplicas.of(2);
        FailoverClient none = client(lab, 0);
        FailoverClient all = client(lab, 1.0);
        int r2 = lab.calls("r2");
        for (int i = 0; i < 10; i++) {
            none.mirror(SimulatedReplicas.PING);
            all.mirror(null);
        }
        // closing waits until the shadow sender has sent everything it was given: nothing can arrive later
        none.close();
        all.close();
        assertEquals(r2, lab.calls("r2"));
        assertEquals(new Shadow.Counts(0, 0, 0, 0), none.shadowCounts());
        assertEquals(new Shadow.Counts(0, 0, 0, 0), all.shadowCounts());
    }

    @Test
    void shadowsForASlowBackupAreDroppedNotQueuedWithoutBound() throws Exception {
        SimulatedReplicas lab = SimulatedReplicas.of(2);
        lab.slow("r2", Duration.ofMillis(200));
        FailoverClient c = client(lab, 1.0);
        for (int i = 0; i < 200; i++) {
            assertEquals("r1", c.invoke(SimulatedReplicas.PING).result());
            c.mirror(SimulatedReplicas.PING);
        }
        Shadow.Counts n = c.shadowCounts();
        c.close();
        assertEquals(200, n.offered() + n.dropped(), "each shadow is either queued or dropped: " + n);
        assertTrue(n.dropped() > 0, "the sender fell behind and dropped shadows: " + n);
        assertTrue(n.offered() - n.answered() - n.failed() <= Shadow.QUEUE + 1,
                "no more shadows wait than the queue holds (and the one being sent): " + n);
    }

    @Test
    void aCrashedBackupFailsItsShadowsAndTheClientIsServedAsBefore() throws Exception {
        SimulatedReplicas lab = SimulatedReplicas.of(3);
        lab.crash("r2");
        FailoverClient c = client(lab, 1.0);
        for (int i = 0; i < 5; i++) {
            assertEquals("r1", c.invoke(SimulatedReplicas.PING).result());
            c.mirror(SimulatedReplicas.PING);
        }
        c.close();
        Shadow.Counts n = c.shadowCounts();
        assertEquals(5, n.failed(), "r2's shadows failed: " + n);
        assertEquals(5, n.answered(), "r3 answered its shadows: " + n);
    }

    @Test
    void aShareOutsideZeroToOneIsRefusedWithTheOptionsName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new ClientTuning(null, null, 1.5));
        assertTrue(e.getMessage().startsWith("--shadow must be a share from 0 to 1"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new ClientTuning(null, null, Double.NaN));
    }
}
