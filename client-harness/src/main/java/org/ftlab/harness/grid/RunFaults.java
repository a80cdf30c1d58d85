package org.ftlab.harness.grid;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.ftlab.auction.api.MicroClock;
import org.ftlab.harness.probe.DatabaseFailoverRecord;
import org.ftlab.harness.probe.ManagerFailoverRecord;
import org.ftlab.harness.probe.ProbeTable;
import org.ftlab.rm.api.DatabaseFailover;
import org.ftlab.rm.api.DatabaseView;
import org.ftlab.rm.api.FailureRecord;
import org.ftlab.rm.api.FaultKind;
import org.ftlab.rm.api.FaultTarget;
import org.ftlab.rm.api.InjectedFault;
import org.ftlab.rm.api.ManagerGroup;
import org.ftlab.rm.api.ManagerStatus;

/**
 * The run's own faults and failures, those that began since it started (the lab may outlive several runs): joined to
 * the requests they overlapped, written to {@code faults.csv}, and, at the end, waited for until the lasting ones have
 * ended.
 */
final class RunFaults {
    private final GridLab lab;
    private final RunDirectory dir;
    private final RunControl control;
    /** When the run started: what began before is not its own. */
    private final long sinceEpochUs;

    RunFaults(GridLab lab, RunDirectory dir, RunControl control, long sinceEpochUs) {
        this.lab = lab;
        this.dir = dir;
        this.control = control;
        this.sinceEpochUs = sinceEpochUs;
    }

    /**
     * Marks requests that overlapped a replica failure, from its fault's injection (or its detection) until the new
     * primary served, and later ones that still went to the failed replica first (the client had not seen the new
     * view yet); and requests that overlapped an injected fault that failed no replica, from injection to repair.
     */
    void join(List<ProbeTable> tables, ManagerStatus status) {
        Set<String> failed = new HashSet<>();
        for (FailureRecord f : failures(status)) {
            failed.add(f.faultId());
            long from = f.startEpochUs();
            long to = Math.max(f.promotedEpochUs(), f.detectedEpochUs());
            for (ProbeTable t : tables) {
                t.markOverlapping(f.faultId(), from, to);
                t.markDivertedFrom(f.faultId(), f.replica(), from);
            }
        }
        Map<String, Long> databaseFailedOver = new HashMap<>();
        for (DatabaseFailoverRecord.Failover d : databaseFailovers(status)) {
            if (d.faultId() != null) {
                // a crashed writer's requests fail until the new writer commits
                long end = d.failover().firstCommitEpochUs() > 0 ? d.failover().firstCommitEpochUs()
                        : d.failover().promotedEpochUs();
                databaseFailedOver.merge(d.faultId(), end, Math::max);
            }
        }
        for (InjectedFault f : faults(status)) {
            if (!failed.contains(f.faultId())) {
                long to = f.active() ? MicroClock.nowEpochMicros() : f.repairedEpochUs();
                to = Math.max(to, databaseFailedOver.getOrDefault(f.faultId(), 0L));
                for (ProbeTable t : tables) {
                    t.markOverlapping(f.faultId(), f.injectedEpochUs(), to);
                }
            }
        }
    }

    /**
     * The replicated database's fail-overs that began during this run, each joined to the database fault injected last
     * before its detection (none for a failure nobody injected); empty on one server.
     */
    List<DatabaseFailoverRecord.Failover> databaseFailovers(ManagerStatus status) {
        DatabaseView view = status.databaseView();
        if (view == null || !view.tier().replicated()) {
            return List.of();
        }
        List<InjectedFault> databaseFaults = faults(status).stream()
                .filter(f -> f.spec().target().node() == FaultTarget.Node.DB).toList();
        List<DatabaseFailoverRecord.Failover> joined = new ArrayList<>();
        for (DatabaseFailover d : view.failovers()) {
            if (d.detectedEpochUs() < sinceEpochUs) {
                continue;
            }
            InjectedFault cause = null;
            for (InjectedFault f : databaseFaults) {
                if (f.injectedEpochUs() <= d.detectedEpochUs()
                        && (cause == null || f.injectedEpochUs() > cause.injectedEpochUs())) {
                    cause = f;
                }
            }
            joined.add(new DatabaseFailoverRecord.Failover(cause == null ? null : cause.faultId(),
                    cause == null ? 0 : cause.injectedEpochUs(), d));
        }
        return joined;
    }

