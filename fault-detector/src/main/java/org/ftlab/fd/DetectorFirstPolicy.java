package org.ftlab.fd;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.jgroups.Address;
import org.jgroups.protocols.pbcast.GMS;
import org.jgroups.util.NameCache;

/**
 * Keeps the Fault Detector first in every view of the heartbeat group, so it stays the coordinator.
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

    /** {@code members} with the detector (the member named {@value HeartbeatStack#DETECTOR}) moved to the front. */
    static List<Address> detectorFirst(List<Address> members) {
        for (int i = 1; i < members.size(); i++) {
            if (HeartbeatStack.DETECTOR.equals(NameCache.get(members.get(i)))) {
                List<Address> ordered = new ArrayList<>(members.size());
                ordered.add(members.get(i));
                for (int j = 0; j < members.size(); j++) {
                    if (j != i) {
                        ordered.add(members.get(j));
                    }
                }
                return ordered;
            }
        }
        return members;
    }
}
