package org.ftlab.auction.api;

import java.io.Serializable;

/**
 * A replica's stateful tier: whether it runs there, at which epoch, and its totals.
 *
 * @param messages messages the engine handled since the tier (re)started here
 * @param pessimismDelayMicros their total pessimism delay; {@code delayed}: how many waited at all
 * @param checkpoints soft checkpoints taken; {@code lastCheckpointBytes} the newest one's size, {@code
 *     checkpointCaptureMicros} the time capturing them all took on the engine's thread
 * @param replayInputs inputs replayed when it (re)started here; {@code replayMicros} how long that took, {@code
 *     restoreMicros} reading and restoring the checkpoint and log before it
 * @param logCommits commits of the input log; {@code inputsPerCommit} how many inputs a commit carried (group commit)
 * @param failure why the tier stopped on its own here (fenced, a failed log), or null
 */
public record TierStatus(boolean active, String replica, long epoch, long messages, long pessimismDelayMicros,
        long delayed, long curiosityProbes, long outOfOrder, long checkpoints, long lastCheckpointBytes,
        long checkpointCaptureMicros, int recalibrations, int replayInputs, long replayMicros, long restoreMicros,
        long logCommits, double inputsPerCommit, String failure) implements Serializable {
}
