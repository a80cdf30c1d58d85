package org.ftlab.rm.fault;

import java.io.IOException;
import java.util.List;
import java.util.Locale;
import org.ftlab.rm.replica.ProcessTools;

/**
 * Faults made to processes on this host, each returning its {@link Undo}: SIGSTOP (a hang), the cgroup v1 freezer
 * (every process of a host frozen at once, as a stopped machine) and a cgroup v1 CPU quota (a process alive but
 * slow). A SIGKILL needs no undo and is sent by the caller.
 */
public final class ProcessFaults {
    /** The CFS period the quotas are a share of, µs; 1 s below 1% (the kernel's least quota is 1 ms). */
    static final long CPU_PERIOD_MICROS = 100_000;
    private static final long LONG_CPU_PERIOD_MICROS = 1_000_000;

    private ProcessFaults() {
    }

    /** SIGSTOP of {@code pid}; undone by SIGCONT. */
    public static Undo stop(long pid) throws IOException {
        ProcessTools.signal(pid, "STOP");
        return Undo.of("kill -CONT " + pid + " 2>/dev/null", () -> {
            try {
                ProcessTools.signal(pid, "CONT");
            } catch (IOException e) {
                // gone: nothing left to resume
            }
        });
    }

    /**
     * Freezes {@code pids} (and their threads and future children) in a new freezer group {@code group}; undone by
     * thawing and removing the group. Returns once the kernel reports the group FROZEN.
     */
    public static Undo freeze(String group, List<Long> pids) throws IOException {
        Cgroup g = Cgroup.create("freezer", group);
        try {
            for (long pid : pids) {
                g.add(pid);
            }
            g.write("freezer.state", "FROZEN");
            for (int i = 0; i < 200 && !g.read("freezer.state").equals("FROZEN"); i++) {
                Thread.sleep(1);
            }
        } catch (IOException | RuntimeException e) {
            thaw(g);
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            thaw(g);
            throw new IOException("interrupted while freezing", e);
        }
        return Undo.of("echo THAWED > '" + g.dir() + "/freezer.state' 2>/dev/null; " + g.removeScript(),
                () -> thaw(g));
    }

    private static void thaw(Cgroup g) throws IOException {
        try {
            g.write("freezer.state", "THAWED");
        } finally {
            g.remove();
        }
    }

    /**
     * Caps {@code pids} together to {@code percentOfCore} % of one CPU (cgroup v1 CFS quota; 0.1 to 100) in a new
     * cpu group {@code group}; undone by moving them back and removing the group.
     */
    public static Undo cpuQuota(String group, List<Long> pids, double percentOfCore) throws IOException {
        if (!(percentOfCore >= 0.1 && percentOfCore <= 100)) {
            throw new IllegalArgumentException("a CPU quota is 0.1% to 100% of a core, was " + percentOfCore);
        }
        long period = percentOfCore < 1 ? LONG_CPU_PERIOD_MICROS : CPU_PERIOD_MICROS;
        Cgroup g = Cgroup.create("cpu", group);
        try {
            g.write("cpu.cfs_period_us", Long.toString(period));
            g.write("cpu.cfs_quota_us", String.format(Locale.ROOT, "%d",
                    Math.max(1000, Math.round(period * percentOfCore / 100))));
            for (long pid : pids) {
                g.add(pid);
            }
        } catch (IOException | RuntimeException e) {
            g.remove();
            throw e;
        }
        return Undo.of(g.removeScript(), g::remove);
    }
}
