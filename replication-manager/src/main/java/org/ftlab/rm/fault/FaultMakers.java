package org.ftlab.rm.fault;

import java.io.IOException;
import java.util.List;
import org.ftlab.os.Undo;
import org.ftlab.rm.api.FaultKind;
import org.ftlab.rm.api.FaultSpec;

/**
 * How each kind of fault is made on the lab's processes, hosts and links, and the undo that ends it (docs/faults.md).
 * A new kind is its constant in {@link FaultKind} (its targets, amount, support and whether it fails a replica) and
 * its case here.
 */
public final class FaultMakers {
    private FaultMakers() {
    }

    /**
     * Puts in place what {@code spec}'s fault needs before it is made, so that making it is the fault alone: for a
     * {@code gc}, the attach to the replica's JVM (its first one starts the JVM's attach listener, a few hundred ms of
     * work that is not the collection).
     */
    public static void prepare(FaultSpec spec, FaultSite site) throws IOException {
        if (spec.kind() == org.ftlab.rm.api.FaultKind.GC) {
            ProcessFaults.attach(site.pid());
        }
    }

    /**
     * Makes {@code spec}'s fault at {@code site} and returns its undo. A crash is not made here: it is a SIGKILL under
     * the manager's lock (its detection may follow at once) and has no undo.
     */
    public static Undo make(FaultSpec spec, FaultSite site) throws IOException {
        return switch (spec.kind()) {
            case CRASH -> throw new IllegalArgumentException("a crash is made by the manager, under its lock");
            case HANG, DB_HANG -> ProcessFaults.stop(site.where(), site.pid());
            // a host freezes whole: on a virtual network every process in its namespace
            case FREEZE -> ProcessFaults.freeze(site.where(), site.cgroup(),
                    site.net() == null ? List.of(site.pid()) : site.net().pids(site.host()));
            case SLOW, DB_SLOW -> ProcessFaults.cpuQuota(site.where(), site.cgroup(), List.of(site.pid()),
                    spec.amount());
            case LINK_DOWN -> site.net().linkDown(site.host());
            case PARTITION -> site.net().partition(site.table(), List.of(site.host()), List.of(site.peer()));
            case FLAKY -> site.net().flaky(site.table(), site.host(), spec.amount());
            case BANDWIDTH -> site.net().bandwidth(site.host(), spec.amount());
            case GC -> ProcessFaults.forceGc(site.pid());
            case CPU_HOG -> ProcessFaults.cpuHog(site.where(), (int) spec.amount());
            case DB_LOCK -> DatabaseLock.holdAccounts(site.database());
        };
    }
}
