package org.ftlab.faults;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.ftlab.os.Cgroup;
import org.ftlab.os.Jcmd;
import org.ftlab.os.Placement;
import org.ftlab.os.Undo;

/**
 * Faults made to processes, each returning its {@link Undo}: SIGSTOP (a hang), the cgroup v1 freezer (every process
 * of a host frozen at once, as a stopped machine), a cgroup v1 CPU quota (a process alive but slow), a forced
 * collection in a JVM, and busy loops that take CPUs from every other process. Mechanism only: which fault is made
 * with which is the kinds'. On this
 * machine they are made here; on another ({@link Placement#isRemote()}) by the same signals and cgroup writes run
 * there, and undone there (the janitor's script reaches it over ssh too). A SIGKILL needs no undo and is sent by the
 * caller.
 */
public final class ProcessFaults {
    /** The CFS period the quotas are a share of, µs; 1 s below 1% (the kernel's least quota is 1 ms). */
    static final long CPU_PERIOD_MICROS = 100_000;
    private static final long LONG_CPU_PERIOD_MICROS = 1_000_000;
    /** The most busy loops one fault starts. */
    public static final int MAX_BUSY_LOOPS = 64;

    private ProcessFaults() {
    }

    /** SIGSTOP of {@code pid} on host {@code where}; undone by SIGCONT. */
    public static Undo stop(Placement where, long pid) throws IOException {
        where.signal(pid, "STOP");
        return Undo.of(where.shellCommand("kill -CONT " + pid + " 2>/dev/null; true"), () -> {
            try {
                where.signal(pid, "CONT");
            } catch (IOException e) {
                // gone: nothing left to resume
            }
        });
    }

    /** As {@link #freeze(String, List)} on host {@code where}. */
    public static Undo freeze(Placement where, String group, List<Long> pids) throws IOException {
        if (!where.isRemote()) {
            return freeze(group, pids);
        }
        return remoteGroup(where, "freezer", group, pids, "echo FROZEN > \"$g/freezer.state\"; i=0; "
                + "while [ \"$(cat \"$g/freezer.state\")\" != FROZEN ] && [ $i -lt 200 ]; do sleep 0.01; "
                + "i=$((i+1)); done", "echo THAWED > \"$g/freezer.state\"; ", "");
    }

    /** As {@link #cpuQuota(String, List, double)} on host {@code where}. */
    public static Undo cpuQuota(Placement where, String group, List<Long> pids, double percentOfCore)
            throws IOException {
        if (!where.isRemote()) {
            return cpuQuota(group, pids, percentOfCore);
        }
        checkQuota(percentOfCore);
        long period = period(percentOfCore);
        return remoteGroup(where, "cpu", group, pids, "", "", "echo " + period + " > \"$g/cpu.cfs_period_us\"; echo "
                + quota(period, percentOfCore) + " > \"$g/cpu.cfs_quota_us\"; ");
    }

    /**
     * A new cgroup {@code group} of {@code controller} there, {@code setup} written before {@code pids} join it and
     * {@code after} run once they have; undone by {@code beforeRemove}, moving them back and removing the group.
     */
    private static Undo remoteGroup(Placement where, String controller, String group, List<Long> pids, String after,
            String beforeRemove, String setup) throws IOException {
        String mount = "d=$(awk '$3==\"cgroup\" && $4 ~ /(^|,)" + controller + "(,|$)/ {print $2; exit}' /proc/mounts);"
                + " g=\"$d/" + group + "\"; ";
        String undo = mount + "if [ -n \"$d\" ] && [ -d \"$g\" ]; then " + beforeRemove
                + Cgroup.removeScript("\"$d\"", "\"$g\"") + "; fi; true";
        StringBuilder join = new StringBuilder();
        for (long pid : pids) {
            join.append("echo ").append(pid).append(" > \"$g/cgroup.procs\" && ");
        }
        try {
            where.run(mount + "[ -n \"$d\" ] || { echo 'no cgroup v1 " + controller + " controller mounted' >&2; "
                    + "exit 3; }; mkdir \"$g\" && " + setup + join + "true && " + (after.isEmpty() ? "true" : after));
        } catch (IOException e) {
            try {
                where.run(undo);
            } catch (IOException ignored) {
                // the first failure is the one to report
            }
            throw e;
        }
        return Undo.of(where.shellCommand(undo), () -> where.run(undo));
    }

