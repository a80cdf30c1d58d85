package org.ftlab.rm;

import org.ftlab.rm.replica.Replica;

/** A replica's process and how it was launched; guarded by {@link LabState#lock}. */
final class ReplicaRecord {
    final long launchedEpochMillis;
    final int launchNiceness;
    volatile Replica replica;
    /** The nice value it runs at (a replacement or spare booted beside a running service). */
    volatile int niceness;
    /** How long the warmer's boot rounds took, ms (-1: they failed). */
    volatile long warmUpMillis;
    /** Whether what it recorded before it died was collected into a dump ({@link LabJvms}). */
    volatile boolean deadEventsCollected;
    /** Whether WildFly is suspended (a spare of WildFly's cluster): no client, and no warmer, reaches it. */
    volatile boolean suspended;

    ReplicaRecord(int niceness) {
        this(niceness, System.currentTimeMillis());
    }

    ReplicaRecord(int niceness, long launchedEpochMillis) {
        this.launchNiceness = niceness;
        this.niceness = niceness;
        this.launchedEpochMillis = launchedEpochMillis;
    }
}
