package org.ftlab.faults;

import java.util.Optional;
import java.util.function.Function;
import org.ftlab.rm.api.FaultKind.LabFacts;

/** The support checks several kinds share: what each needs of the lab, and the one line that says what to do. */
final class Support {
    private Support() {
    }

    /** Kind {@code kind} needs the lab's hosts on a virtual network of this machine. */
    static Optional<String> virtualNetwork(String kind, LabFacts lab) {
        if (lab.otherMachines()) {
            return Optional.of(kind + " needs hosts on a virtual network (--topology netns); with --hosts, "
                    + "ftlab makes process and database faults only");
        }
        if (!lab.virtualNetwork()) {
            return Optional.of(kind + " needs hosts on a virtual network: run with --topology netns");
        }
        return Optional.empty();
    }

    /** Kind {@code kind} fails the manager that leads: another must take over. */
    static Optional<String> severalManagers(String kind, LabFacts lab) {
        if (lab.managers() < 3) {
            return Optional.of(kind + " needs a lab of several managers, one of which takes over: run with "
                    + "--managers 3");
        }
        return Optional.empty();
    }

    /** Kind {@code kind} signals or throttles the database server, which it can only do to the embedded one. */
    static Optional<String> embeddedDatabase(String kind, LabFacts lab) {
        if (!lab.embeddedDatabase()) {
            return Optional.of(kind + " needs the embedded database: ftlab does not signal or throttle an "
                    + "external server");
        }
        return Optional.empty();
    }

    /**
     * Kind {@code kind} needs cgroup v1 {@code controller}: checked here on this machine; on other machines
     * ({@code --hosts}) the host refuses the fault when it is injected.
     */
    static Optional<String> cgroupController(String kind, LabFacts lab, String controller,
            Function<String, Optional<String>> unusableController) {
        if (lab.otherMachines()) {
            return Optional.empty();
        }
        return unusableController.apply(controller).map(why -> kind + " needs a cgroup v1 controller: " + why);
    }
}
