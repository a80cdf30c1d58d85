package org.ftlab.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ftlab.os.Cgroup;
import org.ftlab.os.Placement;
import org.ftlab.os.Undo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Real cgroup v1 controllers, signals and busy loops on child processes, checked by what the kernel reports (a
 * process's group and state, the group's files and throttling counters), never by how fast it ran or by waiting to see
 * that it did not: a loaded machine changes rates, not these. The cgroup tests need root and the controllers mounted
 * (as in CI), and are skipped otherwise.
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

    private static String procFile(long pid, String name) throws Exception {
        return Files.readString(Path.of("/proc", Long.toString(pid), name));
    }

    /** The process's state letter from /proc/<pid>/stat (R, S, D, T, …). */
    private static char state(long pid) throws Exception {
        String stat = procFile(pid, "stat");
        return stat.charAt(stat.lastIndexOf(')') + 2);
    }

    /** CPU time used so far, clock ticks (utime + stime). */
    private static long cpuTicks(long pid) throws Exception {
        String stat = procFile(pid, "stat");
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }

    /** The group of {@code controller} the process is in, from /proc/<pid>/cgroup ("/" for the root group). */
    private static String group(long pid, String controller) throws Exception {
        for (String line : procFile(pid, "cgroup").split("\n")) {
            String[] f = line.split(":", 3);
            if (f.length == 3 && List.of(f[1].split(",")).contains(controller)) {
                return f[2];
            }
        }
        return "";
    }

    private static void await(BooleanSupplier condition, String what) throws Exception {
        for (int i = 0; i < 500 && !condition.getAsBoolean(); i++) {
            Thread.sleep(20);
        }
        assertTrue(condition.getAsBoolean(), what);
    }

    private static BooleanSupplier ticksAdvance(long pid) throws Exception {
        long t0 = cpuTicks(pid);
        return () -> {
            try {
                return cpuTicks(pid) > t0;
            } catch (Exception e) {
                return false;
            }
        };
    }

    @Test
    void aFrozenProcessGetsNoCpuUntilThawedAndItsGroupIsRemoved() throws Exception {
        assumeTrue(Cgroup.unusable("freezer").isEmpty(), "needs root and the cgroup v1 freezer");
        String group = "ftlab-test-" + ProcessHandle.current().pid() + "-freeze";
        Undo undo = ProcessFaults.freeze(group, List.of(busy.pid()));
        Path dir = Cgroup.mountOf("freezer").orElseThrow().resolve(group);
        assertEquals("FROZEN", Files.readString(dir.resolve("freezer.state")).strip());
        assertEquals("/" + group, group(busy.pid(), "freezer"));
        // a busy loop is always runnable (R); a frozen task waits in the kernel's refrigerator, uninterruptibly (D)
        await(() -> {
            try {
                return state(busy.pid()) == 'D';
            } catch (Exception e) {
                return false;
            }
        }, "frozen: parked by the kernel, not runnable");
        assertTrue(undo.script().contains("THAWED"), "the janitor's script thaws it too");
        undo.run();
        assertEquals("/", group(busy.pid(), "freezer"), "back in the root group");
        assertFalse(Files.exists(dir), "the group is gone");
        await(ticksAdvance(busy.pid()), "thawed: it runs again");
    }

    @Test
    void aCpuQuotaThrottlesAProcessThatStaysAliveAndIsLiftedByTheUndo() throws Exception {
        assumeTrue(Cgroup.unusable("cpu").isEmpty(), "needs root and the cgroup v1 cpu controller");
        String group = "ftlab-test-" + ProcessHandle.current().pid() + "-slow";
        Undo undo = ProcessFaults.cpuQuota(group, List.of(busy.pid()), 5);
        Path dir = Cgroup.mountOf("cpu").orElseThrow().resolve(group);
        assertEquals("5000", Files.readString(dir.resolve("cpu.cfs_quota_us")).strip(), "5% of a 100 ms period");
        assertEquals("/" + group, group(busy.pid(), "cpu"));
        await(() -> {
            try {
                return Files.readString(dir.resolve("cpu.stat")).lines()
                        .anyMatch(l -> l.startsWith("nr_throttled ") && !l.endsWith(" 0"));
            } catch (Exception e) {
                return false;
            }
        }, "the kernel throttled it");
        assertTrue(busy.isAlive(), "slow, not stopped");
        undo.run();
        assertEquals("/", group(busy.pid(), "cpu"), "back in the root group: the quota no longer applies");
        assertFalse(Files.exists(dir), "the group is gone");
    }

    @Test
    void busyLoopsRunUntilTheirUndoKillsThem() throws Exception {
        Undo undo = ProcessFaults.busyLoops("a test", Placement.LOCAL, 2);
        Matcher kill = Pattern.compile("^kill -KILL (\\d+) (\\d+) ").matcher(undo.script());
        assertTrue(kill.find(), "the janitor's script kills them by pid: " + undo.script());
        List<Long> pids = List.of(Long.parseLong(kill.group(1)), Long.parseLong(kill.group(2)));
        for (long pid : pids) {
            await(() -> {
                try {
                    return state(pid) == 'R';
                } catch (Exception e) {
                    return false;
                }
            }, "busy: always runnable");
        }
        undo.run();
        for (long pid : pids) {
            assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "killed and reaped");
        }
    }

    @Test
    void busyLoopsRefuseACountOutOfRangeInTheWordsOfTheFaultThatAsked() {
        assertEquals("cpu-hog takes 1 to 64 processes, was 65", assertThrows(IllegalArgumentException.class,
                () -> ProcessFaults.busyLoops("cpu-hog", Placement.LOCAL, 65)).getMessage());
        assertEquals("cpu-hog takes 1 to 64 processes, was 0", assertThrows(IllegalArgumentException.class,
                () -> ProcessFaults.busyLoops("cpu-hog", Placement.LOCAL, 0)).getMessage());
    }

    @Test
    void aStoppedProcessResumesOnTheUndo() throws Exception {
        Undo undo = ProcessFaults.stop(busy.pid());
        await(() -> {
            try {
                return state(busy.pid()) == 'T';
            } catch (Exception e) {
                return false;
            }
        }, "stopped");
        undo.run();
        await(() -> {
            try {
                return state(busy.pid()) != 'T';
            } catch (Exception e) {
                return false;
            }
        }, "resumed");
        await(ticksAdvance(busy.pid()), "it runs again");
    }
}
