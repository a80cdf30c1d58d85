package org.ftlab.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;
import org.ftlab.rm.api.FaultKind.ActsOn;
import org.ftlab.rm.api.FaultKind.LabFacts;
import org.ftlab.rm.api.FaultKind.Layer;
import org.ftlab.rm.api.FaultKind;
import org.ftlab.rm.api.FaultSpec;
import org.ftlab.rm.api.FaultTarget;
import org.junit.jupiter.api.Test;

/** What each kind is: its amount, where it acts, what it fails, when a lab cannot make it, what it is attributed to. */
class KindsTest {
    private static final FaultTarget PRIMARY = FaultTarget.of(FaultTarget.Node.PRIMARY);
    /** One machine, the embedded database, a virtual network. */
    /** One machine with a virtual network, a replicated database and three managers: every kind can be made. */
    private static final LabFacts NETNS = new LabFacts(true, true, false, true, 3);
    private static final Function<String, Optional<String>> EVERY_CONTROLLER = c -> Optional.empty();

    private static FaultKind kind(String name) {
        return FaultKind.parse(name);
    }

    private static List<String> names(Predicate<FaultKind> which) {
        return FaultKind.all().stream().filter(which).map(FaultKind::wireName).toList();
    }

    @Test
    void aKindTakesAnAmountExactlyWhenARandomScheduleHasLevelsToDrawItFrom() {
        for (FaultKind k : FaultKind.all()) {
            assertEquals(k.amountUnit() != null, !k.amountLevels().isEmpty(), k.wireName());
            for (double level : k.amountLevels()) {
                assertEquals(level, k.checkAmount(level), k.wireName() + " accepts its own level " + level);
            }
        }
    }

    @Test
    void aReplicaFailsOnACrashAndOnAHangFreezeOrLinkDownThatOutlastsTheDetectorsTimeout() {
        assertTrue(kind("crash").failsAReplica(new FaultSpec(kind("crash"), PRIMARY, 0, 0), 500));
        for (String name : List.of("hang", "freeze", "link-down")) {
            FaultKind k = kind(name);
            assertTrue(k.failsAReplica(new FaultSpec(k, PRIMARY, 2_000, 0), 500), name);
            assertFalse(k.failsAReplica(new FaultSpec(k, PRIMARY, 300, 0), 500), name + ", shorter");
        }
        assertFalse(kind("link-down").failsAReplica(new FaultSpec(kind("link-down"),
                FaultTarget.of(FaultTarget.Node.DB), 2_000, 0), 500), "the database's link is not a replica's");
        assertFalse(kind("slow").failsAReplica(new FaultSpec(kind("slow"), PRIMARY, 60_000, 10), 500),
                "a slow replica still heartbeats");
        assertTrue(kind("partition").failsAReplica(new FaultSpec(kind("partition"), FaultTarget.between(
                FaultTarget.Node.PRIMARY, FaultTarget.Node.FD), 2_000, 0), 500), "cut off from the detector");
        assertFalse(kind("partition").failsAReplica(new FaultSpec(kind("partition"), FaultTarget.between(
                FaultTarget.Node.PRIMARY, FaultTarget.Node.DB), 2_000, 0), 500), "the detector still hears it");
    }

    @Test
    void aResetToTheDetectorFailsAReplicaAtOnceAndAOneWayCutOnlyWhenTheReplicaCannotSpeak() {
        FaultTarget primaryFd = FaultTarget.between(FaultTarget.Node.PRIMARY, FaultTarget.Node.FD);
        FaultTarget fdPrimary = FaultTarget.between(FaultTarget.Node.FD, FaultTarget.Node.PRIMARY);
        FaultTarget primaryDb = FaultTarget.between(FaultTarget.Node.PRIMARY, FaultTarget.Node.DB);
        assertTrue(kind("tcp-reset").failsAReplica(new FaultSpec(kind("tcp-reset"), fdPrimary, 300, 0), 500),
                "its heartbeat socket closes at once, however short the fault");
        assertFalse(kind("tcp-reset").failsAReplica(new FaultSpec(kind("tcp-reset"), primaryDb, 2_000, 0), 500),
                "its database connections are reset; the detector still hears it");
        assertTrue(kind("one-way").failsAReplica(new FaultSpec(kind("one-way"), primaryFd, 2_000, 0), 500),
                "its heartbeats no longer arrive");
        assertFalse(kind("one-way").failsAReplica(new FaultSpec(kind("one-way"), fdPrimary, 2_000, 0), 500),
                "the detector still hears it");
        assertFalse(kind("one-way").failsAReplica(new FaultSpec(kind("one-way"), primaryFd, 300, 0), 500),
                "shorter than the detector's timeout");
        assertEquals(List.of("tcp-reset", "one-way"), names(FaultKind::gray), "drawn by the mix gray only");
    }

    @Test
    void aStallAndOnlyAStallNamesTheCauseTheAttributionShouldGiveIt() {
        Map<String, String> causes = new LinkedHashMap<>();
        for (FaultKind k : FaultKind.all()) {
            assertEquals(k.layer() == Layer.STALL, k.cause().isPresent(), k.wireName());
            k.cause().ifPresent(c -> causes.put(k.wireName(), c.name() + " at " + c.place()));
        }
        assertEquals(Map.of("gc", "gc-pause at REPLICA", "cpu-hog", "cpu-outside at HOST",
                "db-lock", "db-lock-wait at DATABASE", "db-backup", "db-mdl-wait at DATABASE"), causes);
    }

