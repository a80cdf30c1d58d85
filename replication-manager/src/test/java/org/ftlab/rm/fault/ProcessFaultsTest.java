package org.ftlab.rm.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Real cgroup v1 controllers and signals on a busy child process. Needs root and the controllers mounted (as in CI);
 * skipped otherwise.
 */
class ProcessFaultsTest {
    private Process busy;

    @BeforeEach
    void startABusyProcess() throws Exception {
        busy = new ProcessBuilder("sh", "-c", "while :; do :; done").start();
    }

    @AfterEach
    void stopIt() throws Exception {
        busy.destroyForcibly().waitFor();
    }

    /** CPU time used by {@code pid} so far, clock ticks (utime + stime). */
    private static long cpuTicks(long pid) throws Exception {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }

    private static long ticksOver(long pid, long millis) throws Exception {
        long t0 = cpuTicks(pid);
        Thread.sleep(millis);
        return cpuTicks(pid) - t0;
    }

    @Test
    void aFrozenProcessGetsNoCpuUntilThawedAndItsGroupIsRemoved() throws Exception {
        assumeTrue(Cgroup.unusable("freezer").isEmpty(), "needs root and the cgroup v1 freezer");
        String group = "ftlab-test-" + ProcessHandle.current().pid() + "-freeze";
        Undo undo = ProcessFaults.freeze(group, List.of(busy.pid()));
        assertEquals(0, ticksOver(busy.pid(), 500), "frozen: no CPU at all");
        assertTrue(undo.script().contains("THAWED"), "the janitor's script thaws it too");
        undo.run();
        assertTrue(ticksOver(busy.pid(), 500) > 10, "thawed: it runs again");
        assertFalse(Files.exists(Cgroup.mountOf("freezer").orElseThrow().resolve(group)), "the group is gone");
    }

    @Test
    void aCpuQuotaSlowsAProcessThatStaysAliveAndIsLiftedByTheUndo() throws Exception {
        assumeTrue(Cgroup.unusable("cpu").isEmpty(), "needs root and the cgroup v1 cpu controller");
        String group = "ftlab-test-" + ProcessHandle.current().pid() + "-slow";
        Undo undo = ProcessFaults.cpuQuota(group, List.of(busy.pid()), 5);
        long slowed = ticksOver(busy.pid(), 1_000);
        assertTrue(busy.isAlive());
        assertTrue(slowed <= 15, "5% of a core is about 5 ticks a second, was " + slowed);
        undo.run();
        assertTrue(ticksOver(busy.pid(), 1_000) > 40, "the quota is lifted");
        assertFalse(Files.exists(Cgroup.mountOf("cpu").orElseThrow().resolve(group)), "the group is gone");
    }

    @Test
    void aStoppedProcessResumesOnTheUndo() throws Exception {
        Undo undo = ProcessFaults.stop(busy.pid());
        assertEquals(0, ticksOver(busy.pid(), 300), "stopped");
        undo.run();
        assertTrue(ticksOver(busy.pid(), 300) > 5, "resumed");
    }
}