    /**
     * The changes of leader during this run, each joined to the manager fault injected last before the new leader's
     * election (none for a leader nobody failed on purpose), with the replica failures detected between that fault (or
     * the new leader's election) and its acting, or detected before and handled only after: those nobody could handle
     * until it acted.
     */
    List<ManagerFailoverRecord.Failover> managerFailovers(ManagerStatus status) {
        List<ManagerGroup.Leadership> all = status.managers().leaderships();
        List<InjectedFault> managerFaults = faults(status).stream()
                .filter(f -> f.kind().actsOn() == FaultKind.ActsOn.MANAGER_PROCESS).toList();
        List<ManagerFailoverRecord.Failover> out = new ArrayList<>();
        for (int i = 1; i < all.size(); i++) {
            ManagerGroup.Leadership before = all.get(i - 1);
            ManagerGroup.Leadership l = all.get(i);
            if (l.sinceEpochUs() < sinceEpochUs) {
                continue;
            }
            InjectedFault cause = null;
            for (InjectedFault f : managerFaults) {
                if (f.injectedEpochUs() <= l.sinceEpochUs() && f.injectedEpochUs() >= before.sinceEpochUs()
                        && (cause == null || f.injectedEpochUs() > cause.injectedEpochUs())) {
                    cause = f;
                }
            }
            long from = cause != null ? cause.injectedEpochUs() : l.sinceEpochUs();
            long to = l.actingEpochUs() > 0 ? l.actingEpochUs() : Long.MAX_VALUE;
            // detected before the new leader acted, and not handled (promoted, or restored) before the fault
            List<String> handled = failures(status).stream()
                    .filter(f -> f.detectedEpochUs() <= to
                            && Math.max(f.promotedEpochUs(), f.restoredEpochUs()) >= from)
                    .map(FailureRecord::faultId).toList();
            out.add(new ManagerFailoverRecord.Failover(cause == null ? null : cause.faultId(),
                    cause == null ? null : cause.kind().wireName(), cause == null ? 0 : cause.injectedEpochUs(),
                    before.member(), before.term(), l.member(), l.term(), l.sinceEpochUs(), l.actingEpochUs(),
                    handled));
        }
        return out;
    }

    /** The lab's failures that began during this run. */
    List<FailureRecord> failures(ManagerStatus status) {
        return status.failures().stream().filter(f -> f.startEpochUs() >= sinceEpochUs).toList();
    }

    /** The faults injected during this run. */
    List<InjectedFault> faults(ManagerStatus status) {
        return status.faults().stream().filter(f -> f.injectedEpochUs() >= sinceEpochUs).toList();
    }

    /** This segment's {@code faults.csv}, as {@code status} has the run's faults and failures. */
    void write(ManagerStatus status) throws IOException {
        dir.writeFaults(faults(status), failures(status));
        DatabaseView view = status.databaseView();
        if (view != null && view.tier().replicated()) {
            new DatabaseFailoverRecord(view.tier(), databaseFailovers(status), view.nodes()).writeTo(dir.path());
        }
        ManagerGroup managers = status.managers();
        if (managers != null && managers.members().size() > 1) {
            new ManagerFailoverRecord(managers.members(), managerFailovers(status)).writeTo(dir.path());
        }
    }

    /**
     * Waits until every lasting fault of this run has ended (after its duration, or sooner by a fence), so that
     * {@code faults.csv} records how each ended: the last fault of a schedule may outlast the last block by up to its
     * duration. Not after an abort, whose lab is stopping and undoes them; a crash ends with its replacement, which a
     * record of the run does not wait for.
     */
    void awaitLastingEnded() throws IOException, InterruptedException {
        long deadlineUs = 0;
        for (InjectedFault f : faults(lab.status())) {
            if (f.spec().kind().lasts() && f.active()) {
                deadlineUs = Math.max(deadlineUs, f.injectedEpochUs() + 1000 * f.spec().durationMillis());
            }
        }
        deadlineUs += 10_000_000; // the manager's repair thread, and the fence's, take milliseconds: ample
        while (control.going() && MicroClock.nowEpochMicros() < deadlineUs && faults(lab.status()).stream()
                .anyMatch(f -> f.spec().kind().lasts() && f.active())) {
            Thread.sleep(50);
        }
    }
}
