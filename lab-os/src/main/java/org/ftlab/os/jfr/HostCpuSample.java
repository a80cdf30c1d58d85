package org.ftlab.os.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * What the host's CPUs did over one sampling interval (the event's start to its end), as the Replication Manager read
 * it from {@code /proc/stat} and {@code /proc/pressure/cpu} into its flight recording; {@code analyze} reads it back
 * by {@link #NAME}. CPU figures are in CPUs (2.0: both CPUs of a 2-CPU host, the whole interval), from the kernel's
 * clock ticks (10 ms each), so one interval's figure is coarse and sums over many are exact.
 */
@Name(HostCpuSample.NAME)
@Label("Host CPU")
@Category({"ftlab", "Host"})
@Description("The host's CPU use, steal and CPU pressure over one sampling interval")
@StackTrace(false)
public final class HostCpuSample extends Event {
    /** The event's name in recordings and in {@code ftlab.jfc}. */
    public static final String NAME = "ftlab.HostCpu";
    public static final String CPUS = "cpus";
    public static final String BUSY = "busyCpus";
    public static final String STEAL = "stealCpus";
    public static final String PRESSURE = "pressureMicros";

    /** The host's CPUs. */
    @Label("CPUs")
    public int cpus;

    /** CPUs busy on average (user, nice, system, interrupts), all processes of the host. */
    @Label("Busy CPUs")
    public double busyCpus;

    /** CPUs the hypervisor gave another guest while this one had work (steal). */
    @Label("Stolen CPUs")
    public double stealCpus;

    /**
     * How long at least one runnable task of the host waited for a CPU in the interval ({@code /proc/pressure/cpu},
     * "some"), µs; -1 where the kernel has no pressure stall information.
     */
    @Label("CPU Pressure")
    @Timespan(Timespan.MICROSECONDS)
    public long pressureMicros;
}
