package org.ftlab.rm.observe;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.ftlab.os.FlightRecording;
import org.ftlab.os.access.DatabaseEndpoint;
import org.ftlab.os.host.HostSampler;
import org.ftlab.rm.api.EventDump;
import org.ftlab.rm.api.ObserveSwitch;
import org.ftlab.rm.db.LockWaitRecorder;
import org.ftlab.rm.replica.Replica;

/**
 * What the lab records about itself on this machine, apart from what it does: each recording JVM's flight recording
 * (the live replicas, the Fault Detector, the manager), the database's row-lock waits and the host's and the lab's
 * processes' CPU, page faults and resident set, sampled into the manager's own recording. Dumps what was recorded
 * since a time ({@link #dump}) and switches it all on and off ({@link #observe}).
 */
public final class Observation implements AutoCloseable {
    /** The lab's JVMs as the manager knows them now. */
    public interface Jvms {
        /** Every live JVM of the lab on this machine that records events, by name ({@code r1}, …, {@code fd}). */
        Map<String, Long> recording();

        /** The local replicas that recorded events, are gone, and whose recording was not yet collected. */
        Map<String, Replica> deadUncollected();

        /** Replica {@code name}'s recording was collected after its death (or could not be): not again. */
        void collected(String name);

        /** The database server's pid on this machine, if it has one. */
        Long databasePid();
    }

    private final Jvms jvms;
    private final Path settingsDir;
    private final DatabaseEndpoint database;
    private final Object lock = new Object();
    /** This JVM's own recording, or null: observation is off. */
    private volatile FlightRecording own;
    /** The database's row-lock waits, sampled into {@link #own}; null while observation is off. */
    private volatile LockWaitRecorder lockWaits;
    /** The host's and the lab's processes' CPU, page faults and resident set, sampled into {@link #own}. */
    private volatile HostSampler hostSampler;
    /** Whether observation is switched off for now in a lab that records events. */
    private volatile boolean paused;
    /** Whether the lab records events at all ({@code --observe on}). */
    private final boolean enabled;

    private Observation(Jvms jvms, Path settingsDir, DatabaseEndpoint database, boolean enabled) {
        this.jvms = jvms;
        this.settingsDir = settingsDir;
        this.database = database;
        this.enabled = enabled;
    }

    /**
     * The lab's observation, recording from now on if {@code enabled} (the recording JVMs were started recording
     * with the settings in {@code settingsDir}); otherwise it records nothing and says so when asked.
     */
    public static Observation start(Jvms jvms, Path settingsDir, DatabaseEndpoint database, boolean enabled)
            throws IOException {
        Observation o = new Observation(jvms, settingsDir, database, enabled);
        if (enabled) {
            o.startHere();
        }
        return o;
    }

    private void startHere() throws IOException {
        own = FlightRecording.startHere();
        lockWaits = LockWaitRecorder.start(database);
        hostSampler = HostSampler.start(this::sampledProcesses);
    }

