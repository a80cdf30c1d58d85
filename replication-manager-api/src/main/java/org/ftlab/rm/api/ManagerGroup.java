package org.ftlab.rm.api;

import java.util.List;

/**
 * The Replication Managers of a lab: who they are, who leads, and every leadership so far. A lab runs one manager
 * (which leads for ever, in term 1) unless started with several.
 *
 * @param members every manager's id, in the order the lab numbered them
 * @param leader the id of the manager that leads now, null while none does (an election)
 * @param term the current term: it grows with every new leader
 * @param leaderships every leadership, oldest first: the view's changes in a term are its leader's alone
 */
public record ManagerGroup(List<String> members, String leader, long term, List<Leadership> leaderships) {

    public ManagerGroup {
        members = List.copyOf(members);
        leaderships = List.copyOf(leaderships);
    }

    /**
     * One manager's leadership: from its first change of the view in {@code term} until a manager of a higher term
     * changed it.
     *
     * @param sinceEpochUs when it applied its first change, µs since the epoch on its clock: it had been elected
     * @param actingEpochUs when it had taken the lab over (adopted its processes, finished what its predecessor
     *     began) and acted on failures again; 0 until then, and for the lab's first leader, which started the lab
     */
    public record Leadership(String member, long term, long sinceEpochUs, long actingEpochUs) {
        /** A leadership not yet acting. */
        public Leadership(String member, long term, long sinceEpochUs) {
            this(member, term, sinceEpochUs, 0);
        }

        /** The same leadership, acting since {@code epochUs}. */
        public Leadership acting(long epochUs) {
            return new Leadership(member, term, sinceEpochUs, epochUs);
        }
    }
}
