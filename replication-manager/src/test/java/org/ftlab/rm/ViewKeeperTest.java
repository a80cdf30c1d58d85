package org.ftlab.rm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.ftlab.fd.FailureKind;
import org.ftlab.rm.api.FailureRecord;
import org.ftlab.rm.api.FaultKind;
import org.ftlab.rm.api.FaultSpec;
import org.ftlab.rm.api.FaultTarget;
import org.ftlab.rm.api.InjectedFault;
import org.ftlab.rm.api.ManagerGroup;
import org.ftlab.rm.api.ReplicaState;
import org.junit.jupiter.api.Test;

class ViewKeeperTest {
    private static final FaultKind CRASH = FaultKind.parse("crash");
    private static final FaultKind HANG = FaultKind.parse("hang");
    private static final FaultKind SLOW = FaultKind.parse("slow");
    private static final FailureRecord.Source FD = FailureRecord.Source.FAULT_DETECTOR;
    private static final FailureRecord.Source CLIENT = FailureRecord.Source.CLIENT;

    /** A keeper of degree 2 with r1 primary, r2 backup, and {@code spares} spares (r3, …). */
    private static ViewKeeper lab(int spares) {
        ViewKeeper v = new ViewKeeper(2);
        v.join(v.launching(), 1);
        v.join(v.launching(), 2);
        for (int i = 0; i < spares; i++) {
            assertFalse(v.offerSpare(v.launching(), 3), "a spare waits outside a full view");
        }
        return v;
    }

    private static InjectedFault inject(ViewKeeper v, FaultKind kind, String replica, long at) {
        InjectedFault f = new InjectedFault(v.nextFaultId(), new FaultSpec(kind, FaultTarget.of(FaultTarget.Node
                .PRIMARY), kind.lasts() ? 5_000 : 0, 0), replica, 99, at, 0, InjectedFault.Repair.NONE);
        v.injected(f);
        return f;
    }

    @Test
    void eachLeadershipIsRecordedOnceAndAManagerOfAnOlderTermMayNoLongerChangeTheView() {
        ViewKeeper v = new ViewKeeper(2);
        v.lead("m1", 1, 10);
        v.lead("m1", 1, 20); // the same leader again: nothing new
        v.lead("m2", 3, 30);
        IllegalStateException stale = assertThrows(IllegalStateException.class, () -> v.lead("m1", 1, 40));
        assertEquals("manager m1 of term 1 may not change the view: m2 leads in term 3", stale.getMessage());
        assertThrows(IllegalStateException.class, () -> v.lead("m3", 3, 50), "one leader a term");
        assertEquals(List.of(new ManagerGroup.Leadership("m1", 1, 10), new ManagerGroup.Leadership("m2", 3, 30)),
                v.leaderships());
    }

    @Test
    void aNewLeaderActingRepairsTheFaultThatFailedItsPredecessorAndOnlyThatOne() {
        ViewKeeper v = lab(0);
        v.lead("m1", 1, 10);
        InjectedFault crash = new InjectedFault(v.nextFaultId(), new FaultSpec(FaultKind.parse("rm-crash"),
                FaultTarget.of(FaultTarget.Node.LEADER), 0, 0), null, 0, 20, 0, InjectedFault.Repair.NONE);
        v.injected(crash);
        InjectedFault slow = inject(v, FaultKind.parse("slow"), "r1", 25);
        v.lead("m2", 2, 30);
        assertThrows(IllegalStateException.class, () -> v.acting("m1", 1, 35), "only the leader of the term acts");
        v.acting("m2", 2, 40);
        assertEquals(new ManagerGroup.Leadership("m2", 2, 30, 40), v.leaderships().get(1));
        assertEquals(InjectedFault.Repair.REPLACED, v.faults().get(0).repair());
        assertEquals(40, v.faults().get(0).repairedEpochUs());
        assertEquals(slow, v.faults().get(1), "a replica's fault is not the leader's to repair by acting");
    }

    @Test
    void theFirstReplicaToJoinIsThePrimaryAndEveryChangeGrowsTheEpoch() {
        ViewKeeper v = lab(0);
        assertEquals(List.of("r1", "r2"), v.servingNames());
        assertEquals(ReplicaState.PRIMARY, v.state("r1"));
        assertEquals(ReplicaState.BACKUP, v.state("r2"));
        assertEquals(2, v.epoch());
        assertEquals("r1", v.view(n -> "uri-" + n).primary().name());
    }

