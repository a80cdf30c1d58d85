package org.ftlab.rm.api;

import java.util.List;

/**
 * The ordered replica list clients follow: the first member is the primary, the rest are backups in promotion order.
 * The epoch grows by one at every change, so a client can tell a newer view from an older one.
 *
 * @param members serving replicas, primary first; empty while no replica serves
 */
public record PrimaryBackupView(long epoch, List<Member> members) {

    /** A replica as clients see it: a name and where to connect. */
    public record Member(String name, String uri) {
    }

    public PrimaryBackupView {
        members = List.copyOf(members);
    }

    /** The primary, or null when no replica serves. */
    public Member primary() {
        return members.isEmpty() ? null : members.get(0);
    }

    /** The backup that would be promoted next, or null. */
    public Member nextBackup() {
        return members.size() < 2 ? null : members.get(1);
    }

    public List<Member> backups() {
        return members.size() < 2 ? List.of() : members.subList(1, members.size());
    }
}
