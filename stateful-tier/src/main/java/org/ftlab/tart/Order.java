package org.ftlab.tart;

/** The order a receiver handles its messages in. */
public enum Order {
    /** Deterministic: strict virtual-time order (ties by wire), each message held until every other wire is silent. */
    VIRTUAL_TIME,
    /** The negative control ({@code --determinism off}): the order messages arrive in, no waiting, not replayable. */
    ARRIVAL
}
