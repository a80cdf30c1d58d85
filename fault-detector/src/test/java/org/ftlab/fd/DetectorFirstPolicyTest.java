package org.ftlab.fd;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.jgroups.Address;
import org.jgroups.protocols.pbcast.GMS;
import org.jgroups.util.NameCache;
import org.jgroups.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The detector comes first in every view the policy computes, whatever the address order; a view without it is
 * JGroups' default. The detector's address here sorts after every replica's, where the default merge puts it last.
 */
class DetectorFirstPolicyTest {
    private static final Address R1 = named(new UUID(0, 1), "r1/101");
    private static final Address R2 = named(new UUID(0, 2), "r2/102");
    private static final Address R3 = named(new UUID(0, 3), "r3/103");
    private static final Address FD = named(new UUID(Long.MAX_VALUE, Long.MAX_VALUE), HeartbeatStack.DETECTOR);
    private static final Address FD2 = named(new UUID(Long.MAX_VALUE, Long.MAX_VALUE - 1),
            HeartbeatStack.detectorName(2));
    private final DetectorFirstPolicy policy = new DetectorFirstPolicy();

    private static Address named(Address a, String name) {
        NameCache.add(a, name);
        return a;
    }

    @Test
    void aMergeOfTheReplicasSideAndTheDetectorsSideIsLedByTheDetector() {
        List<Address> merged = policy.getNewMembership(List.of(List.of(R1, R2), List.of(FD, R3)));
        assertEquals(FD, merged.get(0), merged.toString());
        assertEquals(4, merged.size());
    }

    @Test
    void theDetectorJoiningAGroupLedByAReplicaBecomesItsCoordinator() {
        assertEquals(List.of(FD, R1, R2), policy.getNewMembership(List.of(R1, R2), List.of(FD), List.of(), List.of()));
    }

    @Test
    void aJoinOrALeaveKeepsTheDefaultOrderBehindTheDetector() {
        assertEquals(List.of(FD, R2, R3), policy.getNewMembership(List.of(FD, R1, R2), List.of(R3), List.of(R1),
                List.of()));
    }

    @Test
    void aStandbyDetectorComesSecondAndCoordinatesOnceTheFirstIsGone() {
        assertEquals(List.of(FD, FD2, R1, R2), policy.getNewMembership(List.of(List.of(R1, FD2), List.of(R2, FD))));
        assertEquals(List.of(FD2, R1, R2), policy.getNewMembership(List.of(FD, FD2, R1, R2), List.of(), List.of(),
                List.of(FD)));
    }

    @Test
    void onlyTheNamesFdFd2Fd3AndSoOnAreDetectors() {
        assertEquals(1, HeartbeatStack.detectorIndex("fd"));
        assertEquals(3, HeartbeatStack.detectorIndex(HeartbeatStack.detectorName(3)));
        for (String notADetector : List.of("fd1", "fd0", "fdx", "fd2/101", "r1/101", "f")) {
            assertEquals(0, HeartbeatStack.detectorIndex(notADetector), notADetector);
        }
    }

    @Test
    void aGroupWithoutTheDetectorIsOrderedAsJGroupsWould() {
        List<Address> merged = policy.getNewMembership(List.of(List.of(R2), List.of(R1)));
        assertEquals(new GMS.DefaultMembershipPolicy()
                .getNewMembership(List.of(List.of(R2), List.of(R1))), merged);
    }
}