    /**
     * Every JVM of the lab that records events writes what it recorded since the dump's time to
     * {@code <dir>/<process><suffix>.jfr}: each live replica on this machine ({@code r1}, …), the Fault Detector
     * ({@code fd}) and this manager ({@code rm}); a replica of this machine that died since the last dump, what it
     * had written to its repository (once). A replica that cannot (gone meanwhile, not recording, killed before it
     * wrote anything recorded since the dump's time) is named in the answer with why; the others are written all the
     * same. A dump takes a moment per JVM: never call it under the manager's lock.
     */
    public EventDump.Files dump(EventDump request) {
        Path dir = Path.of(request.dir());
        Map<String, Long> pids = jvms.recording();
        Map<String, String> written = new LinkedHashMap<>();
        Map<String, String> failed = new LinkedHashMap<>();
        FlightRecording here = own;
        if (here == null) {
            return new EventDump.Files(written, Map.of("rm", paused
                    ? "observation is switched off for now" : "this lab records no events (--observe off)"));
        }
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            return new EventDump.Files(written, Map.of("rm", "cannot create " + dir + ": " + e.getMessage()));
        }
        pids.forEach((name, pid) -> {
            Path file = dir.resolve(name + request.suffix() + ".jfr");
            try {
                FlightRecording.dump(pid, file, request.sinceEpochUs());
                written.put(name, file.toString());
            } catch (IOException | RuntimeException e) {
                failed.put(name, e.getMessage());
            }
        });
        // a replica killed since the last dump (a fence, a crash) can no longer be asked: what it had flushed is in
        // its repository, and is often what explains the requests it delayed (a pause that outlasted the detector)
        jvms.deadUncollected().forEach((name, replica) -> {
            Path file = dir.resolve(name + request.suffix() + ".jfr");
            try {
                if (FlightRecording.collect(replica.eventRepository(), file, request.sinceEpochUs())) {
                    written.put(name, file.toString());
                    failed.remove(name); // it died while being asked
                } else if (replica.exitedEpochUs().orElse(Long.MAX_VALUE) >= request.sinceEpochUs()) {
                    // a JVM writes what it recorded to disk about once a second: one killed that soon after the
                    // dump's time took what it recorded since with it (one that died before has nothing to give)
                    failed.put(name, "gone; it died before writing to disk anything it recorded since then");
                }
                jvms.collected(name);
            } catch (IOException | RuntimeException e) {
                failed.put(name, "gone; what it recorded could not be collected: " + e.getMessage());
            }
        });
        Path file = dir.resolve("rm" + request.suffix() + ".jfr");
        try {
            here.dump(file);
            written.put("rm", file.toString());
        } catch (IOException | RuntimeException e) {
            failed.put("rm", e.getMessage());
        }
        return new EventDump.Files(written, failed);
    }

    /**
     * Starts or stops observing: every recording JVM of the lab on this machine (each live replica, the Fault Detector,
     * this manager) starts or stops its recording, and this manager its samplers (the database's lock waits, the host
     * and the lab's processes). For measuring what observing costs in alternating blocks of one run; switching to the
     * state the lab is in does nothing. A JVM that cannot be switched is named in the answer with why; the others are
     * switched all the same.
     *
     * @throws IllegalArgumentException if this lab records no events ({@code --observe off})
     */
    public ObserveSwitch.Result observe(ObserveSwitch request) throws IOException {
        if (!enabled) {
            throw new IllegalArgumentException("this lab records no events (--observe off): start it with --observe on");
        }
        synchronized (lock) {
            boolean on = request.on();
            List<String> switched = new ArrayList<>();
            Map<String, String> failed = new LinkedHashMap<>();
            if (on == !paused) {
                return new ObserveSwitch.Result(on, switched, failed);
            }
            Path settings = FlightRecording.settingsFile(settingsDir);
            jvms.recording().forEach((name, pid) -> {
                try {
                    if (on) {
                        FlightRecording.start(pid, settings);
                    } else {
                        FlightRecording.stop(pid);
                    }
                    switched.add(name);
                } catch (IOException | RuntimeException e) {
                    failed.put(name, e.getMessage());
                }
            });
            if (on) {
                startHere();
            } else {
                stopHere();
            }
            switched.add("rm");
            paused = !on;
            return new ObserveSwitch.Result(on, switched, failed);
        }
    }

    /** The lab's processes on this host the {@link HostSampler} reads: the recording JVMs, the database, this one. */
    private Map<String, Long> sampledProcesses() {
        Map<String, Long> pids = new LinkedHashMap<>(jvms.recording());
        Long db = jvms.databasePid();
        if (db != null) {
            pids.put("db", db);
        }
        pids.put("rm", ProcessHandle.current().pid());
        return pids;
    }

    private void stopHere() {
        HostSampler sampler = hostSampler;
        if (sampler != null) {
            sampler.close();
        }
        LockWaitRecorder waits = lockWaits;
        if (waits != null) {
            waits.close();
        }
        FlightRecording recording = own;
        if (recording != null) {
            recording.close();
        }
        hostSampler = null;
        lockWaits = null;
        own = null;
    }

    @Override
    public void close() {
        synchronized (lock) {
            stopHere();
        }
    }
}