    @Test
    void eachKindActsWhereItsLayerSays() {
        for (FaultKind k : FaultKind.all()) {
            switch (k.layer()) {
                case PROCESS -> assertEquals(ActsOn.REPLICA_PROCESS, k.actsOn(), k.wireName());
                case DATABASE -> assertEquals(ActsOn.DATABASE_PROCESS, k.actsOn(), k.wireName());
                case NETWORK -> assertEquals(ActsOn.NETWORK, k.actsOn(), k.wireName());
                case STALL -> assertTrue(k.actsOn() != ActsOn.NETWORK, k.wireName() + " needs no virtual network");
            }
        }
        assertEquals(ActsOn.REPLICA_PROCESS, kind("gc").actsOn(), "a collection in the replica's JVM");
        assertEquals(ActsOn.BESIDE_TARGET, kind("cpu-hog").actsOn(), "processes beside the target");
        assertEquals(ActsOn.DATABASE_SESSION, kind("db-lock").actsOn(), "a session of its own");
        assertEquals(ActsOn.DATABASE_SESSION, kind("db-backup").actsOn(), "a session of its own");
    }

    @Test
    void theManagerMakesOnlyACrashAndOnlyThePartitionsAndTheResetsTakeTwoSides() {
        assertEquals(List.of("crash"), names(FaultKind::madeByManager));
        assertFalse(kind("crash").lasts(), "the manager repairs it: no duration");
        assertEquals("a crash is made by the manager, under its lock", assertThrows(IllegalArgumentException.class,
                () -> LabFaultKind.of(kind("crash")).make(new FaultSpec(kind("crash"), PRIMARY, 0, 0), null))
                .getMessage());
        assertEquals(List.of("partition", "rm-partition", "tcp-reset", "one-way"), names(FaultKind::takesTwoSides));
        assertEquals("leader|managers", kind("rm-partition").defaultTarget().toString(),
                "the leader cut off from every other manager");
    }

    @Test
    void aKindALabCannotMakeIsRefusedWithWhyAndWhatToDo() {
        LabFacts oneMachine = new LabFacts(true, false, false);
        LabFacts external = new LabFacts(false, true, false);
        LabFacts otherMachines = new LabFacts(true, false, true, true);
        Function<String, Optional<String>> noFreezer = c -> c.equals("freezer") ? Optional.of("not mounted")
                : Optional.empty();
        Function<String, Optional<String>> noCpu = c -> c.equals("cpu") ? Optional.of("not mounted")
                : Optional.empty();
        assertEquals(List.of(), names(k -> k.whyNot(NETNS, EVERY_CONTROLLER).isPresent()),
                "one machine with a virtual network and every controller makes every kind");
        assertEquals(Optional.of("partition needs hosts on a virtual network: run with --topology netns"),
                kind("partition").whyNot(oneMachine, EVERY_CONTROLLER));
        assertEquals(Optional.of("flaky needs hosts on a virtual network (--topology netns); with --hosts, ftlab "
                + "makes process and database faults only"), kind("flaky").whyNot(otherMachines, EVERY_CONTROLLER));
        assertEquals(Optional.of("db-slow needs the embedded database: ftlab does not signal or throttle an external "
                + "server"), kind("db-slow").whyNot(external, noCpu));
        assertEquals(Optional.of("db-crash needs a replicated database, which the manager fails over: run with "
                + "--database semisync (or async, galera); one server is not restarted"),
                kind("db-crash").whyNot(oneMachine, EVERY_CONTROLLER));
        assertEquals(Optional.of("rm-crash needs a lab of several managers, one of which takes over: run with "
                + "--managers 3"), kind("rm-crash").whyNot(oneMachine, EVERY_CONTROLLER));
        assertEquals(Optional.empty(), kind("fd-crash").whyNot(oneMachine, EVERY_CONTROLLER),
                "one manager starts a new detector too");
        assertEquals(Optional.of("freeze needs a cgroup v1 controller: not mounted"),
                kind("freeze").whyNot(oneMachine, noFreezer));
        assertEquals(Optional.of("db-slow needs a cgroup v1 controller: not mounted"),
                kind("db-slow").whyNot(oneMachine, noCpu));
        assertEquals(Optional.empty(), kind("slow").whyNot(otherMachines, noCpu),
                "on other machines the host refuses it when it is injected");
        assertEquals(Optional.of("gc attaches to the replica's JVM, which needs it on this machine; with --hosts, "
                + "ftlab makes process and database faults only"), kind("gc").whyNot(otherMachines, EVERY_CONTROLLER));
        assertEquals(Optional.of("cpu-hog starts its processes on this machine, which shares no CPU with --hosts' "
                + "machines; run it without --hosts"), kind("cpu-hog").whyNot(otherMachines, EVERY_CONTROLLER));
        assertEquals(List.of("link-down", "partition", "flaky", "bandwidth", "gc", "cpu-hog", "rm-crash", "rm-hang",
                "fd-crash", "rm-partition", "tcp-reset", "one-way"), names(k -> k.whyNot(otherMachines, EVERY_CONTROLLER).isPresent()),
                "what --hosts (a lab of one manager) cannot make");
    }
}
