package org.ftlab.harness.grid;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.ftlab.harness.attribution.Attribution;
import org.ftlab.harness.lab.ManagedLab;
import org.ftlab.os.FlightRecording;
import org.ftlab.os.host.HostSampler;
import org.ftlab.rm.api.EventDump;
import org.ftlab.rm.api.Observe;

/**
 * A grid segment's recorded events (docs/probe-format.md, {@code events/}): this JVM records itself from
 * {@link #start}, and {@link #keep} writes its recording and has every recording JVM of the lab write its own into the
 * run directory, naming in the manifest and on the console each process whose file could not be written.
 */
public final class SegmentEvents implements AutoCloseable {
    private final FlightRecording own;
    /** This JVM's CPU, page faults and resident set, sampled into {@link #own} as the manager samples the lab's. */
    private final HostSampler self;

    private SegmentEvents(FlightRecording own, HostSampler self) {
        this.own = own;
        this.self = self;
    }

    /** Starts recording this JVM when {@code observe} is on; with it off, {@link #keep} does nothing. */
    public static SegmentEvents start(Observe observe) throws IOException {
        if (!observe.on()) {
            return new SegmentEvents(null, null);
        }
        return new SegmentEvents(FlightRecording.startHere(), sampleSelf());
    }

    /** Samples this JVM as {@code harness} (docs/probe-format.md, {@code ftlab.ProcessSample}). */
    public static HostSampler sampleSelf() {
        return HostSampler.processesOnly(Map.of(Attribution.HARNESS, ProcessHandle.current().pid()));
    }

    /**
     * Writes this segment's events into {@code dir}: this JVM's recording ({@code harness}), and every recording JVM
     * of {@code lab}'s since {@code sinceEpochUs}. Never throws: what could not be written is one line each.
     */
    public void keep(RunDirectory dir, ManagedLab lab, long sinceEpochUs, PrintWriter out) {
        if (own == null) {
            return;
        }
        Map<String, Path> files = new TreeMap<>();
        List<String> failed = new ArrayList<>();
        Path mine = dir.eventFile(Attribution.HARNESS);
        try {
            Files.createDirectories(mine.getParent());
            own.dump(mine);
            files.put(Attribution.HARNESS, mine);
        } catch (IOException | RuntimeException e) {
            failed.add(Attribution.HARNESS + ": " + e.getMessage());
        }
        try {
            EventDump.Files written = lab.manager().dumpEvents(mine.getParent(), dir.eventSuffix(), sinceEpochUs);
            written.written().forEach((process, file) -> files.put(process, Path.of(file)));
            failed.addAll(written.failures());
        } catch (IOException | RuntimeException e) {
            failed.add("the lab: " + e.getMessage());
        }
        failed.forEach(line -> out.println("events not recorded for " + line));
        out.flush();
        try {
            dir.recordEvents(files, failed);
        } catch (IOException e) {
            out.println("the manifest does not list the run's events: " + e.getMessage());
        }
    }

    @Override
    public void close() {
        if (self != null) {
            self.close();
        }
        if (own != null) {
            own.close();
        }
    }
}
