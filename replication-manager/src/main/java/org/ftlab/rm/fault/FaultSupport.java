package org.ftlab.rm.fault;

import java.util.Optional;
import org.ftlab.rm.api.FaultKind;

/** Whether a fault kind can be made in a lab, and if not, one line that says why and what to do. */
public final class FaultSupport {
    private FaultSupport() {
    }

    /**
     * Why {@code kind} cannot be injected into a lab with an embedded database or not, on a virtual network or not;
     * empty if it can.
     */
    public static Optional<String> whyNot(FaultKind kind, boolean embeddedDatabase, boolean virtualNetwork) {
        return whyNot(kind, embeddedDatabase, virtualNetwork, false);
    }

    /**
     * As above; {@code otherMachines}: the replicas and the database run on other machines ({@code --hosts}), whose
     * cgroups are not this one's (a host without the controller refuses the fault when it is injected).
     */
    public static Optional<String> whyNot(FaultKind kind, boolean embeddedDatabase, boolean virtualNetwork,
            boolean otherMachines) {
        if (kind.needsNetwork() && otherMachines) {
            return Optional.of(kind.wireName() + " needs hosts on a virtual network (--topology netns); with --hosts, "
                    + "ftlab makes process and database faults only");
        }
        if (kind.needsNetwork() && !virtualNetwork) {
            return Optional.of(kind.wireName() + " needs hosts on a virtual network: run with --topology netns");
        }
        if (kind.layer() == FaultKind.Layer.DATABASE && !embeddedDatabase) {
            return Optional.of(kind.wireName() + " needs the embedded database: ftlab does not signal or throttle an "
                    + "external server");
        }
        if (otherMachines) {
            return Optional.empty();
        }
        Optional<String> cgroup = switch (kind) {
            case FREEZE -> Cgroup.unusable("freezer");
            case SLOW, DB_SLOW -> Cgroup.unusable("cpu");
            default -> Optional.empty();
        };
        return cgroup.map(why -> kind.wireName() + " needs a cgroup v1 controller: " + why);
    }
}
