package org.ftlab.rm;

import java.io.IOException;
import java.util.Optional;
import org.ftlab.faults.FaultSite;
import org.ftlab.os.Cgroup;
import org.ftlab.os.Placement;
import org.ftlab.os.Undo;
import org.ftlab.os.net.VirtualNetwork;
import org.ftlab.rm.api.FaultKind;
import org.ftlab.rm.api.FaultSpec;
import org.ftlab.rm.api.FaultTarget;
import org.ftlab.rm.api.InjectedFault;
import org.ftlab.rm.api.NetworkLayout;
import org.ftlab.rm.api.ReplicaState;
import org.ftlab.rm.db.ExternalDatabase;
import org.ftlab.rm.db.ReplicatedDatabase;
import org.ftlab.rm.detector.DetectorKeeper;
import org.ftlab.rm.fault.FaultsInEffect;

/**
 * Injects faults for experiments, as the leading manager: resolves a fault's target in the view now, records it,
 * makes it ({@link FaultsInEffect}: real signals, cgroup v1 controls, nftables and tc on this host, see
 * docs/faults.md) and holds it for its duration. Every one is undone when its duration is over, when the manager stops,
 * and (by the janitor) when the manager is killed.
 */
final class FaultInjector {
    private final LabState s;
    private final LocalLab lab;
    private final FaultsInEffect faults;
    private final DetectorKeeper detectors;

    FaultInjector(LabState s, LocalLab lab, FaultsInEffect faults, DetectorKeeper detectors) {
        this.s = s;
        this.lab = lab;
        this.faults = faults;
        this.detectors = detectors;
    }

    /**
     * Injects a fault into the replica, host or database its target names now, and schedules its repair after its
     * duration.
     *
     * @throws IllegalArgumentException if the fault cannot be made in this lab (says why)
     * @throws IllegalStateException if its target does not exist now (no backup to crash)
     */
    InjectedFault inject(FaultSpec spec) throws IOException {
        VirtualNetwork net = lab.network();
        Optional<String> unsupported = spec.kind().whyNot(new FaultKind.LabFacts(
                !(lab.database() instanceof ExternalDatabase), net != null, lab.hosts() != null,
                lab.database() instanceof ReplicatedDatabase, s.view.members().size()), Cgroup::unusable);
        if (unsupported.isPresent()) {
            throw new IllegalArgumentException(unsupported.get());
        }
        // The target is resolved under the lock; the fault is made outside it (ip, nft, tc and the freezer take
        // milliseconds, and views, reports and the detector must not wait for them), then recorded under it again.
        // A kill the manager makes itself is made under the lock: its detection can follow at once.
        FaultSite site;
        String replica;
        synchronized (s.lock) {
            if (s.stopped()) {
                throw new IllegalStateException("the lab is stopping");
            }
            FaultTarget target = spec.target();
            String host = host(target.node(), spec);
            String peer = target.peer() == null ? null : host(target.peer(), spec);
            // the replica the fault acts on: the target's, or the replica side of a pair
            replica = target.node().isReplica() ? host
                    : target.peer() != null && target.peer().isReplica() ? peer : null;
            ActedOn acted = actedOn(spec, replica);
            site = new FaultSite(s.decide(new ViewCommand.NextFaultId()), host, peer, acted.pid(), acted.where(), net,
                    lab.database().endpoint());
            if (spec.kind().madeByManager()) {
                s.records.get(replica).replica.kill();
                InjectedFault fault = new InjectedFault(site.faultId(), spec, replica, site.pid(),
                        LabState.epochMicros(), 0, InjectedFault.Repair.NONE);
                s.decide(new ViewCommand.Injected(fault));
                return fault;
            }
        }
        String faultId = site.faultId();
        Undo undo;
        long making;
        try {
            faults.prepare(spec, site);
            // recorded before it is made: a failure of its replica reported while it is being made is this fault's
            synchronized (s.lock) {
                making = LabState.epochMicros();
                s.decide(new ViewCommand.Injected(new InjectedFault(faultId, spec, replica, site.pid(), making, 0,
                        InjectedFault.Repair.NONE)));
            }
            undo = faults.make(spec, site);
        } catch (IOException | RuntimeException e) {
            synchronized (s.lock) {
                s.decide(new ViewCommand.Withdrawn(faultId));
            }
            throw e;
        }
        boolean onItself = spec.kind().actsOn() == FaultKind.ActsOn.MANAGER_PROCESS && spec.kind().lasts();
        if (onItself) {
            // a fault on this manager (rm-hang, rm-partition) may depose it before the group hears that it was made:
            // its end cannot wait for that record, and a deposed manager still ends it (the next leader records it)
            faults.holdFor(faultId, undo, spec.durationMillis(), () -> {
                synchronized (s.lock) {
                    if (!s.stopped()) {
                        s.decide(new ViewCommand.Repaired(faultId, LabState.epochMicros(),
                                InjectedFault.Repair.UNDONE));
                    }
                }
            });
        }
        // The fault exists from the moment it was made; one that is over once made (a forced collection) from the
        // moment its making began.
        long injected = spec.kind().lasts() ? LabState.epochMicros() : making;
        synchronized (s.lock) {
            InjectedFault fault = s.decide(new ViewCommand.Made(faultId, injected));
            boolean replicaGone = replica != null && spec.kind().actsOn() == FaultKind.ActsOn.REPLICA_PROCESS
                    && s.view.read(v -> v.state(replica)) == ReplicaState.DEAD;
            if (s.stopped() || replicaGone) {
                // the lab stopped, or the replica failed while the fault was being made: nothing to wait for
                s.decide(new ViewCommand.Repaired(faultId, LabState.epochMicros(), s.stopped()
                        ? InjectedFault.Repair.AT_SHUTDOWN : InjectedFault.Repair.FENCED));
                if (onItself) {
                    faults.endNow(faultId, true);
                } else {
                    faults.undo(faultId, undo);
                }
                return s.view.read(ViewKeeper::faults).stream().filter(f -> f.faultId().equals(faultId)).findFirst()
                        .orElseThrow();
            }
            if (spec.kind().actsOn() == FaultKind.ActsOn.DETECTOR_PROCESS) {
                return fault; // repaired when a new detector runs (ReplicationManager#detectorRestarted)
            }
            if (!onItself) {
                faults.holdFor(faultId, undo, spec.durationMillis(), () -> {
                    synchronized (s.lock) {
                        s.decide(new ViewCommand.Repaired(faultId, LabState.epochMicros(),
                                InjectedFault.Repair.UNDONE));
                    }
                });
            }
            return fault;
        }
    }

