package org.ftlab.rm.api;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import org.ftlab.fd.FailureKind;

/**
 * One replica the manager declared failed, from detection to restored replication degree; times in µs since the
 * epoch on the manager's clock, 0 where a step has not happened (yet).
 *
 * @param faultId the injected fault it belongs to ({@link InjectedFault#faultId()}), or an id of its own
 *     ({@code f<N>}, same sequence) for a failure nobody injected: a real one, or a false suspicion
 * @param verdict how the manager saw the process when it acted: gone ({@code crash}) or alive without heartbeats
 *     ({@code hang})
 * @param source who reported it first
 * @param wasPrimary whether the failed replica was the primary (a promotion followed)
 * @param injectedEpochUs the injection of its fault, 0 if none
 * @param replacement the replica that took its place in the view (a spare or a relaunched one), or null
 * @param sparesReady booted spares outside the view when the failure was handled: 0 means the degree waited for a
 *     boot
 * @param promoted the replica promoted to primary in its place, or null (it was not the primary)
 * @param promotedTopTierShare the promoted replica's share of the request path compiled at the top tier, as last read
 *     before its promotion (docs/architecture.md, "hot"), or null: not read (another machine, or no reading yet)
 */
public record FailureRecord(String faultId, String replica, FailureKind verdict, Source source, boolean wasPrimary,
        long injectedEpochUs, long detectedEpochUs, long promotedEpochUs, long restoredEpochUs, String replacement,
        int sparesReady, String promoted, Double promotedTopTierShare, TierRecovery tierRecovery) {

    /** Who reported a failure first. */
    public enum Source {
        FAULT_DETECTOR, CLIENT;

        @JsonValue
        public String wireName() {
            return WireNames.of(this);
        }

        @JsonCreator
        public static Source parse(String s) {
            return WireNames.parse(Source.class, s);
        }
    }

    /** When it began: its fault's injection, or its detection for a failure nobody injected. */
    public long startEpochUs() {
        return injectedEpochUs > 0 ? injectedEpochUs : detectedEpochUs;
    }

    public FailureRecord withPromoted(long epochUs, String promotedReplica) {
        return new FailureRecord(faultId, replica, verdict, source, wasPrimary, injectedEpochUs, detectedEpochUs,
                epochUs, restoredEpochUs, replacement, sparesReady, promotedReplica, promotedTopTierShare, tierRecovery);
    }

    public FailureRecord withPromotedTopTierShare(Double share) {
        return new FailureRecord(faultId, replica, verdict, source, wasPrimary, injectedEpochUs, detectedEpochUs,
                promotedEpochUs, restoredEpochUs, replacement, sparesReady, promoted, share, tierRecovery);
    }

    public FailureRecord withRestored(long epochUs, String replacementName) {
        return new FailureRecord(faultId, replica, verdict, source, wasPrimary, injectedEpochUs, detectedEpochUs,
                promotedEpochUs, epochUs, replacementName, sparesReady, promoted, promotedTopTierShare, tierRecovery);
    }

    /** With how the stateful tier recovered on the promoted replica. */
    public FailureRecord withTierRecovery(TierRecovery recovery) {
        return new FailureRecord(faultId, replica, verdict, source, wasPrimary, injectedEpochUs, detectedEpochUs,
                promotedEpochUs, restoredEpochUs, replacement, sparesReady, promoted, promotedTopTierShare, recovery);
    }
}
