package org.ftlab.fd;

/** A replica's name in the heartbeat group: {@code <replica>/<pid>}, e.g. {@code r1/12345}. */
public record MemberName(String replica, long pid) {

    public static String of(String replica, long pid) {
        return replica + "/" + pid;
    }

    /** Parses a member name; {@code null} for members that are not replicas (the detector itself). */
    public static MemberName parse(String name) {
        int slash = name == null ? -1 : name.lastIndexOf('/');
        if (slash <= 0) {
            return null;
        }
        try {
            return new MemberName(name.substring(0, slash), Long.parseLong(name.substring(slash + 1)));
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
