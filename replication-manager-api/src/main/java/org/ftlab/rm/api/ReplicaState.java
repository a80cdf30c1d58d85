package org.ftlab.rm.api;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** Where a replica is in its life, as the Replication Manager sees it. */
public enum ReplicaState {
    /** Launched; WildFly is booting and joining the heartbeat group. */
    STARTING,
    /** Warm backup: started, deployed, connected to the database, no client traffic. */
    BACKUP,
    /** Booted and ready outside the view: becomes a backup at once when a serving replica fails. */
    SPARE,
    /** The one replica clients send requests to. */
    PRIMARY,
    /** Reported failed (crash or hang), fenced with SIGKILL; a replacement is relaunched. */
    DEAD;

    @JsonValue
    public String wireName() {
        return WireNames.of(this);
    }

    @JsonCreator
    public static ReplicaState parse(String s) {
        return WireNames.parse(ReplicaState.class, s);
    }
}