    @Test
    void aFailedPrimaryIsReplacedByTheNextBackupAndASpareRestoresTheDegreeAtOnce() {
        ViewKeeper v = lab(1);
        ViewKeeper.Failure f = v.fail("r1", FailureKind.CRASH, FD, 100, 110);
        assertEquals("r2", f.promoted());
        assertEquals("r3", f.spareJoined());
        assertFalse(f.needsReplacement());
        assertEquals(List.of("r2", "r3"), v.servingNames());
        assertEquals(ReplicaState.PRIMARY, v.state("r2"));
        assertEquals(ReplicaState.BACKUP, v.state("r3"));
        assertEquals(ReplicaState.DEAD, v.state("r1"));
        FailureRecord r = f.record();
        assertTrue(r.wasPrimary());
        assertEquals(110, r.promotedEpochUs());
        assertEquals(110, r.restoredEpochUs());
        assertEquals("r3", r.replacement());
        assertEquals(1, r.sparesReady());
        assertEquals(3, v.epoch(), "one view change for the whole fail-over");
    }

    @Test
    void withoutASpareTheDegreeWaitsForAReplacementWhichRestoresTheOldestFailure() {
        ViewKeeper v = lab(0);
        ViewKeeper.Failure f = v.fail("r2", FailureKind.HANG, FD, 100, 110);
        assertTrue(f.needsReplacement());
        assertNull(f.promoted(), "a backup's failure promotes nobody");
        assertTrue(v.stillShort(0));
        String replacement = v.launching();
        v.join(replacement, 500);
        assertFalse(v.stillShort(0));
        assertEquals(500, v.failures().get(0).restoredEpochUs());
        assertEquals(replacement, v.failures().get(0).replacement());
    }

    @Test
    void whenNoBackupIsLeftTheReplicaThatJoinsNextIsTheNewPrimary() {
        ViewKeeper v = new ViewKeeper(1);
        v.join(v.launching(), 1);
        ViewKeeper.Failure f = v.fail("r1", FailureKind.CRASH, FD, 100, 110);
        assertNull(f.promoted());
        assertEquals(0, f.record().promotedEpochUs());
        assertTrue(v.offerSpare(v.launching(), 900), "a spare booted while the degree is short joins at once");
        FailureRecord r = v.failures().get(0);
        assertEquals(900, r.promotedEpochUs(), "promoted when the new primary joined");
        assertEquals(900, r.restoredEpochUs());
    }

    @Test
    void aStaleReportOfADeadOrUnknownReplicaChangesNothing() {
        ViewKeeper v = lab(0);
        v.fail("r1", FailureKind.CRASH, FD, 100, 110);
        long epoch = v.epoch();
        assertNull(v.fail("r1", FailureKind.CRASH, FD, 120, 130));
        assertNull(v.fail("r9", FailureKind.CRASH, FD, 120, 130));
        assertEquals(epoch, v.epoch());
        assertEquals(1, v.failureCount());
    }

    @Test
    void aFailureOfAReplicaUnderAnInjectedFaultIsRecordedUnderThatFaultAndItsFenceEndsTheFault() {
        ViewKeeper v = lab(1);
        InjectedFault hang = inject(v, HANG, "r1", 50);
        ViewKeeper.Failure f = v.fail("r1", FailureKind.HANG, FD, 600, 610);
        assertEquals(hang.faultId(), f.record().faultId());
        assertEquals(50, f.record().injectedEpochUs());
        assertEquals(1, f.ended().size(), "the fence ends the hang: the lab must not resume it");
        InjectedFault after = v.faults().get(0);
        assertEquals(InjectedFault.Repair.FENCED, after.repair());
        assertEquals(610, after.repairedEpochUs());
        assertNull(v.repaired(hang.faultId(), 5_050, InjectedFault.Repair.UNDONE),
                "the scheduled repair finds it ended");
    }

    @Test
    void aFailureReportedWhileItsFaultIsBeingMadeIsThatFaultsAndTheFaultKeepsTheTimeItsMakingBegan() {
        ViewKeeper v = lab(1);
        InjectedFault hang = inject(v, HANG, "r1", 50); // recorded as its making begins
        ViewKeeper.Failure f = v.fail("r1", FailureKind.HANG, CLIENT, 58, 60); // a client's report, 8 µs later
        assertEquals(hang.faultId(), f.record().faultId(), "one fault, not an injection and a failure of no cause");
        assertEquals(50, f.record().injectedEpochUs());
        InjectedFault made = v.made(hang.faultId(), 75);
        assertEquals(50, made.injectedEpochUs(), "it ended before it was made: it keeps the time its making began");
        assertEquals(InjectedFault.Repair.FENCED, made.repair());

        InjectedFault slow = inject(v, HANG, "r2", 1_000);
        assertEquals(1_020, v.made(slow.faultId(), 1_020).injectedEpochUs(), "in place from when it was made");
        InjectedFault unmade = inject(v, HANG, "r2", 2_000);
        v.withdrawn(unmade.faultId());
        assertEquals(List.of(hang.faultId(), slow.faultId()), v.faults().stream().map(InjectedFault::faultId)
                .toList(), "a fault that could not be made is forgotten");
    }

