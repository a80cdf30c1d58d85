package org.ftlab.rm;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.ftlab.rm.api.ReplicaState;
import org.ftlab.rm.detector.DetectorKeeper;
import org.ftlab.rm.observe.Observation;
import org.ftlab.rm.replica.Replica;

/**
 * The lab's JVMs on this machine, as the measurements see them: the ones that record events ({@link Observation}),
 * the dead ones whose recordings are still to be collected, and the replicas whose code cache {@link Hotness} reads.
 */
final class LabJvms implements Observation.Jvms {
    private final LabState s;
    private final LocalLab lab;
    private final DetectorKeeper detectors;

    LabJvms(LabState s, LocalLab lab, DetectorKeeper detectors) {
        this.s = s;
        this.lab = lab;
        this.detectors = detectors;
    }

    @Override
    public Map<String, Long> recording() {
        Map<String, Long> pids = new LinkedHashMap<>();
        synchronized (s.lock) {
            s.records.forEach((name, r) -> {
                Replica replica = r.replica;
                if (replica != null && replica.isAlive() && !replica.placement().isRemote()) {
                    pids.put(name, replica.pid());
                }
            });
        }
        pids.putAll(detectors.running());
        return pids;
    }

    @Override
    public Map<String, Replica> deadUncollected() {
        Map<String, Replica> dead = new LinkedHashMap<>();
        synchronized (s.lock) {
            s.records.forEach((name, r) -> {
                Replica replica = r.replica;
                if (replica != null && !replica.isAlive() && !replica.placement().isRemote()
                        && !r.deadEventsCollected) {
                    dead.put(name, replica);
                }
            });
        }
        return dead;
    }

    @Override
    public void collected(String name) {
        synchronized (s.lock) {
            s.records.get(name).deadEventsCollected = true;
        }
    }

    @Override
    public Long databasePid() {
        OptionalLong pid = lab.database().pid();
        return pid.isPresent() ? pid.getAsLong() : null;
    }

    /** The primary, and every live replica of this machine with its pid: whose code cache {@link Hotness} reads. */
    Hotness.Replicas hotnessTargets() {
        Map<String, Long> pids = new LinkedHashMap<>();
        Map<String, Path> repositories = new LinkedHashMap<>();
        synchronized (s.lock) {
            s.records.forEach((name, r) -> {
                Replica replica = r.replica;
                if (replica != null && replica.isAlive() && !replica.placement().isRemote()
                        && s.view.read(v -> v.state(name)) != ReplicaState.DEAD) {
                    pids.put(name, replica.pid());
                    if (s.view.read(v -> v.state(name)) != ReplicaState.STARTING && replica.recordsInlining()) {
                        repositories.put(name, replica.eventRepository()); // booted: its inlining is followed
                    }
                }
            });
            List<String> serving = s.view.read(ViewKeeper::servingNames);
            return new Hotness.Replicas(serving.isEmpty() ? null : serving.get(0), pids, repositories);
        }
    }
}
