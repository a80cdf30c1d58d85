package org.ftlab.harness.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A gray failure for tests: every thread of a process moved into a cgroup-v1 cpu group with a CFS quota, so it keeps
 * running (its state stays R or S) but slowly. {@link #close()} moves it back to the root group and removes the group.
 */
final class CpuThrottle implements AutoCloseable {
    private static final Path CPU = Path.of("/sys/fs/cgroup/cpu");
    private final Path group;
    private final long pid;

    private CpuThrottle(Path group, long pid) {
        this.group = group;
        this.pid = pid;
    }

    /** Throttles {@code pid} to {@code quotaMicros} of CPU per {@code periodMicros}. */
    static CpuThrottle of(long pid, long quotaMicros, long periodMicros) throws IOException {
        Path group = CPU.resolve("ftlab-it-" + pid);
        Files.createDirectories(group);
        Files.writeString(group.resolve("cpu.cfs_period_us"), Long.toString(periodMicros));
        Files.writeString(group.resolve("cpu.cfs_quota_us"), Long.toString(quotaMicros));
        CpuThrottle t = new CpuThrottle(group, pid);
        try {
            Files.writeString(group.resolve("cgroup.procs"), Long.toString(pid)); // all its threads move
        } catch (IOException e) {
            t.close();
            throw e;
        }
        return t;
    }

    @Override
    public void close() throws IOException {
        try {
            if (ProcessHandle.of(pid).isPresent()) {
                Files.writeString(CPU.resolve("cgroup.procs"), Long.toString(pid));
            }
        } finally {
            Files.deleteIfExists(group);
        }
    }
}
