package org.ftlab.os.jfr;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * What one process of the lab did over one sampling interval (the event's start to its end), as the Replication
 * Manager read it from {@code /proc/<pid>/stat} into its flight recording — the system-level metrics seed 000
 * correlated with outliers (CPU in user and kernel mode, page faults, resident set) — for every process of the lab on
 * this host: each replica and spare, the database, the Fault Detector and the manager. {@code analyze} reads it back
 * by {@link #NAME}. CPU times come in the kernel's clock ticks (10 ms).
 */
@Name(ProcessSample.NAME)
@Label("Lab Process")
@Category({"ftlab", "Host"})
@Description("One process of the lab over one sampling interval: CPU time, page faults, resident set")
@StackTrace(false)
public final class ProcessSample extends Event {
    /** The event's name in recordings and in {@code ftlab.jfc}. */
    public static final String NAME = "ftlab.ProcessSample";
    public static final String PROCESS = "process";
    public static final String PID = "pid";
    public static final String USER = "userMicros";
    public static final String SYSTEM = "systemMicros";
    public static final String MINOR_FAULTS = "minorFaults";
    public static final String MAJOR_FAULTS = "majorFaults";
    public static final String RESIDENT = "residentBytes";

    /** The process's name in the lab ({@code r1}, {@code db}, {@code fd}, {@code rm}). */
    @Label("Process")
    public String process;

    @Label("PID")
    public long pid;

    /** CPU time in user mode in the interval, µs (all its threads). */
    @Label("User CPU")
    @Timespan(Timespan.MICROSECONDS)
    public long userMicros;

    /** CPU time in kernel mode in the interval, µs (all its threads). */
    @Label("Kernel CPU")
    @Timespan(Timespan.MICROSECONDS)
    public long systemMicros;

    /** Page faults served without reading the disk, in the interval. */
    @Label("Minor Page Faults")
    public long minorFaults;

    /** Page faults that read the disk, in the interval. */
    @Label("Major Page Faults")
    public long majorFaults;

    /** Its resident set at the interval's end. */
    @Label("Resident Set")
    @DataAmount
    public long residentBytes;
}
