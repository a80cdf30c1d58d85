package org.ftlab.rm.replica;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class OrphanGuardTest {

    @Test
    void childIsKilledWhenItsOwnerDiesByKillMinusNine() throws Exception {
        // An owner process that starts a long-lived child under a guard, then is killed with SIGKILL.
        Process child = new ProcessBuilder("sleep", "300").start();
        Process owner = new ProcessBuilder("sleep", "300").start();
        Process guard = new ProcessBuilder("sh", "-c", guardLoop(), "guard", Long.toString(owner.pid()),
                Long.toString(child.pid())).start();
        try {
            owner.destroyForcibly().waitFor();
            assertTrue(child.waitFor(5, TimeUnit.SECONDS), "the guard must kill the orphaned child");
            assertTrue(guard.waitFor(5, TimeUnit.SECONDS));
        } finally {
            child.destroyForcibly();
            guard.destroyForcibly();
        }
    }

    @Test
    void guardEndsQuietlyWhenTheChildEndsFirst() throws Exception {
        Process child = new ProcessBuilder("sleep", "300").start();
        OrphanGuard guard = OrphanGuard.watch(child.pid());
        child.destroyForcibly().waitFor();
        guard.close();
        assertFalse(child.isAlive());
    }

    /** The guard's own loop, read back from the class so the test runs the shipped script. */
    private static String guardLoop() throws Exception {
        java.lang.reflect.Field f = OrphanGuard.class.getDeclaredField("LOOP");
        f.setAccessible(true);
        return (String) f.get(null);
    }
}
