package org.ftlab.os.host;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.ftlab.os.SamplerThread;
import org.ftlab.os.jfr.HostCpuSample;
import org.ftlab.os.jfr.ProcessSample;

/**
 * Samples the host and the lab's processes into this JVM's flight recording (the manager's; a harness samples
 * itself with {@link #processesOnly}): every {@value #HOST_PERIOD_MILLIS} ms
 * the host's CPU use and steal ({@code /proc/stat}) and its CPU pressure ({@code /proc/pressure/cpu}) as a
 * {@link HostCpuSample}, and every {@value #PROCESS_PERIOD_MILLIS} ms each process of the lab's CPU time, page faults
 * and resident set ({@code /proc/<pid>/stat}) as a {@link ProcessSample}, each event spanning its interval. What the
 * figures explain is the analysis's rule; this only reads and records. Linux only: elsewhere (or where a file cannot
 * be read) the figure is left out, never guessed.
 */
public final class HostSampler implements AutoCloseable {
    /** How often the host is read, ms. */
    public static final int HOST_PERIOD_MILLIS = 10;
    /** How often the lab's processes are read, ms (a multiple of the host's period). */
    public static final int PROCESS_PERIOD_MILLIS = 50;
    /** The kernel's clock ticks per second in {@code /proc} (USER_HZ: 100 on every Linux ftlab runs on). */
    static final long TICKS_PER_SECOND = 100;
    /** Bytes per page in {@code /proc/<pid>/stat}'s resident set (4 KiB pages: x86-64, and arm64's default). */
    static final long PAGE_BYTES = 4096;
    private static final Path STAT = Path.of("/proc/stat");
    private static final Path PRESSURE = Path.of("/proc/pressure/cpu");

    /** The host's counters at one moment: busy and steal ticks, pressure µs (-1: none). */
    record HostCounters(long busyTicks, long stealTicks, long pressureMicros) {
    }

    /** A process's counters at one moment. */
    record ProcessCounters(long userTicks, long systemTicks, long minorFaults, long majorFaults, long residentPages) {
    }

    /** The {@code cpu} line of {@code /proc/stat}: busy (user, nice, system, irq, softirq) and steal ticks. */
    static HostCounters hostCounters(String stat, long pressureMicros) {
        int end = stat.indexOf('\n');
        String[] f = (end < 0 ? stat : stat.substring(0, end)).trim().split("\\s+");
        if (f.length < 9 || !f[0].equals("cpu")) {
            throw new IllegalArgumentException("not a /proc/stat cpu line: " + (end < 0 ? stat : stat.substring(0,
                    end)));
        }
        long busy = Long.parseLong(f[1]) + Long.parseLong(f[2]) + Long.parseLong(f[3]) + Long.parseLong(f[6])
                + Long.parseLong(f[7]);
        return new HostCounters(busy, Long.parseLong(f[8]), pressureMicros);
    }

    /** The CPUs of {@code /proc/stat}: its {@code cpuN} lines. */
    static int cpus(String stat) {
        int n = 0;
        for (String line : stat.split("\n")) {
            if (line.startsWith("cpu") && line.length() > 3 && Character.isDigit(line.charAt(3))) {
                n++;
            }
        }
        return n;
    }

    /** {@code total=} of the {@code some} line of {@code /proc/pressure/cpu}, µs. */
    static long somePressureMicros(String pressure) {
        for (String line : pressure.split("\n")) {
            if (line.startsWith("some ")) {
                int i = line.indexOf("total=");
                if (i >= 0) {
                    return Long.parseLong(line.substring(i + 6).trim());
                }
            }
        }
        throw new IllegalArgumentException("no 'some ... total=' line in " + pressure);
    }

    /**
     * A {@code /proc/<pid>/stat} line's counters (fields 10, 12, 14, 15, 24; counted after the command name, which
     * may hold spaces and parentheses).
     */
    static ProcessCounters processCounters(String stat) {
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
        return new ProcessCounters(Long.parseLong(f[11]), Long.parseLong(f[12]), Long.parseLong(f[7]),
                Long.parseLong(f[9]), Long.parseLong(f[21]));
    }

    private final Supplier<Map<String, Long>> processes;
    private final SamplerThread thread;

    private HostSampler(Supplier<Map<String, Long>> processes, boolean host) {
        this.processes = processes;
        this.thread = host ? SamplerThread.of("host-sampler", this::run)
                : SamplerThread.of("process-sampler", this::runProcessesOnly);
    }

