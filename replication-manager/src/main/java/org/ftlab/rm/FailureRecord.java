package org.ftlab.rm;

/**
 * One replica failure from injection (if injected) to restored replication degree; times in microseconds since the
 * epoch on this host's clock, 0 where a step has not happened (yet).
 *
 * @param faultId {@code f1}, {@code f2}, … in order of injection or detection
 * @param kind {@code crash} or {@code hang}
 * @param source who reported it first: {@code fault-detector}, {@code client}
 * @param wasPrimary whether the failed replica was the primary (a promotion followed)
 * @param replacement the replica relaunched in its place, or null
 */
public record FailureRecord(String faultId, String replica, String kind, String source, boolean wasPrimary,
        long injectedEpochUs, long detectedEpochUs, long promotedEpochUs, long restoredEpochUs, String replacement) {

    FailureRecord withPromoted(long epochUs) {
        return new FailureRecord(faultId, replica, kind, source, wasPrimary, injectedEpochUs, detectedEpochUs,
                epochUs, restoredEpochUs, replacement);
    }

    FailureRecord withRestored(long epochUs, String replacementName) {
        return new FailureRecord(faultId, replica, kind, source, wasPrimary, injectedEpochUs, detectedEpochUs,
                promotedEpochUs, epochUs, replacementName);
    }
}
