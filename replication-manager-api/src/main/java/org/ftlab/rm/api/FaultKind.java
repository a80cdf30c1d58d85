package org.ftlab.rm.api;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.ftlab.os.Cgroup;

/**
 * The faults ftlab injects, one vocabulary for the manager's API, schedules, {@code faults.csv}, the analysis and the
 * report. Each kind says which {@link FaultTarget targets} it takes, whether it lasts a duration (after which it is
 * repaired) and what its amount means. How each is made: docs/faults.md.
 */
public enum FaultKind {
    /** SIGKILL of a replica's server process. Repaired by the manager (a spare or a relaunch), not by the lab. */
    CRASH("crash", Layer.PROCESS, false, null, 0, 0, 0),
    /** SIGSTOP of a replica's server process; SIGCONT after the duration, unless the manager fenced it first. */
    HANG("hang", Layer.PROCESS, true, null, 0, 0, 0),
    /** Every process of a replica's host frozen (cgroup freezer); thawed after the duration, or fenced. */
    FREEZE("freeze", Layer.PROCESS, true, null, 0, 0, 0),
    /** A replica alive and heartbeating but slow: its CPU capped (cgroup cpu quota) to the amount, % of one core. */
    SLOW("slow", Layer.PROCESS, true, "cpu_percent", 10, 1, 100, 5, 10, 20, 30),
    /** A host's network link down for the duration. */
    LINK_DOWN("link-down", Layer.NETWORK, true, null, 0, 0, 0),
    /** Packets between two named sides dropped (both ways) for the duration. */
    PARTITION("partition", Layer.NETWORK, true, null, 0, 0, 0),
    /** A host's packets dropped at random, the amount in % of packets, both ways. */
    FLAKY("flaky", Layer.NETWORK, true, "drop_percent", 20, 1, 100, 5, 10, 20, 40),
    /** A host's outgoing bandwidth limited (token bucket) to the amount, kbit/s. */
    BANDWIDTH("bandwidth", Layer.NETWORK, true, "kbit_per_s", 1000, 8, 10_000_000, 256, 1000, 5000),
    /** SIGSTOP of the database server for the duration, then SIGCONT. */
    DB_HANG("db-hang", Layer.DATABASE, true, null, 0, 0, 0),
    /** The database server's CPU capped (cgroup cpu quota) to the amount, % of one core. */
    DB_SLOW("db-slow", Layer.DATABASE, true, "cpu_percent", 10, 1, 100, 5, 10, 20, 30),
    /**
     * A stall with a known cause: a full garbage collection forced in a replica's JVM ({@code GC.run} through the
     * attach mechanism). Over when the collection is; the attribution must name it ({@code gc-pause}).
     */
    GC("gc", Layer.STALL, false, null, 0, 0, 0),
    /**
     * A stall with a known cause: processes that burn CPU (busy loops, the amount: how many, default one per core)
     * started beside a replica or the database for the duration, then killed. The threads of requests wait for a CPU;
     * the attribution must name it ({@code cpu-runqueue}).
     */
    CPU_HOG("cpu-hog", Layer.STALL, true, "processes", 2, 1, 64, 1, 2, 4),
    /**
     * A stall with a known cause: another database session holds the rows every post and bid needs (the accounts,
     * {@code SELECT … FOR UPDATE}: their foreign-key checks wait) for the duration, then rolls back. The attribution
     * must name it ({@code db-lock-wait}).
     */
    DB_LOCK("db-lock", Layer.STALL, true, null, 0, 0, 0);

    /**
     * What a kind acts on: a replica's process, the network, the database; or a stall (a short delay of known cause
     * at a known time and place, which fails nothing: the causes the analysis's attribution is proved on).
     */
    public enum Layer {
        PROCESS, NETWORK, DATABASE, STALL
    }

    private final String wireName;
    private final Layer layer;
    private final boolean lasts;
    private final String amountUnit;
    private final double defaultAmount;
    private final double minAmount;
    private final double maxAmount;
    private final double[] amountLevels;

    /** {@code amountLevels}: the amounts a random schedule draws from (none for a kind without an amount). */
    FaultKind(String wireName, Layer layer, boolean lasts, String amountUnit, double defaultAmount, double minAmount,
            double maxAmount, double... amountLevels) {
        this.wireName = wireName;
        this.layer = layer;
        this.lasts = lasts;
        this.amountUnit = amountUnit;
        this.defaultAmount = defaultAmount;
        this.minAmount = minAmount;
        this.maxAmount = maxAmount;
        this.amountLevels = amountLevels;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }

    public Layer layer() {
        return layer;
    }

    /** Whether the fault lasts a duration and is then repaired by the lab (all but a crash and a gc). */
    public boolean lasts() {
        return lasts;
    }

    /** Whether it acts on one replica's JVM (a process fault or a stall of a replica). */
    public boolean actsOnReplicaProcess() {
        return layer == Layer.PROCESS || this == GC;
    }

    /** Whether it acts on the database server (a database fault, or a lock held in it). */
    public boolean actsOnDatabase() {
        return layer == Layer.DATABASE || this == DB_LOCK;
    }

    /** Whether it needs hosts on a virtual network ({@code --topology netns}). */
    public boolean needsNetwork() {
        return layer == Layer.NETWORK;
    }