    /**
     * Starts sampling the host and {@code processes} (the lab's processes on this host by name, asked again every
     * process period: replicas come and go).
     */
    public static HostSampler start(Supplier<Map<String, Long>> processes) {
        HostSampler s = new HostSampler(processes, true);
        s.thread.start();
        return s;
    }

    /** Starts sampling {@code processes} only, not the host (a JVM that samples itself beside a manager that does). */
    public static HostSampler processesOnly(Map<String, Long> processes) {
        Map<String, Long> fixed = Map.copyOf(processes);
        HostSampler s = new HostSampler(() -> new HashMap<>(fixed), false);
        s.thread.start();
        return s;
    }

    private void runProcessesOnly() {
        Map<String, Tracked> tracked = new HashMap<>();
        while (!thread.stopped()) {
            sampleProcesses(tracked);
            try {
                Thread.sleep(PROCESS_PERIOD_MILLIS);
            } catch (InterruptedException e) {
                break;
            }
        }
    }

    /** One process being sampled: its pid, last counters and the open event of the interval since. */
    private static final class Tracked {
        final long pid;
        ProcessCounters last;
        ProcessSample open;

        Tracked(long pid) {
            this.pid = pid;
        }
    }

    private void run() {
        int cpus;
        HostCounters last;
        try {
            String stat = Files.readString(STAT, StandardCharsets.US_ASCII);
            cpus = cpus(stat);
            last = hostCounters(stat, pressure());
        } catch (IOException | RuntimeException e) {
            System.err.println("replication-manager: the host's CPU is not sampled: " + e.getMessage());
            return;
        }
        HostCpuSample open = new HostCpuSample();
        open.begin();
        long lastNanos = System.nanoTime();
        Map<String, Tracked> tracked = new HashMap<>();
        int every = PROCESS_PERIOD_MILLIS / HOST_PERIOD_MILLIS;
        for (long k = 1; !thread.stopped(); k++) {
            try {
                Thread.sleep(HOST_PERIOD_MILLIS);
            } catch (InterruptedException e) {
                break;
            }
            try {
                HostCounters now = hostCounters(Files.readString(STAT, StandardCharsets.US_ASCII), pressure());
                long nowNanos = System.nanoTime();
                HostCpuSample next = new HostCpuSample();
                next.begin();
                double intervalTicks = (nowNanos - lastNanos) * TICKS_PER_SECOND / 1e9;
                open.cpus = cpus;
                open.busyCpus = (now.busyTicks() - last.busyTicks()) / intervalTicks;
                open.stealCpus = (now.stealTicks() - last.stealTicks()) / intervalTicks;
                open.pressureMicros = now.pressureMicros() < 0 || last.pressureMicros() < 0 ? -1
                        : now.pressureMicros() - last.pressureMicros();
                open.commit(); // ends now
                last = now;
                lastNanos = nowNanos;
                open = next;
            } catch (IOException | RuntimeException e) {
                // a read that failed once: its interval is folded into the next
            }
            if (k % every == 0) {
                sampleProcesses(tracked);
            }
        }
    }

    private void sampleProcesses(Map<String, Tracked> tracked) {
        Map<String, Long> now = processes.get();
        tracked.keySet().removeIf(name -> !now.containsKey(name) || tracked.get(name).pid != now.get(name));
        now.forEach((name, pid) -> {
            Tracked t = tracked.computeIfAbsent(name, n -> new Tracked(pid));
            ProcessCounters c;
            try {
                c = processCounters(Files.readString(Path.of("/proc", Long.toString(pid), "stat"),
                        StandardCharsets.US_ASCII));
            } catch (IOException | RuntimeException e) {
                tracked.remove(name); // gone meanwhile
                return;
            }
            ProcessSample next = new ProcessSample();
            next.begin();
            if (t.last != null) {
                ProcessSample e = t.open;
                e.end();
                e.process = name;
                e.pid = pid;
                e.userMicros = (c.userTicks() - t.last.userTicks()) * 1_000_000 / TICKS_PER_SECOND;
                e.systemMicros = (c.systemTicks() - t.last.systemTicks()) * 1_000_000 / TICKS_PER_SECOND;
                e.minorFaults = c.minorFaults() - t.last.minorFaults();
                e.majorFaults = c.majorFaults() - t.last.majorFaults();
                e.residentBytes = c.residentPages() * PAGE_BYTES;
                e.commit();
            }
            t.last = c;
            t.open = next;
        });
    }

    private static long pressure() {
        try {
            return somePressureMicros(Files.readString(PRESSURE, StandardCharsets.US_ASCII));
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    @Override
    public void close() {
        thread.close();
    }
}