    /** The process a fault acts on (0: none) and where it runs, or where the processes it starts run. */
    private record ActedOn(long pid, Placement where) {
    }

    /** Under the lock: what {@code spec}'s fault acts on, as its kind says, its replica being {@code replica}. */
    private ActedOn actedOn(FaultSpec spec, String replica) {
        return switch (spec.kind().actsOn()) {
            case REPLICA_PROCESS -> new ActedOn(s.records.get(replica).replica.pid(),
                    s.records.get(replica).replica.placement());
            case DATABASE_PROCESS -> new ActedOn(lab.database().pid().orElseThrow(), lab.database().placement());
            // in the target's host's namespace (the CPUs are this machine's, shared by every host)
            case BESIDE_TARGET -> new ActedOn(0, spec.target().node() == FaultTarget.Node.DB
                    ? lab.database().placement() : s.records.get(replica).replica.placement());
            // the database's endpoint, or the virtual network's hosts: no process
            case DATABASE_SESSION, NETWORK -> new ActedOn(0, Placement.LOCAL);
            case MANAGER_PROCESS -> new ActedOn(ProcessHandle.current().pid(), Placement.LOCAL);
            // the detector that coordinates the heartbeat group now (the standbys watch on)
            case DETECTOR_PROCESS -> new ActedOn(detectors.coordinator().pid(), Placement.LOCAL);
        };
    }

    /**
     * Under the lock: the host a target role names now ({@code r3}, {@code db}, {@code clients}, {@code rm}).
     *
     * @throws IllegalStateException if the view has no such replica now
     */
    private String host(FaultTarget.Node node, FaultSpec spec) {
        return switch (node) {
            case PRIMARY, BACKUP -> {
                String name = s.view.read(v -> v.serving(node == FaultTarget.Node.PRIMARY ? 0 : 1));
                if (name == null) {
                    throw new IllegalStateException("no " + node.wireName() + " to " + spec.kind().wireName()
                            + " (view: " + s.view.read(ViewKeeper::servingNames) + ")");
                }
                yield name;
            }
            case DB -> NetworkLayout.DATABASE_HOST;
            case CLIENTS -> NetworkLayout.CLIENTS_HOST;
            case FD -> NetworkLayout.MANAGER_HOST;
            case LEADER -> s.view.member();
            // the other members, whose hosts are named as they are
            case MANAGERS -> String.join(",", s.view.members().stream().filter(m -> !m.equals(s.view.member()))
                    .toList());
        };
    }
}
