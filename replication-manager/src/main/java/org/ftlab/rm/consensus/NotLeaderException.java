package org.ftlab.rm.consensus;

/** A member that does not lead was asked to change the state (or lost the lead before the group agreed). */
public final class NotLeaderException extends Exception {
    private static final long serialVersionUID = 1L;
    private final String leader;

    public NotLeaderException(String message, String leader, Throwable cause) {
        super(message, cause);
        this.leader = leader;
    }

    /** The member this one believes leads, or null if it knows none. */
    public String leader() {
        return leader;
    }
}