    @Test
    void aCrashIsRepairedByTheManagerAndALaterFailureOfAnotherReplicaGetsAnIdOfItsOwn() {
        ViewKeeper v = lab(1);
        InjectedFault crash = inject(v, CRASH, "r1", 50);
        v.fail("r1", FailureKind.CRASH, FD, 80, 90);
        assertEquals(InjectedFault.Repair.REPLACED, v.faults().get(0).repair());
        ViewKeeper.Failure unprovoked = v.fail("r2", FailureKind.HANG, FD, 900, 910);
        assertFalse(unprovoked.record().faultId().equals(crash.faultId()));
        assertEquals(0, unprovoked.record().injectedEpochUs(), "nobody injected it");
    }

    @Test
    void aFaultThatFailedNoReplicaIsRepairedByTheLabAfterItsDuration() {
        ViewKeeper v = lab(0);
        InjectedFault slow = inject(v, SLOW, "r1", 50);
        InjectedFault done = v.repaired(slow.faultId(), 5_050, InjectedFault.Repair.UNDONE);
        assertEquals(5_050, done.repairedEpochUs());
        assertFalse(v.faults().get(0).active());
        assertEquals(0, v.failureCount());
        assertThrows(IllegalArgumentException.class, () -> v.repaired("f99", 1, InjectedFault.Repair.UNDONE));
    }

    @Test
    void aSpareThatFailsLeavesTheDegreeAsItWas() {
        ViewKeeper v = lab(1);
        ViewKeeper.Failure f = v.fail("r3", FailureKind.CRASH, FD, 100, 110);
        assertFalse(f.wasServing());
        assertFalse(f.needsReplacement());
        assertEquals(List.of("r1", "r2"), v.servingNames());
        assertTrue(v.spares().isEmpty());
    }

    @Test
    void loweringTheDegreeMovesTheLastBackupsToTheFrontOfTheSparePoolAndRaisingItTakesThemBackFirst() {
        ViewKeeper v = new ViewKeeper(3);
        v.join(v.launching(), 1);
        v.join(v.launching(), 2);
        v.join(v.launching(), 3);
        assertFalse(v.offerSpare(v.launching(), 4));
        long epoch = v.epoch();

        ViewKeeper.DegreeChange down = v.setDegree(1, 10);
        assertEquals(List.of("r3", "r2"), down.left());
        assertEquals(List.of("r1"), v.servingNames(), "the primary never leaves");
        assertEquals(List.of("r2", "r3", "r4"), v.spares(), "the warm backups are taken first");
        assertEquals(ReplicaState.SPARE, v.state("r2"));
        assertEquals(1, v.targetDegree());
        assertEquals(epoch + 1, v.epoch());

        ViewKeeper.DegreeChange up = v.setDegree(2, 20);
        assertEquals(List.of("r2"), up.joined());
        assertEquals(0, up.missing());
        assertEquals(List.of("r1", "r2"), v.servingNames());
        assertEquals(ReplicaState.BACKUP, v.state("r2"));
        assertEquals(epoch + 2, v.epoch());

        assertEquals(0, v.setDegree(2, 30).joined().size());
        assertEquals(epoch + 2, v.epoch(), "asking for the degree the view has changes nothing");
    }

    @Test
    void aFailureAtALoweredDegreeIsRestoredFromTheDemotedBackup() {
        ViewKeeper v = lab(0);
        v.setDegree(1, 10);
        ViewKeeper.Failure f = v.fail("r1", FailureKind.CRASH, FD, 100, 110);
        assertEquals("r2", f.spareJoined());
        assertEquals("r2", f.promoted(), "the demoted backup is the new primary");
        assertFalse(f.needsReplacement());
    }

    @Test
    void raisingTheDegreeWithoutSparesSaysHowManyAreMissingAndALaterReplicaJoins() {
        ViewKeeper v = lab(0);
        v.setDegree(1, 10);
        v.fail("r2", FailureKind.CRASH, FD, 20, 21); // the demoted backup, now a spare, fails
        ViewKeeper.DegreeChange up = v.setDegree(2, 30);
        assertEquals(1, up.missing());
        assertTrue(v.offerSpare(v.launching(), 40), "a replica booted while the view is short joins it");
        assertEquals(List.of("r1", "r3"), v.servingNames());
    }

    @Test
    void theDegreeCannotExceedTheOneTheLabStartedWith() {
        ViewKeeper v = lab(2);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> v.setDegree(3, 10));
        assertTrue(e.getMessage().contains("1 to 2"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> v.setDegree(0, 10));
    }
}
