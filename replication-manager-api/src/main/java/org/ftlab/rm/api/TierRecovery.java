package org.ftlab.rm.api;

/**
 * How the stateful tier recovered on a new primary after a failure (seed 003): the manager's call to the promoted
 * replica, which restored the newest checkpoint and replayed the inputs logged after it before serving.
 *
 * @param replica the new primary
 * @param startedEpochUs when the manager asked it to recover
 * @param recoveredEpochUs when it answered that it serves; 0 if it failed
 * @param replayInputs inputs replayed (those logged after the checkpoint, besides the messages it held)
 * @param replayMicros how long the replay took; {@code restoreMicros} reading and restoring before it
 * @param error why it failed; null if it did not
 */
public record TierRecovery(String replica, long startedEpochUs, long recoveredEpochUs, int replayInputs,
        long replayMicros, long restoreMicros, String error) {
}
