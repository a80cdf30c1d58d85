package org.ftlab.rm.api;

/**
 * One replica as {@code GET /status} reports it.
 *
 * @param pid its server process, null before it was launched
 * @param nice the nice value it runs at (a replacement or spare booted beside a running service)
 * @param warmUpMillis how long the warmer's boot rounds took, -1 if they failed
 * @param uri where clients connect, null before it was launched
 * @param uptimeMillis since launch, null once dead
 * @param startupMillis from launch until it served, null before
 * @param topTierShare its share of the request path compiled at the top tier (docs/architecture.md, "hot"), as last
 *     read; null where not read (another machine, not yet, dead)
 * @param hotSinceEpochMillis since when that share has been at least {@value #HOT_SHARE} (hot), null while it is not
 */
public record ReplicaStatus(String name, ReplicaState state, Long pid, int nice, long warmUpMillis, String uri,
        long launchedEpochMillis, Long uptimeMillis, Long startupMillis, Double topTierShare,
        Long hotSinceEpochMillis) {
    /** The least share of the request path compiled at the top tier of a hot replica. */
    public static final double HOT_SHARE = 0.9;
}
