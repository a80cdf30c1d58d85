package org.ftlab.rm.api;

/**
 * One fail-over of the database's writer, from detection to the first commit on the new writer and the failed server's
 * return as a replica; times in µs since the epoch on the manager's clock, 0 where a step has not happened (yet).
 *
 * @param failed the writer that failed
 * @param verdict how the manager saw it: {@code crash} (its process gone or its port closed) or {@code hang} (alive,
 *     no answer within the database timeout)
 * @param promoted the server that became the writer, null if none could
 * @param detectedEpochUs the manager declared the writer failed
 * @param fencedEpochUs the failed writer was killed and every connection to it cut
 * @param promotedEpochUs the new writer took writes (replicas' connections reach it from here on)
 * @param firstCommitEpochUs the new writer's first commit of a transaction from the service
 * @param rejoinedEpochUs the failed server was back as an up-to-date replica
 * @param lastWriterPosition the failed writer's position as last read before it failed
 * @param promotedPosition the new writer's position when promoted: what it had received of the old writer's
 * @param transactionsBehind transactions the old writer had logged that the new one never received, from its last
 *     reading before it failed and, once it rejoined, from its own files after crash recovery: gone from the tier
 *     (the new writer took other transactions in their place). Whether a client had been told they committed is
 *     the audit's and the history checker's to say: semi-sync's writer logs a transaction before a replica
 *     acknowledges it, so it may have some nobody was told of; async's may have acknowledged ones (lost writes)
 */
public record DatabaseFailover(String failed, String verdict, String promoted, long detectedEpochUs,
        long fencedEpochUs, long promotedEpochUs, long firstCommitEpochUs, long rejoinedEpochUs,
        String lastWriterPosition, String promotedPosition, long transactionsBehind) {

    public DatabaseFailover withFirstCommit(long epochUs) {
        return new DatabaseFailover(failed, verdict, promoted, detectedEpochUs, fencedEpochUs, promotedEpochUs, epochUs,
                rejoinedEpochUs, lastWriterPosition, promotedPosition, transactionsBehind);
    }

    public DatabaseFailover withTransactionsBehind(long n) {
        return new DatabaseFailover(failed, verdict, promoted, detectedEpochUs, fencedEpochUs, promotedEpochUs,
                firstCommitEpochUs, rejoinedEpochUs, lastWriterPosition, promotedPosition, n);
    }

    public DatabaseFailover withRejoined(long epochUs) {
        return new DatabaseFailover(failed, verdict, promoted, detectedEpochUs, fencedEpochUs, promotedEpochUs,
                firstCommitEpochUs, epochUs, lastWriterPosition, promotedPosition, transactionsBehind);
    }
}