    /** Attaches to JVM {@code pid} (a harmless command), so that the next command's attach costs nothing. */
    public static void attach(long pid) throws IOException {
        Jcmd.run(pid, "VM.uptime");
    }

    /**
     * A full garbage collection in JVM {@code pid} of this machine (what {@code System.gc()} does there: with G1, a
     * stop-the-world full collection); returns when it is over, with nothing left to undo.
     */
    public static Undo forceGc(long pid) throws IOException {
        Jcmd.run(pid, "GC.run");
        return Undo.NOTHING;
    }

    /**
     * {@code processes} processes that burn CPU (a shell's busy loop each, in {@code where}'s namespace on this
     * machine), started now for the fault {@code who} (its errors name it); undone by SIGKILL. They compete with every
     * process on the machine's CPUs: with as many as there are cores, each thread that wants one waits about half the
     * time.
     */
    public static Undo busyLoops(String who, Placement where, int processes) throws IOException {
        if (where.isRemote()) {
            throw new IllegalArgumentException(who + " starts its processes on this machine only");
        }
        if (processes < 1 || processes > MAX_BUSY_LOOPS) {
            throw new IllegalArgumentException(who + " takes 1 to " + MAX_BUSY_LOOPS + " processes, was "
                    + processes);
        }
        List<Process> hogs = new ArrayList<>();
        try {
            for (int i = 0; i < processes; i++) {
                hogs.add(new ProcessBuilder(where.wrap(List.of("sh", "-c", "while :; do :; done")))
                        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start());
            }
        } catch (IOException | RuntimeException e) {
            hogs.forEach(ProcessFaults::kill);
            throw new IOException("could not start a CPU-burning process: " + e.getMessage(), e);
        }
        StringBuilder script = new StringBuilder("kill -KILL");
        hogs.forEach(p -> script.append(' ').append(p.pid()));
        return Undo.of(script.append(" 2>/dev/null; true").toString(), () -> hogs.forEach(ProcessFaults::kill));
    }

    private static void kill(Process p) {
        p.destroyForcibly();
        try {
            p.waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** SIGSTOP of {@code pid} on this machine; undone by SIGCONT. */
    public static Undo stop(long pid) throws IOException {
        return stop(Placement.LOCAL, pid);
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
        checkQuota(percentOfCore);
        long period = period(percentOfCore);
        Cgroup g = Cgroup.create("cpu", group);
        try {
            g.write("cpu.cfs_period_us", Long.toString(period));
            g.write("cpu.cfs_quota_us", String.format(Locale.ROOT, "%d", quota(period, percentOfCore)));
            for (long pid : pids) {
                g.add(pid);
            }
        } catch (IOException | RuntimeException e) {
            g.remove();
            throw e;
        }
        return Undo.of(g.removeScript(), g::remove);
    }

    private static void checkQuota(double percentOfCore) {
        if (!(percentOfCore >= 0.1 && percentOfCore <= 100)) {
            throw new IllegalArgumentException("a CPU quota is 0.1% to 100% of a core, was " + percentOfCore);
        }
    }

    private static long period(double percentOfCore) {
        return percentOfCore < 1 ? LONG_CPU_PERIOD_MICROS : CPU_PERIOD_MICROS;
    }

    /** The quota, µs per period; the kernel's least is 1 ms. */
    private static long quota(long periodMicros, double percentOfCore) {
        return Math.max(1000, Math.round(periodMicros * percentOfCore / 100));
    }
}