    /** The unit of its amount ({@code cpu_percent}, {@code drop_percent}, {@code kbit_per_s}), or null: no amount. */
    public String amountUnit() {
        return amountUnit;
    }

    public double defaultAmount() {
        return defaultAmount;
    }

    /** Checks an amount of this kind; returns it, or the default for 0. */
    public double checkAmount(double amount) {
        if (amountUnit == null) {
            if (amount != 0) {
                throw new IllegalArgumentException(wireName + " takes no amount, was " + amount);
            }
            return 0;
        }
        if (amount == 0) {
            return defaultAmount;
        }
        if (!(amount >= minAmount && amount <= maxAmount)) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "%s amount must be %s to %s %s, was %s",
                    wireName, fmt(minAmount), fmt(maxAmount), amountUnit, fmt(amount)));
        }
        return amount;
    }

    /** The amounts a random schedule draws this kind's amount from (empty: the kind takes no amount). */
    public List<Double> amountLevels() {
        return Arrays.stream(amountLevels).boxed().toList();
    }

    /**
     * Whether a fault of this spec can make the manager fail a replica, with a Fault Detector that suspects after
     * {@code detectorTimeoutMillis}: a crash; a hang, freeze or link-down of a replica (or a partition between the
     * detector and one) that outlasts the timeout. How each kind is detected, for sizing a spare pool; what happens
     * is measured.
     */
    public boolean failsAReplica(FaultSpec spec, long detectorTimeoutMillis) {
        boolean outlastsTimeout = spec.durationMillis() > detectorTimeoutMillis;
        boolean replicaHost = spec.target().node().isReplica();
        return switch (this) {
            case CRASH -> true;
            case HANG, FREEZE, LINK_DOWN -> outlastsTimeout && replicaHost;
            case PARTITION -> outlastsTimeout && spec.target().touches(FaultTarget.Node.FD)
                    && (replicaHost || spec.target().peer().isReplica());
            case SLOW, FLAKY, BANDWIDTH, DB_HANG, DB_SLOW, GC, CPU_HOG, DB_LOCK -> false;
        };
    }

    /** The targets this kind accepts. */
    public Set<FaultTarget.Node> targets() {
        return switch (this) {
            case CRASH, HANG, FREEZE, SLOW, GC -> EnumSet.of(FaultTarget.Node.PRIMARY, FaultTarget.Node.BACKUP);
            case DB_HANG, DB_SLOW, DB_LOCK -> EnumSet.of(FaultTarget.Node.DB);
            case CPU_HOG -> EnumSet.of(FaultTarget.Node.PRIMARY, FaultTarget.Node.BACKUP, FaultTarget.Node.DB);
            case LINK_DOWN, FLAKY, BANDWIDTH -> EnumSet.of(FaultTarget.Node.PRIMARY, FaultTarget.Node.BACKUP,
                    FaultTarget.Node.DB, FaultTarget.Node.CLIENTS);
            case PARTITION -> EnumSet.allOf(FaultTarget.Node.class);
        };
    }

    /**
     * Why this kind cannot be injected into a lab with an embedded database or not, on a virtual network or not, with
     * the replicas and the database on other machines ({@code --hosts}) or not, whose cgroups are not this one's (a
     * host without the controller refuses the fault when it is injected); one line that says why and what to do, or
     * empty if it can.
     */
    public Optional<String> whyNot(boolean embeddedDatabase, boolean virtualNetwork, boolean otherMachines) {
        if (needsNetwork() && otherMachines) {
            return Optional.of(wireName + " needs hosts on a virtual network (--topology netns); with --hosts, "
                    + "ftlab makes process and database faults only");
        }
        if (needsNetwork() && !virtualNetwork) {
            return Optional.of(wireName + " needs hosts on a virtual network: run with --topology netns");
        }
        if (layer == Layer.DATABASE && !embeddedDatabase) {
            return Optional.of(wireName + " needs the embedded database: ftlab does not signal or throttle an "
                    + "external server");
        }
        if (this == GC && otherMachines) {
            return Optional.of("gc attaches to the replica's JVM, which needs it on this machine; with --hosts, "
                    + "ftlab makes process and database faults only");
        }
        if (this == CPU_HOG && otherMachines) {
            return Optional.of("cpu-hog starts its processes on this machine, which shares no CPU with --hosts' "
                    + "machines; run it without --hosts");
        }
        if (otherMachines) {
            return Optional.empty();
        }
        Optional<String> cgroup = switch (this) {
            case FREEZE -> Cgroup.unusable("freezer");
            case SLOW, DB_SLOW -> Cgroup.unusable("cpu");
            default -> Optional.empty();
        };
        return cgroup.map(why -> wireName + " needs a cgroup v1 controller: " + why);
    }

    /** The kind with this wire name; a clear error naming every kind otherwise. */
    @JsonCreator
    public static FaultKind parse(String name) {
        for (FaultKind k : values()) {
            if (k.wireName.equalsIgnoreCase(name.strip())) {
                return k;
            }
        }
        throw new IllegalArgumentException("unknown fault kind '" + name + "'; use one of " + names());
    }

    public static String names() {
        return Arrays.stream(values()).map(FaultKind::wireName).collect(Collectors.joining(", "));
    }

    private static String fmt(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
