package org.ftlab.harness.bench.calibration;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;

/** The CPU this JVM has used, all its threads: what a client running in it takes from the cores the lab shares. */
final class JvmCpu {
    private static final OperatingSystemMXBean OS = ManagementFactory.getPlatformMXBean(OperatingSystemMXBean.class);

    private JvmCpu() {
    }

    /** This JVM's CPU time so far, ns; -1 where the platform does not say. */
    static long nanos() {
        return OS == null ? -1 : OS.getProcessCpuTime();
    }
}
