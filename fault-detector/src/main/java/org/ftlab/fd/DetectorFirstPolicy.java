package org.ftlab.fd;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import org.jgroups.Address;
import org.jgroups.protocols.pbcast.GMS;
import org.jgroups.util.NameCache;

/**
 * Keeps the Fault Detectors first in every view of the heartbeat group, so one of them is the coordinator.
 *
 * <p>Why it must: JGroups removes a member from the view on its coordinator's own suspicion (after VERIFY_SUSPECT);
 * a suspicion raised in any other member goes no further than that member's stack. While a replica coordinates, it
 * can exclude another replica before the detector's own timeout fires, and the detector then never suspects (nor
 * reports) it. JGroups' default policy appends joiners and, after a merge (a partition healed), orders the members
 * by address: any replica may come out first. This policy is that default with the detector moved to the front; a
 * group without the detector (the replicas' side of a partition) is left as the default orders it.
 *
 * <p>Every member runs it (it is named in {@code ftlab-heartbeat.xml}): whichever member computes a view or leads a
 * merge puts the detector first.
 */
public final class DetectorFirstPolicy extends GMS.DefaultMembershipPolicy {
    @Override
    public List<Address> getNewMembership(Collection<Address> current, Collection<Address> joiners,
            Collection<Address> leavers, Collection<Address> suspects) {
        return detectorFirst(super.getNewMembership(current, joiners, leavers, suspects));
    }

    @Override
    public List<Address> getNewMembership(Collection<Collection<Address>> subviews) {
        return detectorFirst(super.getNewMembership(subviews));
    }

    /**
     * {@code members} with the detectors (the members {@link HeartbeatStack#detectorName} names) moved to the front,
     * {@code fd} first, then {@code fd2}, {@code fd3}: while the first runs it coordinates; once it is gone the next
     * does, in the view that excludes it. The others keep their order behind them.
     */
    static List<Address> detectorFirst(List<Address> members) {
        List<Address> detectors = new ArrayList<>();
        List<Address> others = new ArrayList<>(members.size());
        for (Address member : members) {
            (HeartbeatStack.detectorIndex(NameCache.get(member)) > 0 ? detectors : others).add(member);
        }
        if (detectors.isEmpty()) {
            return members;
        }
        detectors.sort(Comparator.comparingInt(a -> HeartbeatStack.detectorIndex(NameCache.get(a))));
        detectors.addAll(others);
        return detectors;
    }
}
