package org.ftlab.harness.grid;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.ftlab.harness.lab.ManagedLab;
import org.ftlab.rm.api.EventDump;
import org.ftlab.rm.api.Observe;
import org.ftlab.rm.os.FlightRecording;

/**
 * A grid segment's recorded events (docs/probe-format.md, {@code events/}): this JVM records itself from
 * {@link #start}, and {@link #keep} writes its recording and has every recording JVM of the lab write its own into the
 * run directory, naming in the manifest and on the console each process whose file could not be written.
 */
public final class SegmentEvents implements AutoCloseable {
    private final FlightRecording own;

    private SegmentEvents(FlightRecording own) {
        this.own = own;
    }

    /** Starts recording this JVM when {@code observe} is on; with it off, {@link #keep} does nothing. */
    public static SegmentEvents start(Observe observe) throws IOException {
        return new SegmentEvents(observe.on() ? FlightRecording.startHere() : null);
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
        Path mine = dir.eventFile("harness");
        try {
            Files.createDirectories(mine.getParent());
            own.dump(mine);
            files.put("harness", mine);
        } catch (IOException | RuntimeException e) {
            failed.add("harness: " + e.getMessage());
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
        if (own != null) {
            own.close();
        }
    }
}
