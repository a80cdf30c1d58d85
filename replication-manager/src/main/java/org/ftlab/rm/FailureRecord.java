package org.ftlab.rm;

/**
 * One replica failure from injection (if injected) to restored replication degree; times in microseconds since the
 * epoch on this host's clock, 0 where a step has not happened (yet).
 *
 * @param faultId {@code f1}, {@code f2}, … in order of injection or detection
 * @param kind {@code crash} or {@code hang}
 * @param source who reported it first: {@code fault-detector}, {@code client}
 * @param wasPrimary whether the failed replica was the primary (a promotion followed)
 * @param replacement the replica that took its place in the view (a spare or a relaunched one), or null
 * @param sparesReady booted spares outside the view when the failure was handled: 0 means the degree waited for a
 *     boot
 */
public record FailureRecord(String faultId, String replica, String kind, String source, boolean wasPrimary,
        long injectedEpochUs, long detectedEpochUs, long promotedEpochUs, long restoredEpochUs, String replacement,
        int sparesReady) {

    FailureRecord withPromoted(long epochUs) {
        return new FailureRecord(faultId, replica, kind, source, wasPrimary, injectedEpochUs, detectedEpochUs,
                epochUs, restoredEpochUs, replacement, sparesReady);
    }

    FailureRecord withRestored(long epochUs, String replacementName) {
        return new FailureRecord(faultId, replica, kind, source, wasPrimary, injectedEpochUs, detectedEpochUs,
                promotedEpochUs, epochUs, replacementName, sparesReady);
    }
}
