package org.ftlab.os;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
        Process guard = OrphanGuard.watch(owner.pid(), child.pid()).process();
        try {
            owner.destroyForcibly().waitFor();
            // nothing else ends a 300 s sleep: the child ends by the guard's SIGKILL, and the guard then exits
            assertEquals(128 + 9, child.waitFor(), "the guard must kill the orphaned child with SIGKILL");
            assertEquals(0, guard.waitFor(), "the guard ends once it has killed the child");
        } finally {
            child.destroyForcibly();
            guard.destroyForcibly();
        }
    }

    @Test
    void guardEndsByItselfAndLeavesTheOwnerAloneWhenTheChildEndsFirst() throws Exception {
        // The guard, with an owner that stays alive: when the child ends, the guard must exit 0 on its own,
        // without a signal from anyone and without touching the owner.
        Process child = new ProcessBuilder("sleep", "300").start();
        Process owner = new ProcessBuilder("sleep", "300").start();
        Process guard = OrphanGuard.watch(owner.pid(), child.pid()).process();
        try {
            assertTrue(guard.isAlive(), "the guard watches while both live");
            child.destroyForcibly().waitFor();
            assertEquals(0, guard.waitFor(), "the guard must end by itself once its child is gone");
            assertTrue(owner.isAlive(), "the guard must not touch the owner");
        } finally {
            owner.destroyForcibly();
            child.destroyForcibly();
            guard.destroyForcibly();
        }
    }

    @Test
    void watchingStopsByItselfWhenTheChildEndsFirst() throws Exception {
        Process child = new ProcessBuilder("sleep", "300").start();
        OrphanGuard guard = OrphanGuard.watch(child.pid());
        try {
            assertTrue(guard.watching());
            child.destroyForcibly().waitFor();
            guard.process().waitFor(); // the guard's loop ends once its child is gone, without close()
            assertFalse(guard.watching(), "the guard's loop ends once its child is gone, without close()");
            assertTrue(ProcessHandle.current().isAlive());
        } finally {
            guard.close();
        }
    }
}
