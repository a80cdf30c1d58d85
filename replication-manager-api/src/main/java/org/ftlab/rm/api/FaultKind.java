package org.ftlab.rm.api;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * A kind of fault ftlab injects, one vocabulary for the manager's API, schedules, {@code faults.csv}, the analysis and
 * the report: what a kind is, with no I/O. A kind says which {@link FaultTarget targets} it takes, whether it lasts a
 * duration (after which it is repaired), what its amount means, where it acts, when a lab cannot make it, whether it
 * can make the manager fail a replica and, for a stall, the cause the attribution should name.
 *
 * <p>Each kind is one class, which also knows how it is made and undone (module {@code fault-kinds}, docs/faults.md),
 * registered for {@link java.util.ServiceLoader} in {@code META-INF/services/org.ftlab.rm.api.FaultKind}. That file's
 * order is {@link #all()}'s: the documented order, which a seeded random schedule draws from and {@link #names()}
 * reads in. There is one instance of each kind.
 */
public interface FaultKind {
    /**
     * What a kind acts on: a replica's process, the network, the database; or a stall (a short delay of known cause
     * at a known time and place, which fails nothing: the causes the analysis's attribution is proved on).
     */
    enum Layer {
        PROCESS, NETWORK, DATABASE, STALL,
        /** The lab's management: the Replication Managers and the Fault Detector. */
        MANAGEMENT
    }

    /** Where a kind acts, which says what the manager resolves its target to before the kind is made. */
    enum ActsOn {
        /** The target replica's server process: its pid, and where it runs. */
        REPLICA_PROCESS,
        /** The database server's process: its pid, and where it runs. */
        DATABASE_PROCESS,
        /** Processes of its own, started beside the target: on this machine, in the target's host (its namespace). */
        BESIDE_TARGET,
        /** A session of its own in the database. */
        DATABASE_SESSION,
        /** The target's host and links on the lab's virtual network. */
        NETWORK,
        /**
         * The Replication Manager that leads (it makes the fault on itself): its process, or its host's links to the
         * other managers.
         */
        MANAGER_PROCESS,
        /** The Fault Detector's process. */
        DETECTOR_PROCESS
    }

    /**
     * What a kind's support check is told of the lab.
     *
     * @param embeddedDatabase whether the lab runs the embedded database (else an external server)
     * @param virtualNetwork whether its hosts are on a virtual network ({@code --topology netns})
     * @param otherMachines whether the replicas and the database run on other machines ({@code --hosts})
     * @param replicatedDatabase whether the lab's database is several servers the manager fails over
     *     ({@code --database semisync}, …)
     * @param managers how many Replication Managers keep the lab ({@code --managers})
     */
    record LabFacts(boolean embeddedDatabase, boolean virtualNetwork, boolean otherMachines,
            boolean replicatedDatabase, int managers) {
        /** A lab of one manager. */
        public LabFacts(boolean embeddedDatabase, boolean virtualNetwork, boolean otherMachines,
                boolean replicatedDatabase) {
            this(embeddedDatabase, virtualNetwork, otherMachines, replicatedDatabase, 1);
        }

        /** A lab of one manager with one database server. */
        public LabFacts(boolean embeddedDatabase, boolean virtualNetwork, boolean otherMachines) {
            this(embeddedDatabase, virtualNetwork, otherMachines, false);
        }
    }

    /** Its name on the wire, in schedules and in {@code faults.csv}. */
    @JsonValue
    String wireName();

    Layer layer();

    ActsOn actsOn();

    /** The targets this kind accepts, in the order of {@link FaultTarget.Node}. */
    Set<FaultTarget.Node> targets();

    /** Whether its target is a pair of sides ({@code primary|clients}) rather than one node. */
    boolean takesTwoSides();

    /** The target of a fault of this kind that names none: its first target. */
    default FaultTarget defaultTarget() {
        return FaultTarget.of(targets().iterator().next());
    }

    /** Whether the fault lasts a duration and is then repaired by the lab (else it is over once made). */
    boolean lasts();

    /** What its amount means; {@link FaultAmount#NONE} if it takes none. */
    FaultAmount amount();

    /**
     * Whether a fault of this spec can make the manager fail a replica, with a Fault Detector that suspects after
     * {@code detectorTimeoutMillis}. How each kind is detected, for sizing a spare pool; what happens is measured.
     */
    boolean failsAReplica(FaultSpec spec, long detectorTimeoutMillis);

    /**
     * Why this kind cannot be injected into a lab with these facts, whose cgroups are not this one's (a host without
     * the controller refuses the fault when it is injected); one line that says why and what to do, or empty if it
     * can. {@code unusableController} says why a cgroup v1 controller of this machine cannot be used (empty: it can),
     * so that the contract itself reads no file.
     */
    Optional<String> whyNot(LabFacts lab, Function<String, Optional<String>> unusableController);

    /** The cause the attribution should name a fault of this kind by, or empty: it is not a stall of known cause. */
    Optional<StallCause> cause();

    /**
     * Whether the manager makes it itself: a SIGKILL of the target replica, sent under the manager's lock (its
     * detection may follow at once) and repaired by restoring the degree, with nothing for the lab to undo.
     */
    boolean madeByManager();

    /** The unit of its amount ({@code cpu_percent}, {@code drop_percent}, {@code kbit_per_s}), or null: no amount. */
    default String amountUnit() {
        return amount().unit();
    }

    default double defaultAmount() {
        return amount().defaultAmount();
    }

    /** Checks an amount of this kind; returns it, or the default for 0. */
    default double checkAmount(double amount) {
        return amount().check(wireName(), amount);
    }

    /** The amounts a random schedule draws this kind's amount from (empty: the kind takes no amount). */
    default List<Double> amountLevels() {
        return amount().levels();
    }

    /** Whether it needs hosts on a virtual network ({@code --topology netns}). */
    default boolean needsNetwork() {
        return layer() == Layer.NETWORK;
    }

    /**
     * Whether it is a gray failure (Huang et al., HotOS 2017): its target runs on and answers some of the time, or in
     * one direction. Gray kinds are drawn by the mix {@code gray} only, so the older mixes' seeds keep drawing what
     * they drew.
     */
    default boolean gray() {
        return false;
    }

    /** Every registered kind, in the registration's order. */
    static List<FaultKind> all() {
        return FaultKindRegistry.KINDS;
    }

    /** The kind with this wire name; a clear error naming every kind otherwise. */
    @JsonCreator
    static FaultKind parse(String name) {
        if (all().isEmpty()) {
            throw new IllegalArgumentException("unknown fault kind '" + name + "': no kind is registered (module "
                    + "fault-kinds is not on the class path)");
        }
        for (FaultKind k : all()) {
            if (k.wireName().equalsIgnoreCase(name.strip())) {
                return k;
            }
        }
        throw new IllegalArgumentException("unknown fault kind '" + name + "'; use one of " + names());
    }

    /** Every kind's wire name, in order, comma-separated. */
    static String names() {
        return all().stream().map(FaultKind::wireName).collect(Collectors.joining(", "));
    }
}
