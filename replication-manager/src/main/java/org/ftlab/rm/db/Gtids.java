package org.ftlab.rm.db;

/**
 * MariaDB GTID positions as the servers state them ({@code 0-1-42}, or one such per replication domain, comma
 * separated), or a Galera node's sequence number ({@code 42}). The lab's servers write in domain 0 only, so a
 * position's sequence number orders them.
 */
final class Gtids {
    private Gtids() {
    }

    /** The sequence number of domain 0 in {@code position}; 0 for an empty or unreadable one. */
    static long sequence(String position) {
        if (position == null || position.isBlank()) {
            return 0;
        }
        if (position.strip().chars().allMatch(Character::isDigit)) { // a Galera sequence number
            return Long.parseLong(position.strip());
        }
        for (String gtid : position.split(",")) {
            String[] parts = gtid.strip().split("-");
            if (parts.length == 3 && parts[0].equals("0")) {
                try {
                    return Long.parseLong(parts[2]);
                } catch (NumberFormatException e) {
                    return 0;
                }
            }
        }
        return 0;
    }
}
